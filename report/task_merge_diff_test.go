package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// task merge of shards from two runs (shard 2/3 run with --seed 6, the
// others with --seed 5) names the field that differs and both values,
// in a short message; it printed both whole headers (1.4 KB for a real
// run) and left the reader to find the difference.
func TestTaskMergeNamesTheDifference(t *testing.T) {
	m := tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।")
	s := tasktest.New(t, m)
	dir := t.TempDir()
	var files []string
	for i, sh := range []string{"0/3", "1/3", "2/3"} {
		seed := "5"
		if i == 2 {
			seed = "6"
		}
		f := filepath.Join(dir, "s"+string(rune('0'+i))+".jsonl")
		files = append(files, f)
		if _, errb, code := runCLI(t, "task", "run", "--tasks", taskSpecs, "--endpoint", s.BaseURL(), "--model", "bigram", "--seed", seed,
			"--cache", filepath.Join(dir, "cache.jsonl"), "--shard", sh, "--details", f); code != 0 {
			t.Fatalf("shard %s: exit %d: %s", sh, code, errb)
		}
	}
	_, errb, code := runCLI(t, append([]string{"task", "merge"}, files...)...)
	if code != 1 || !strings.Contains(errb, "file 3 is from another run than file 1") || !strings.Contains(errb, "headers differ in seed: 6 vs 5") || len(errb) > 400 {
		t.Fatalf("exit %d, %d bytes: %s; want exit 1 naming seed: 6 vs 5 in under 400 bytes", code, len(errb), errb)
	}
}
