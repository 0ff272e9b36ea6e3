package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// TestTaskDetailsFlow (issue 26): evalbook's own task-run details are a
// source like any harness output: compare pairs two runs' details by
// task and item id, score reports the same per-task figures the task run
// printed (the per-item outcomes are the ones tasks.Score averages), and
// import --record keeps a run that runs diff pairs by id.
func TestTaskDetailsFlow(t *testing.T) {
	dir := t.TempDir()
	specs := "indiceval|ARC-Easy:hindi|2|0,indiceval|MMLU:english|2|0"
	var docs [2]string
	for i, text := range []string{"the quick brown fox. পানি জল বই বাড়ি। पानी किताब।", "पानी पानी किताब किताब। the the fox."} {
		s := tasktest.New(t, tasktest.NewModel(text))
		out, errb, code := runCLI(t, "task", "run", "--tasks", specs, "--endpoint", s.BaseURL(), "--model", "bigram"+string(rune('a'+i)),
			"--seed", "5", "--cache", filepath.Join(dir, "cache"+string(rune('a'+i))+".jsonl"), "--json", "--details", filepath.Join(dir, "d"+string(rune('a'+i))+".jsonl"))
		if code != 0 {
			t.Fatalf("task run %d: exit %d: %s", i, code, errb)
		}
		docs[i] = out
	}
	a, b := filepath.Join(dir, "da.jsonl"), filepath.Join(dir, "db.jsonl")

	// score: the task run's figures, per task string.
	out, errb, code := runCLI(t, "score", "--responses", a, "--json")
	if code != 0 {
		t.Fatalf("score of task details: exit %d: %s", code, errb)
	}
	var res results.Score
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	var run struct {
		Tasks []struct {
			Task    string `json:"task"`
			Metrics []struct {
				ID    string  `json:"id"`
				N     int     `json:"n"`
				Value float64 `json:"value"`
			} `json:"metrics"`
		} `json:"tasks"`
	}
	if err := json.Unmarshal([]byte(docs[0]), &run); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, tr := range run.Tasks {
		g := findGroup(res.Groups, "", tr.Task)
		if g == nil {
			t.Fatalf("no group for %s in %+v", tr.Task, res.Groups)
		}
		for _, m := range tr.Metrics {
			ms, ok := g.Metrics[m.ID]
			if !ok || math.Abs(ms.Accuracy-m.Value) > 1e-12 {
				t.Errorf("%s %s: score says %+v, the task run said %v", tr.Task, m.ID, ms, m.Value)
			}
			checked++
		}
	}
	if checked < 3 { // ARC-Easy: acc and acc_norm; MMLU: acc
		t.Fatalf("only %d figures compared", checked)
	}
	for _, d := range res.Metrics {
		if d.By != "evalbook" || d.Rule == "" {
			t.Errorf("metric %s: by %q, rule %q; want evalbook and the registry's rule", d.ID, d.By, d.Rule)
		}
	}

	// compare: paired by task and item id.
	out, errb, code = runCLI(t, "compare", a, b, "--metric", "acc", "--json")
	if code != 0 {
		t.Fatalf("compare of two task runs: exit %d: %s", code, errb)
	}
	var cmp struct {
		Key string `json:"key"`
		N   int    `json:"n"`
	}
	if err := json.Unmarshal([]byte(out), &cmp); err != nil || cmp.Key != "task/sample id" || cmp.N == 0 {
		t.Fatalf("compare: %v %+v", err, cmp)
	}

	// import --record twice, then runs diff pairs the runs by id.
	db := filepath.Join(dir, "s.db")
	for _, f := range []string{a, b} {
		if _, errb, code := runCLI(t, "import", f, "--record", "--store", db); code != 0 {
			t.Fatalf("import --record %s: exit %d: %s", f, code, errb)
		}
	}
	out, errb, code = runCLI(t, "runs", "diff", "1", "2", "--store", db)
	if code != 0 || !strings.Contains(out, "paired by id") && !strings.Contains(out, "paired by sample id") {
		t.Fatalf("runs diff: exit %d\n%s\n%s", code, out, errb)
	}
}

// TestTaskDetailsParquetFlow: details written as Parquet (task run
// --details FILE.parquet) are read the same way: score gives the figures
// the JSONL details give.
func TestTaskDetailsParquetFlow(t *testing.T) {
	dir := t.TempDir()
	s := tasktest.New(t, tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।"))
	specs := "indiceval|ARC-Easy:hindi|2|0"
	cache := filepath.Join(dir, "cache.jsonl")
	for _, f := range []string{"d.jsonl", "d.parquet"} {
		if _, errb, code := runCLI(t, "task", "run", "--tasks", specs, "--endpoint", s.BaseURL(), "--model", "bigram", "--seed", "5",
			"--cache", cache, "--details", filepath.Join(dir, f)); code != 0 {
			t.Fatalf("task run --details %s: exit %d: %s", f, code, errb)
		}
	}
	j, errb, code := runCLI(t, "score", "--responses", filepath.Join(dir, "d.jsonl"), "--json")
	if code != 0 {
		t.Fatalf("jsonl: exit %d: %s", code, errb)
	}
	p, errb, code := runCLI(t, "score", "--responses", filepath.Join(dir, "d.parquet"), "--json")
	if code != 0 {
		t.Fatalf("parquet: exit %d: %s", code, errb)
	}
	var a, b results.Score
	if json.Unmarshal([]byte(j), &a) != nil || json.Unmarshal([]byte(p), &b) != nil {
		t.Fatal("undecodable")
	}
	ja, _ := json.Marshal(a.Groups)
	jb, _ := json.Marshal(b.Groups)
	if string(ja) != string(jb) || len(a.Groups) == 0 {
		t.Fatalf("parquet details score differently:\n%s\n%s", ja, jb)
	}
}
