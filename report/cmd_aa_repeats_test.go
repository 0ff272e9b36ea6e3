package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// aa with three runs of one system decomposes each metric over them
// (issue 28 item 5). Runs: item i right when i is even (run 1), flipped
// for i < 10 (run 2) and for i >= 90 (run 3): 20 flaky items, each with
// two verdicts of one kind and one of the other, variance 2/9 over its 3
// samples, so within = (20 × (2/9)/3)/100 = 2/135 = 0.0148148.
func TestAAThreeRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	scoreAndRecord(t, path, "a.csv", storeTestTable(100, func(i int) bool { return i%2 == 0 }))
	scoreAndRecord(t, path, "b.csv", storeTestTable(100, func(i int) bool { return (i%2 == 0) != (i < 10) }))
	scoreAndRecord(t, path, "c.csv", storeTestTable(100, func(i int) bool { return (i%2 == 0) != (i >= 90) }))
	out, errOut, code := runCLI(t, "aa", "--store", path, "--json", "1", "2", "3")
	if code != 0 {
		t.Fatalf("aa: exit %d %s", code, errOut)
	}
	var aa struct {
		Metrics []struct {
			Metric string `json:"metric"`
			Flips  int    `json:"flips"`
		} `json:"metrics"`
		Others  []struct{ ID int64 } `json:"others"`
		Repeats []struct {
			Metric     string   `json:"metric"`
			Runs       []int64  `json:"runs"`
			Items      int      `json:"items"`
			Within     float64  `json:"within"`
			FlakyItems int      `json:"flaky_items"`
			Flaky      []string `json:"flaky"`
		} `json:"repeats"`
	}
	if err := json.Unmarshal([]byte(out), &aa); err != nil || len(aa.Repeats) == 0 || len(aa.Others) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	if aa.Metrics[0].Flips != 10 {
		t.Errorf("flips of runs 1 and 2: %d, want 10", aa.Metrics[0].Flips)
	}
	r := aa.Repeats[0]
	if r.Metric != aa.Metrics[0].Metric || len(r.Runs) != 3 || r.Items != 100 || r.FlakyItems != 20 || len(r.Flaky) != 20 || math.Abs(r.Within-2.0/135) > 1e-12 {
		t.Errorf("repeats %+v, want 20 flaky of 100, within %v", r, 2.0/135)
	}
	text, _, code := runCLI(t, "aa", "--store", path, "1", "2", "3")
	if code != 0 || !strings.Contains(text, "Repeated runs") || !strings.Contains(text, "also: run 3") {
		t.Errorf("text: exit %d\n%s", code, text)
	}
	for _, args := range [][]string{{"1"}, {"1", "2", "1"}} {
		if _, errOut, code := runCLI(t, append([]string{"aa", "--store", path}, args...)...); code != 2 {
			t.Errorf("aa %v: exit %d, want 2: %s", args, code, errOut)
		}
	}
}
