package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// runCLI runs evalbook with args and returns stdout, stderr and the exit code.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600") // 2026-01-01, so reports are byte-stable
	var out, errb bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	if err != nil && !isSilent(err) {
		errb.WriteString("evalbook: " + err.Error() + "\n")
	}
	return out.String(), errb.String(), exitCode(err)
}

// golden compares got with testdata/name, rewriting it under -update and
// leaving name.got beside it on a mismatch.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if got != string(want) {
		os.WriteFile(path+".got", []byte(got), 0o644)
		t.Errorf("output differs from %s; see %s.got (go test ./report -run %s -update to accept)", path, path, t.Name())
	}
}

func TestScoreGolden(t *testing.T) {
	dir := t.TempDir()
	verdicts := filepath.Join(dir, "v.csv")
	cases := []struct {
		name string
		args []string
	}{
		{"score_sample.stdout", []string{"score"}},
		{"score_sample.json", []string{"score", "--json"}},
		{"score_metrics_by.stdout", []string{"score", "--metrics", "exact_substring,word_overlap,exact_match,squad_f1", "--by", "language", "--by", "model,Domain", "--normalize", "indic"}},
		{"score_bootstrap.stdout", []string{"score", "--ci", "bootstrap", "--resamples", "2000", "--seed", "7", "--metrics", "exact_substring,squad_f1", "--by", "model"}},
		{"score_cluster.stdout", []string{"score", "--cluster", "id", "--by", "language"}},
		{"score_verdicts.stdout", []string{"score", "--out", verdicts, "--by", ""}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := runCLI(t, c.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if !strings.Contains(errs, "built-in sample") {
				t.Errorf("stderr does not say the built-in sample was used: %q", errs)
			}
			golden(t, c.name, out)
		})
	}
	b, err := os.ReadFile(verdicts)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "score_verdicts.csv", string(b))
}

func TestScoreErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	cases := []struct {
		name     string
		args     []string
		code     int
		contains []string
	}{
		{"unknown metric", []string{"score", "--metrics", "bleurt"}, 2, []string{`unknown metric id "bleurt"`, "exact_substring"}},
		{"bad profile", []string{"score", "--normalize", "nfkc"}, 2, []string{"none, nfc, indic"}},
		{"bad ci", []string{"score", "--ci", "exact"}, 2, []string{"wilson, bootstrap or none"}},
		{"bad flag", []string{"score", "--no-such-flag"}, 2, []string{"no-such-flag"}},
		{"stray argument", []string{"score", "run.csv"}, 2, []string{"--responses"}},
		{"missing file", []string{"score", "--responses", filepath.Join(dir, "nope.csv")}, 1, []string{"nope.csv"}},
		{"empty file", []string{"score", "--responses", write("empty.csv", "")}, 1, []string{"empty.csv", "empty"}},
		{"header only", []string{"score", "--responses", write("h.csv", "question,answer,Domain,response\n")}, 1, []string{"h.csv", "no data rows"}},
		{"missing column", []string{"score", "--responses", write("m.csv", "question,answer,response\nq,a,r\n")}, 1, []string{"m.csv:1", `"Domain"`, `"question", "answer", "response"`}},
		{"ragged", []string{"score", "--responses", write("r.csv", "question,answer,Domain,response\nq,a,D\n")}, 1, []string{"r.csv:2", "3 fields"}},
		{"bad utf8", []string{"score", "--responses", write("u.csv", "question,answer,Domain,response\nq,\xff,D,r\n")}, 1, []string{"u.csv:2", "UTF-8", "--repair-utf8"}},
		{"unknown command", []string{"scroe"}, 2, []string{`unknown command "scroe"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errs, code := runCLI(t, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d (%s)", code, c.code, errs)
			}
			for _, s := range c.contains {
				if !strings.Contains(errs, s) {
					t.Errorf("stderr %q does not contain %q", errs, s)
				}
			}
			if strings.Contains(errs, "goroutine") || strings.Contains(errs, "panic") {
				t.Errorf("stderr shows a panic: %s", errs)
			}
		})
	}
	// A failed run leaves no verdict file behind.
	out := filepath.Join(dir, "never.csv")
	runCLI(t, "score", "--responses", filepath.Join(dir, "r.csv"), "--out", out)
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed run left %s behind", out)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".never.csv.*")); len(m) > 0 {
		t.Errorf("temporary files left behind: %v", m)
	}
	// An existing verdict file survives a failed run and is replaced by a
	// successful one (commit removes it, then renames the new file).
	old := write("old.csv", "earlier verdicts\n")
	runCLI(t, "score", "--responses", filepath.Join(dir, "r.csv"), "--out", old)
	if b, _ := os.ReadFile(old); string(b) != "earlier verdicts\n" {
		t.Errorf("a failed run changed the existing %s to %q", old, b)
	}
	if _, errs, code := runCLI(t, "score", "--out", old); code != 0 {
		t.Fatalf("score --out over an existing file: exit %d, %s", code, errs)
	}
	b, _ := os.ReadFile(old)
	if first, _, _ := strings.Cut(string(b), "\n"); !strings.HasSuffix(first, ",exact_substring,word_overlap,matching_words,total_golden_words,blank_response,empty_golden") {
		t.Errorf("the existing %s was not replaced by a verdict file: its header is %q", old, first)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".old.csv.*")); len(m) > 0 {
		t.Errorf("temporary files left behind: %v", m)
	}
}

func TestHelp(t *testing.T) {
	out, _, code := runCLI(t, "--help")
	if code != 0 || !strings.Contains(out, "score") {
		t.Errorf("evalbook --help: exit %d, %q", code, out)
	}
	out, _, code = runCLI(t, "score", "--help")
	if code != 0 {
		t.Fatalf("score --help: exit %d", code)
	}
	for _, f := range []string{"--responses", "-metrics", "-by", "-normalize", "-out", "-json", "-ci", "-confidence", "-resamples", "-seed", "-cluster", "Examples:", "exact_substring"} {
		if !strings.Contains(out, f) {
			t.Errorf("score --help does not mention %s", f)
		}
	}
	if _, _, code := runCLI(t); code != 2 {
		t.Errorf("evalbook with no command: exit %d, want 2", code)
	}
}
