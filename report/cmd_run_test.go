package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The two versions of the sample system for the comparison story.
func TestRunGolden(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"run_old", []string{"--chunking", "paragraph", "--min-score", "0.3"}},
		{"run_new", []string{"--chunking", "sentence", "--min-score", "0.4", "--min-margin", "0.1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			csv := filepath.Join(dir, tc.name+".csv")
			out, errOut, code := runCLI(t, append([]string{"run", "--out", csv}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, tc.name+".stdout", strings.ReplaceAll(out, dir, "DIR"))
			b, err := os.ReadFile(csv)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(string(b), "id,task,set,lang,expect,outcome,fact,pass\n") {
				t.Errorf("CSV header: %q", strings.SplitN(string(b), "\n", 2)[0])
			}
			golden(t, tc.name+".csv", string(b))
			js, _, _ := runCLI(t, append([]string{"run", "--json"}, tc.args...)...)
			golden(t, tc.name+".json", js)
		})
	}
}

func TestRunErrors(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--chunking", "word"},
		{"run", "extra"},
	} {
		if _, errOut, code := runCLI(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, errOut)
		}
	}
	empty := t.TempDir()
	if _, errOut, code := runCLI(t, "run", "--corpus", empty); code != 1 || !strings.Contains(errOut, "no *.md document") {
		t.Errorf("empty corpus: exit %d, %q", code, errOut)
	}
	out, _, code := runCLI(t, "run", "--help")
	if code != 0 || !strings.Contains(out, "Example:") {
		t.Errorf("--help: %d %q", code, out)
	}
}

// TestRunOutRefused: an --out that cannot be a file is a usage error
// before the run, as for every other command's output file.
func TestRunOutRefused(t *testing.T) {
	dir := t.TempDir()
	for _, out := range []string{dir, dir + "/missing/run.csv"} {
		_, errOut, code := runCLI(t, "run", "--out", out)
		if code != 2 || !strings.Contains(errOut, "run: --out: ") {
			t.Errorf("--out %s: exit %d, %s", out, code, errOut)
		}
	}
}

// TestOutIsNotTheInput: score --out naming its own --responses file is a
// usage error, and the input is left as it was (it used to be replaced
// by the verdict file, with exit 0).
func TestOutIsNotTheInput(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.csv")
	const data = "question,answer,Domain,response\nq,a,D,a\n"
	if err := os.WriteFile(in, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runCLI(t, "score", "--responses", in, "--out", in)
	if code != 2 || !strings.Contains(errOut, "is the input file") {
		t.Errorf("exit %d, %s", code, errOut)
	}
	if b, _ := os.ReadFile(in); string(b) != data {
		t.Errorf("the input now holds %q", b)
	}
}
