package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCasesGolden(t *testing.T) {
	const sample = "../datasets/helpdesk/cases.jsonl"
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"cases_coverage.stdout", []string{"cases", "coverage", sample}},
		{"cases_coverage_lang.json", []string{"cases", "coverage", "--rows", "lang", "--cols", "expect", "--json", sample}},
		{"cases_hash.stdout", []string{"cases", "hash", sample}},
		{"cases_split.stdout", []string{"cases", "split", sample}},
		{"cases_split.json", []string{"cases", "split", sample, "--json"}},
		{"cases_leakage.stdout", []string{"cases", "leakage", "--source", "few_shot=../datasets/helpdesk/sources/few_shot.txt",
			"--source", "earlier=../datasets/helpdesk/sources/earlier_set.jsonl", sample}},
		{"cases_leakage.json", []string{"cases", "leakage", "--json", "--source", "few_shot=../datasets/helpdesk/sources/few_shot.txt",
			"--source", "earlier=../datasets/helpdesk/sources/earlier_set.jsonl", sample}},
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

func TestCasesHashIsAloneAndOrderFree(t *testing.T) {
	b, err := os.ReadFile("../datasets/helpdesk/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
		lines[i], lines[j] = lines[j], lines[i]
	}
	rev := filepath.Join(t.TempDir(), "rev.jsonl")
	os.WriteFile(rev, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	a, _, _ := runCLI(t, "cases", "hash", "../datasets/helpdesk/cases.jsonl")
	r, _, _ := runCLI(t, "cases", "hash", rev)
	d, errOut, _ := runCLI(t, "cases", "hash")
	if len(a) != 13 || a != r || a != d {
		t.Errorf("hash %q, reversed %q, embedded %q", a, r, d)
	}
	if !strings.Contains(errOut, "using the embedded sample datasets/helpdesk/cases.jsonl") {
		t.Errorf("no note on stderr: %q", errOut)
	}
}

func TestCasesErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"id":"a","question":"q?","task":"lookup","set":"golden","lang":"en","expect":"answer","doc_ids":[],"facts":[],"why":"too short"}`+"\n"), 0o644)
	_, errOut, code := runCLI(t, "cases", "coverage", bad)
	for _, want := range []string{"bad.jsonl:1:", `(column "doc_ids"): an answer case needs doc_ids and facts`, `(column "why"): must be at least 10 characters`} {
		if code != 1 || !strings.Contains(errOut, want) {
			t.Errorf("exit %d, stderr %q, want %q", code, errOut, want)
		}
	}
	for _, args := range [][]string{
		{"cases", "coverage", "--rows", "why"},
		{"cases", "coverage", "--rows", "set", "--cols", "set"},
		{"cases", "split", "--holdout", "1.5"},
		{"cases", "leakage", "--threshold", "0"},
		{"cases", "leakage", "--source", "nofile"},
	} {
		if _, errOut, code := runCLI(t, args...); code != 2 {
			t.Errorf("%q: exit %d, want 2 (%s)", args, code, errOut)
		}
	}
	// The same id in two files.
	two := filepath.Join(dir, "two.jsonl")
	b, _ := os.ReadFile("../datasets/helpdesk/cases.jsonl")
	os.WriteFile(two, []byte(strings.SplitN(string(b), "\n", 2)[0]+"\n"), 0o644)
	if _, errOut, code := runCLI(t, "cases", "hash", "../datasets/helpdesk/cases.jsonl", two); code != 1 || !strings.Contains(errOut, `duplicate case id "g01"`) {
		t.Errorf("duplicate across files: exit %d, %q", code, errOut)
	}
}
