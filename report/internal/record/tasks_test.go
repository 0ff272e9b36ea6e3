package record

import (
	"context"
	"database/sql"
	"math"
	"path/filepath"
	"testing"

	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/pkg/tasks"
)

// taskDetails is a small task run written by hand: a log-likelihood task
// with two items and a generative task (3 samples, k 2) with two scored
// items and one whose call failed.
func taskDetails() *tasks.Details {
	str := func(s string) *string { return &s }
	gen := func(answers ...string) []tasks.Response {
		var rs []tasks.Response
		for _, a := range answers {
			rs = append(rs, tasks.Response{Text: "answer: " + a, Extracted: str(a)})
		}
		return rs
	}
	in, out := int64(10), int64(4)
	return &tasks.Details{
		Header: tasks.Header{Format: tasks.DetailsFormat, Model: "bigram", Endpoint: "http://127.0.0.1:1/v1", Seed: 3, Shards: 1,
			Tasks: []tasks.HeaderTask{
				{Spec: "toy|mc:english|0|0", Kind: tasks.KindLoglik, Items: 2, Metrics: []string{"acc", "acc_norm"}},
				{Spec: "toy|gen:english|0|0", Kind: tasks.KindGenerative, Items: 3, K: 2, Samples: 3, Metrics: []string{"exact_match", "pass@k", "maj@k"}},
			}},
		Samples: []tasks.Sample{
			{Task: "toy|mc:english|0|0", ID: "a1", Prompt: "Q1:", Choices: []string{"x", "yyyy"}, Gold: 1,
				Scored: []tasks.Continuation{{Text: " x", Chars: 1, Logprob: -2}, {Text: " yyyy", Chars: 4, Logprob: -6}}, PromptTokens: &in, CompletionTokens: &out},
			{Task: "toy|mc:english|0|0", Index: 1, ID: "a2", Prompt: "Q2:", Choices: []string{"pp", "q"}, Gold: 0,
				Scored: []tasks.Continuation{{Text: " pp", Chars: 2, Logprob: -1}, {Text: " q", Chars: 1, Logprob: -3}}, PromptTokens: &in, CompletionTokens: &out},
			{Task: "toy|gen:english|0|0", ID: "b1", Prompt: "cat?", Gold: -1, Golden: "cat", Response: gen("cat", "dog", "cat"), PromptTokens: &in, CompletionTokens: &out},
			{Task: "toy|gen:english|0|0", Index: 1, ID: "b2", Prompt: "sun?", Gold: -1, Golden: "sun", Response: gen("moon", "sun", "moon"), PromptTokens: &in, CompletionTokens: &out},
			{Task: "toy|gen:english|0|0", Index: 2, ID: "b3", Prompt: "sea?", Gold: -1, Golden: "sea", Error: "server error (HTTP 500)"},
		},
	}
}

// A task run recorded in a SQLite store file and read back from it: every
// item's outcome per metric (worked out by hand below), the task string
// as the grouping, the per-task figures, the model and tokens; and the
// stored outcomes average to the figures tasks.Score reported.
func TestFromTasksRecorded(t *testing.T) {
	d := taskDetails()
	r, err := tasks.Score(d, tasks.ScoreOptions{Confidence: 0.95})
	if err != nil {
		t.Fatal(err)
	}
	run, err := FromTasks(d, r)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "runs.db")
	s, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	id, err := s.Record(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if s, err = store.Open(path); err != nil { // read back from the file, not the open handle
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Get(ctx, "last")
	if err != nil || got.ID != id {
		t.Fatalf("run %d: %+v, %v", id, got, err)
	}
	ids := []string{}
	for _, m := range got.Metrics {
		ids = append(ids, m.ID)
	}
	if want := "[acc acc_norm exact_match pass@2 maj@2]"; fmtList(ids) != want || !got.Metrics[3].Graded || got.Metrics[0].Graded {
		t.Fatalf("metrics %v, want %s (pass@2 and maj@2 graded)", got.Metrics, want)
	}
	if got.Command != "task run" || got.Model != "bigram" || got.KeyKind != store.KeyID || got.Rows != 5 ||
		got.TokensIn == nil || *got.TokensIn != 40 || got.TokensOut == nil || *got.TokensOut != 16 {
		t.Fatalf("run %+v", got)
	}
	// The stored outcomes, through the outcome view DESIGN.md documents
	// (null: no verdict).
	stored := map[string][]float64{}
	rows, err := s.DB().QueryContext(ctx, `SELECT sample_id, metric, value FROM outcome WHERE run_id = ? ORDER BY idx, metric`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var key, metric string
		var v sql.NullFloat64
		if err := rows.Scan(&key, &metric, &v); err != nil {
			t.Fatal(err)
		}
		m := -1
		for j, rm := range got.Metrics {
			if rm.ID == metric {
				m = j
			}
		}
		if stored[key] == nil {
			stored[key] = []float64{math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()}
		}
		if v.Valid {
			stored[key][m] = v.Float64
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	// By hand. a1: ll -2 ("x") > -6 ("yyyy"): acc picks x, wrong; per
	// character -2/1 < -6/4 = -1.5: acc_norm picks yyyy, right. a2: -1
	// ("pp") > -3 and -1/2 > -3/1: both pick pp, right.
	// b1 (cat, dog, cat; gold cat): exact_match 1 (first sample); pass@2
	// with n 3, c 2: 1 - C(1,2)/C(3,2) = 1; maj@2 over the 3 pairs: cat-dog
	// a tie (1/2), cat-cat won (1), dog-cat a tie (1/2): 2/3.
	// b2 (moon, sun, moon; gold sun): exact_match 0; pass@2 with c 1:
	// 1 - C(2,2)/C(3,2) = 2/3; maj@2: moon-sun 1/2, moon-moon 0,
	// sun-moon 1/2: 1/3. b3 failed: no verdict. NaN: not this task's metric.
	n := math.NaN()
	want := map[string][]float64{
		"a1": {0, 1, n, n, n}, "a2": {1, 1, n, n, n},
		"b1": {n, n, 1, 1, 2.0 / 3}, "b2": {n, n, 0, 2.0 / 3, 1.0 / 3}, "b3": {n, n, n, n, n},
	}
	if len(stored) != len(want) {
		t.Fatalf("%d stored rows with outcomes, want %d: %v", len(stored), len(want), stored)
	}
	for key, w := range want {
		for m := range got.Metrics {
			v := stored[key][m]
			if math.IsNaN(v) != math.IsNaN(w[m]) || (!math.IsNaN(w[m]) && math.Abs(v-w[m]) > 1e-12) {
				t.Fatalf("row %s, %s: %g, want %g", key, got.Metrics[m].ID, v, w[m])
			}
		}
	}
	// Each row's slice is its task string.
	task := map[string]string{}
	for _, smp := range d.Samples {
		task[smp.ID] = smp.Task
	}
	for r, err := range run.Source.All() {
		if err != nil {
			t.Fatal(err)
		}
		if r.Groups[0] != task[r.Fields[0]] {
			t.Fatalf("row %s in group %q, want %q", r.Fields[0], r.Groups[0], task[r.Fields[0]])
		}
	}
	// The stored outcomes average to Score's figures, task by task.
	for _, g := range got.Groups {
		m := -1
		for j, rm := range got.Metrics {
			if rm.ID == g.Metric {
				m = j
			}
		}
		sum, cnt := 0.0, 0
		for key, vals := range stored {
			if v := vals[m]; !math.IsNaN(v) && task[key] == g.Group {
				sum, cnt = sum+v, cnt+1
			}
		}
		if g.By != "task" || cnt != g.N || math.Abs(sum/float64(cnt)-g.Accuracy) > 1e-12 {
			t.Fatalf("group %+v: the rows give %g over %d", g, sum/float64(cnt), cnt)
		}
	}
	if len(got.Groups) != 5 {
		t.Fatalf("%d group figures, want 5 (2 + 3 metrics)", len(got.Groups))
	}
}

func fmtList(s []string) string {
	out := "["
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out + "]"
}
