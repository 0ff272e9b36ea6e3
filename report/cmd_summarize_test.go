package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSummarizeGolden(t *testing.T) {
	const d = "../datasets/helpdesk/"
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"summarize_seed004.stdout", []string{"summarize", "--dataset", d + "seed004_dataset.json", "--results", d + "seed004_results.json"}},
		{"summarize_seed004.json", []string{"summarize", "--json", "--dataset", d + "seed004_dataset.json", "--results", d + "seed004_results.json"}},
		{"summarize_missing.json", []string{"summarize", "--json", "--dataset", d + "seed004_dataset_missing.json", "--results", d + "seed004_results.json"}},
		{"summarize_example.json", []string{"summarize", "--json", "--dataset", d + "example_dataset.json", "--results", d + "example_results.json"}},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, tc.golden, out)
		})
	}
}

func TestSummarizeErrorsCLI(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	ds := write("d.json", `[{"id":"A","slice":"s","expected":"abstain","fact":null},{"id":"A","slice":"s","expected":"abstain","fact":null}]`)
	res := write("r.json", `{"A":{"kind":"abstain"}}`)
	if _, errOut, code := runCLI(t, "summarize", "--dataset", ds, "--results", res); code != 1 || !strings.Contains(errOut, "Duplicate case ID") {
		t.Errorf("duplicate: exit %d, %q", code, errOut)
	}
	ds = write("d2.jsonl", `{"id":"A","slice":"s","expected":"abstain","fact":null}`)
	res = write("r2.jsonl", `{"id":"B","kind":"abstain"}`)
	if _, errOut, code := runCLI(t, "summarize", "--dataset", ds, "--results", res); code != 1 || !strings.Contains(errOut, `Unknown result ID: "B"`) {
		t.Errorf("unknown: exit %d, %q", code, errOut)
	}
	if _, _, code := runCLI(t, "summarize", "--dataset", ds); code != 2 {
		t.Errorf("--dataset alone: exit %d, want 2", code)
	}
}

// Summarize over a run CSV and the case records agrees with the run's own
// pass column: 24 of 31 pass in the new sample version.
func TestSummarizeRunFile(t *testing.T) {
	nw := filepath.Join(t.TempDir(), "new.csv")
	if _, e, code := runCLI(t, "run", "--chunking", "sentence", "--min-score", "0.4", "--min-margin", "0.1", "--out", nw); code != 0 {
		t.Fatal(e)
	}
	out, errOut, code := runCLI(t, "summarize", "--json", "--dataset", "../datasets/helpdesk/cases.jsonl", "--results", nw, "--slice", "set")
	if code != 0 {
		t.Fatal(errOut)
	}
	golden(t, "summarize_run_new.json", out)
	b, _ := os.ReadFile(nw)
	if passes := strings.Count(string(b), ",1\n"); !strings.Contains(out, `"success": 24`) || passes != 24 {
		t.Errorf("run file has %d passes; summarize says %s", passes, out)
	}
}
