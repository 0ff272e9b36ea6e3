package store

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
)

// scoreText scores a response table with pkg/qa and returns the run
// FromScore makes of it.
func scoreText(t *testing.T, name string, csvText []byte, opt qa.Options) Run {
	t.Helper()
	var rows results.RowTable
	opt.Rows = rows.Add
	res, err := qa.Score(context.Background(), bytes.NewReader(csvText), name, opt)
	if err != nil {
		t.Fatal(err)
	}
	run, err := FromScore("score", res, &rows)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// The built-in sample holds two models' answers to the same 142
// questions under the same ids, so its 284 rows are keyed by row; the
// warning says so, with the count (142 of 284 rows reuse an id) and the
// two ways out.
func TestNoSampleIDSaysWhyOnTheSample(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	record(t, s, scoreText(t, datasets.ResponsesName, datasets.Responses, qa.Options{}))
	got, err := s.Get(ctx, "last")
	if err != nil {
		t.Fatal(err)
	}
	if got.KeyKind != KeyRow || len(got.Warnings) != 1 || got.Warnings[0].Code != CodeNoSampleID {
		t.Fatalf("key %q, warnings %v", got.KeyKind, got.Warnings)
	}
	msg := got.Warnings[0].Message
	for _, want := range []string{`"id" values repeat across the 2 models of the "model" column`, "142 of 284 rows reuse an id",
		"record one run per model, or make the ids unique"} {
		if !strings.Contains(msg, want) {
			t.Errorf("no_sample_id message %q lacks %q", msg, want)
		}
	}
}

func TestNoSampleIDReasons(t *testing.T) {
	cases := []struct {
		name, text, want string
	}{
		{"no id column", "question,answer,Domain,response\nq1,a,D,a\nq2,b,D,c\n", `there is no "id" column`},
		{"empty id", "id,question,answer,Domain,response\nx1,q1,a,D,a\n,q2,b,D,c\n", `the "id" column is empty at line 3`},
		{"repeated within one model", "id,question,answer,Domain,response,model\nx1,q1,a,D,a,m\nx1,q2,b,D,c,m\nx2,q3,b,D,b,m\n",
			`1 of 3 rows repeat an earlier "id" value`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := openTemp(t)
			record(t, s, scoreText(t, "t.csv", []byte(c.text), qa.Options{}))
			got, err := s.Get(context.Background(), "last")
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0].Message, c.want) {
				t.Errorf("warnings %v, want one containing %q", got.Warnings, c.want)
			}
		})
	}
}

// Runs keyed by row name their flipped rows by the first run's stored id
// and input line, which is what a reader can find in the file, not by a
// row number of the store. Here two models answer q1 and q2 under the
// ids x1 and x2; the second run gets line 3 (x2, the first model) right
// and line 4 (x1, the second model) wrong.
func TestDiffNamesRowKeyedFlipsByIDAndLine(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	head := "id,question,answer,Domain,response,model\n"
	a := head + "x1,q1,a,D,a,m1\nx2,q2,b,D,z,m1\nx1,q1,a,D,a,m2\nx2,q2,b,D,b,m2\n"
	b := head + "x1,q1,a,D,a,m1\nx2,q2,b,D,b,m1\nx1,q1,a,D,z,m2\nx2,q2,b,D,b,m2\n"
	opt := qa.Options{Metrics: nil}
	record(t, s, scoreText(t, "a.csv", []byte(a), opt))
	record(t, s, scoreText(t, "b.csv", []byte(b), opt))
	d, err := s.Diff(ctx, "1", "2", DiffOptions{Flips: -1, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Key != KeyRow {
		t.Fatalf("key %q, want row", d.Key)
	}
	m := d.Metrics[0]
	if len(m.BetterRows) != 1 || m.BetterRows[0].ID != "x2 (line 3)" || len(m.WorseRows) != 1 || m.WorseRows[0].ID != "x1 (line 4)" {
		t.Errorf("better %+v worse %+v, want x2 (line 3) and x1 (line 4)", m.BetterRows, m.WorseRows)
	}
}
