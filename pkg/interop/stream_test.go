package interop_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/results"
)

// WriteRowsFrom, which writes each sample's row as it is read (the CSV
// header from a first pass without texts), writes what WriteRows writes
// of the run read whole, and its Summary is Summarize's of that run: for
// every format and fixture below, CSV and JSONL.
func TestWriteRowsFromIsWriteRows(t *testing.T) {
	ctx := context.Background()
	for _, path := range []string{
		"testdata/lmeval/new", "testdata/lmeval/old", "testdata/lmeval/runB",
		"testdata/inspect/qa_hi_bn.eval", "testdata/inspect/epochs.eval", "testdata/inspect/v1.json",
		"testdata/eee/v030/data/mgsm_bn/evalbook/tiny-bn/6f1c2a8e-0b1d-4c55-9a77-3e2d1c0b9a88.json", "testdata/promptfoo/results_v3.json", "testdata/promptfoo/results_v2.json", "testdata/openai_batch/batch_output.jsonl",
	} {
		matches, _ := filepath.Glob(path)
		if len(matches) == 0 {
			t.Fatalf("%s: no such fixture", path)
		}
		run, err := interop.Read(ctx, path, interop.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(run.Samples) == 0 {
			t.Fatalf("%s: no samples", path)
		}
		for _, format := range []string{"csv", "jsonl"} {
			var want, got bytes.Buffer
			if err := interop.WriteRows(&want, run, format); err != nil {
				t.Fatal(err)
			}
			_, sum, err := interop.WriteRowsFrom(ctx, &got, path, interop.Options{}, format)
			if err != nil {
				t.Fatalf("%s %s: %v", path, format, err)
			}
			if got.String() != want.String() {
				t.Errorf("%s %s: WriteRowsFrom wrote\n%s\nWriteRows\n%s", path, format, got.String(), want.String())
			}
			gs, _ := json.Marshal(sum)
			ws, _ := json.Marshal(interop.Summarize(run))
			if string(gs) != string(ws) {
				t.Errorf("%s %s: summary\n%s\nwant\n%s", path, format, gs, ws)
			}
			streamed, err := interop.SummarizeFrom(ctx, path, interop.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if ss, _ := json.Marshal(streamed); string(ss) != string(ws) {
				t.Errorf("%s: SummarizeFrom\n%s\nwant\n%s", path, ss, ws)
			}
		}
	}
	var buf bytes.Buffer
	if _, _, err := interop.WriteRowsFrom(ctx, &buf, "testdata/lmeval/new", interop.Options{}, "xml"); !errors.Is(err, interop.ErrRowFormat) {
		t.Errorf("xml: %v, want ErrRowFormat", err)
	}
}

// Score with Verdicts reads the output twice and emits one row per item
// as the second pass reads it: the rows are those of the run read whole
// with its filters' records merged (MergeFilters), in that order, each
// with the first record's texts and every filter's metric (lm-eval's
// gsm8k_bn fixture writes each document under strict-match and
// flexible-extract).
func TestScoreRowsStreamMergesFilters(t *testing.T) {
	ctx := context.Background()
	for _, path := range []string{"testdata/lmeval/new", "testdata/lmeval/runB", "testdata/inspect/epochs.eval", "testdata/promptfoo/results_v3.json"} {
		run, err := interop.Read(ctx, path, interop.Options{})
		if err != nil {
			t.Fatal(err)
		}
		records := len(run.Samples)
		merged := interop.MergeFilters(run.Samples)
		var buf bytes.Buffer
		var rows int
		res, err := interop.Score(ctx, path, interop.ScoreOptions{Verdicts: &buf, RawCSV: true, Rows: func(r *results.Row) error {
			if r.Line != rows+1 {
				t.Errorf("%s: row %d has line %d", path, rows+1, r.Line)
			}
			rows++
			return nil
		}})
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(&buf).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if rows != len(merged) || len(recs) != len(merged)+1 {
			t.Fatalf("%s: %d rows, %d CSV records for %d items", path, rows, len(recs)-1, len(merged))
		}
		if strings.Contains(path, "gsm8k") || path == "testdata/lmeval/new" {
			if len(merged) >= records {
				t.Errorf("%s: %d records merged into %d items: no filter was merged", path, records, len(merged))
			}
		}
		models := map[string]bool{}
		for i := range merged {
			models[merged[i].Model] = true
		}
		head := recs[0]
		for i := range merged {
			s, got := &merged[i], recs[i+1]
			want := map[string]string{"id": interop.RowID(s, len(models) > 1), "question": s.Prompt, "answer": s.Golden, "response": s.Response}
			for j, name := range head {
				if w, ok := want[name]; ok && got[j] != w {
					t.Errorf("%s row %d %s: %q, want %q", path, i+1, name, got[j], w)
				}
				if slices.Contains(res.Settings.Metrics, name) {
					v, ok := s.Value(name)
					if !ok && got[j] != "" || ok && got[j] != strconv.FormatFloat(v, 'g', -1, 64) && !(v == 1 && got[j] == "1") {
						t.Errorf("%s row %d %s: %q, want %v (%v)", path, i+1, name, got[j], v, ok)
					}
				}
			}
		}
	}
}
