package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const lmevalFixtures = "../pkg/interop/testdata/lmeval"

// TestHarnessOutputsEverywhere (issue 13, item 3): score, compare and
// leaderboard read lm-eval output folders as they read evalbook's files,
// and score writes an Every Eval Ever export.
func TestHarnessOutputsEverywhere(t *testing.T) {
	a, b := filepath.Join(lmevalFixtures, "new"), filepath.Join(lmevalFixtures, "runB")
	out, stderr, code := runCLI(t, "score", "--responses", a, "--examples", "0", "--json")
	var sc struct {
		Combined struct{ N int } `json:"combined"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &sc) != nil || sc.Combined.N != 9 {
		// 4 arc_easy_hi + 2 flores_hi_en + 3 gsm8k_bn documents; lm-eval
		// writes each gsm8k document once per filter (12 records), one item.
		t.Errorf("score of an lm-eval folder: exit %d, n %d: %s", code, sc.Combined.N, stderr)
	}
	// Positional runs pair by document: the fixture's arc_easy_hi has 4
	// documents, one better and one worse in runB (make_fixtures.py).
	out, stderr, code = runCLI(t, "compare", a, b)
	if code != 0 || !strings.Contains(out, "metric acc,none") || !strings.Contains(out, "n          4 cases") ||
		!strings.Contains(out, "better     1") || !strings.Contains(out, "worse      1") {
		t.Errorf("compare of two lm-eval runs: exit %d\n%s\n%s", code, out, stderr)
	}
	dir := t.TempDir()
	for _, r := range []string{a, b} {
		if err := exec.Command("cp", "-r", r, filepath.Join(dir, filepath.Base(r))).Run(); err != nil {
			t.Fatal(err)
		}
	}
	out, stderr, code = runCLI(t, "leaderboard", "--dir", dir)
	if code != 0 || !strings.Contains(out, "2 models") || !strings.Contains(out, "evalbook/tiny-hi-v2") {
		t.Errorf("leaderboard over harness outputs: exit %d\n%s\n%s", code, out, stderr)
	}
	eee := filepath.Join(dir, "r.eee.json")
	if _, stderr, code = runCLI(t, "score", "--responses", a, "--out", eee); code != 2 || !strings.Contains(stderr, "--model") {
		t.Errorf("an Every Eval Ever export without --model: exit %d, %s", code, stderr)
	}
	if _, stderr, code = runCLI(t, "score", "--responses", a, "--out", eee, "--model", "evalbook/tiny-hi"); code != 0 {
		t.Fatalf("score --out x.eee.json: exit %d: %s", code, stderr)
	}
	var agg struct {
		Detailed struct {
			FilePath  string `json:"file_path"`
			TotalRows int    `json:"total_rows"`
		} `json:"detailed_evaluation_results"`
	}
	b2, err := os.ReadFile(eee)
	if err != nil || json.Unmarshal(b2, &agg) != nil {
		t.Fatalf("the aggregate: %v", err)
	}
	inst, err := os.ReadFile(filepath.Join(dir, agg.Detailed.FilePath))
	if lines := strings.Count(string(inst), "\n"); err != nil || lines != agg.Detailed.TotalRows || lines != 14 {
		// The export holds lm-eval's own per-sample values, one line per
		// value: arc_easy_hi's 4 documents x (acc, acc_norm), gsm8k_bn's 3
		// documents x 2 filters of exact_match; flores' bleu is a corpus
		// metric with no per-sample number.
		t.Errorf("instance file %s: %d lines, the aggregate says %d, want 14 (4x2 + 3x2) (%v)", agg.Detailed.FilePath, lines, agg.Detailed.TotalRows, err)
	}
}
