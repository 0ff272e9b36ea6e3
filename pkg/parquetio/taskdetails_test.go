package parquetio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/pkg/tasks"
	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// shippedDetails runs every kind of shipped task (log-likelihood, letter,
// generative with 5 samples) against the bigram model; with faulty, the
// server gives no usage (tokens unknown) and fails the first request
// (one failed item).
func shippedDetails(t *testing.T, faulty bool) *tasks.Details {
	t.Helper()
	m := tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।")
	var faults []string
	if faulty {
		m.NoUsage, faults = true, []string{"500"}
	}
	s := tasktest.New(t, m, faults...)
	c, err := llm.NewClient(llm.Config{BaseURL: s.BaseURL(), Model: "bigram", Concurrency: 2, Retries: -1, Cache: llm.NewMemoryCache()})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := tasks.LoadCatalog(datasets.Tasks, datasets.TasksRoot)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := tasks.ParseSpecs("indiceval|ARC-Easy:hindi|2|0,indiceval|MMLU:bengali|1|0,indiceval|Translate:english|1|0,indiceval|BoolQ:english|0|0")
	if err != nil {
		t.Fatal(err)
	}
	d, err := tasks.Run(context.Background(), tasks.Options{Catalog: cat, Specs: sp, Client: c, Model: "bigram", Endpoint: s.BaseURL(), Seed: 4, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// Details written as Parquet read back to the same details: the JSONL of
// the two is byte for byte the same (every log-probability exact), with
// row groups smaller than the file, null tokens and a failed item.
func TestTaskDetailsRoundTrip(t *testing.T) {
	for _, faulty := range []bool{false, true} {
		d := shippedDetails(t, faulty)
		if faulty && (d.Samples[0].Error == "" || d.Samples[1].PromptTokens != nil) {
			t.Fatalf("the faulty run has no failed item or known tokens: %+v", d.Samples[0])
		}
		var pq bytes.Buffer
		if err := WriteTaskDetails(&pq, d, WriteOptions{RowGroupRows: 4}); err != nil {
			t.Fatal(err)
		}
		back, err := ReadTaskDetails(bytes.NewReader(pq.Bytes()), "d.parquet", ReadOptions{BatchRows: 3})
		if err != nil {
			t.Fatal(err)
		}
		var a, b bytes.Buffer
		tasks.WriteDetails(&a, d)
		tasks.WriteDetails(&b, back)
		if a.String() != b.String() || len(back.Samples) != len(d.Samples) {
			t.Fatalf("faulty %v: read back differs:\n%s\n%s", faulty, b.String(), a.String())
		}
		r1, err1 := tasks.Score(d, tasks.ScoreOptions{})
		r2, err2 := tasks.Score(back, tasks.ScoreOptions{})
		j1, _ := json.Marshal(r1)
		j2, _ := json.Marshal(r2)
		if err1 != nil || err2 != nil || string(j1) != string(j2) || len(j1) < 100 {
			t.Fatalf("scores differ: %v %v", err1, err2)
		}
	}
}

// A file that is not task details, or details of another format, is an
// error naming the file, not a panic.
func TestTaskDetailsBadInput(t *testing.T) {
	var rows bytes.Buffer
	tw, _ := NewTableWriter(&rows, []string{"id"}, nil, WriteOptions{})
	tw.Write([]string{"x"}, nil, nil)
	tw.Close()
	d := shippedDetails(t, false)
	d.Header.Format = "other/1"
	var other bytes.Buffer
	if err := WriteTaskDetails(&other, d, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		data []byte
		want string
	}{
		{rows.Bytes(), "not an evalbook task details file"},
		{other.Bytes(), `format "other/1"`},
		{[]byte("PAR1 not really"), "not a readable Parquet file"},
		{nil, "file too small"},
	} {
		_, err := ReadTaskDetails(bytes.NewReader(c.data), "x.parquet", ReadOptions{})
		var pe *tabular.ParseError
		if !errors.As(err, &pe) || pe.File != "x.parquet" || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want a ParseError with %q", c.want, err, c.want)
		}
	}
}

// The real DuckDB reads the details file: one row per item, the
// continuations as a list of structs whose log-probabilities sum to
// evalbook's, and the header in the file's key-value metadata.
func TestDuckDBReadsTaskDetails(t *testing.T) {
	d := shippedDetails(t, false)
	path := filepath.Join(t.TempDir(), "details.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteTaskDetails(f, d, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	src := sqlString(path)
	got := duckdb(t,
		"SELECT task, count(*) AS n FROM read_parquet("+src+") GROUP BY task ORDER BY task",
		"SELECT id, continuations[1].logprob AS lp1, len(continuations) AS k, responses[1].extracted AS ex FROM read_parquet("+src+") ORDER BY task, index",
		"SELECT decode(value) AS header FROM parquet_kv_metadata("+src+") WHERE decode(key) = '"+TaskDetailsKey+"'")
	counts := map[string]int{}
	for _, s := range d.Samples {
		counts[s.Task]++
	}
	if len(got[0]) != len(counts) {
		t.Fatalf("DuckDB sees %d task strings, evalbook wrote %d: %v", len(got[0]), len(counts), got[0])
	}
	for _, g := range got[0] {
		if g["n"] != float64(counts[g["task"].(string)]) {
			t.Errorf("task %v: DuckDB counts %v items, evalbook %d", g["task"], g["n"], counts[g["task"].(string)])
		}
	}
	byID := map[string]map[string]any{}
	for _, g := range got[1] {
		byID[g["id"].(string)] = g
	}
	checked := 0
	for _, s := range d.Samples {
		g := byID[s.ID]
		switch {
		case len(s.Scored) > 0:
			if g["k"] != float64(len(s.Scored)) || math.Abs(g["lp1"].(float64)-s.Scored[0].Logprob) != 0 {
				t.Errorf("%s: DuckDB %v, evalbook %d continuations, first logprob %v", s.ID, g, len(s.Scored), s.Scored[0].Logprob)
			}
			checked++
		case len(s.Response) > 0 && s.Response[0].Extracted != nil:
			if g["ex"] != *s.Response[0].Extracted {
				t.Errorf("%s: DuckDB extracted %v, evalbook %q", s.ID, g["ex"], *s.Response[0].Extracted)
			}
			checked++
		}
	}
	if checked == 0 || len(got[2]) != 1 || !strings.Contains(got[2][0]["header"].(string), `"format":"`+tasks.DetailsFormat+`"`) {
		t.Fatalf("checked %d items; header %v", checked, got[2])
	}
}
