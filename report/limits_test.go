package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// Every file a command reads whole is bounded by --max-file-mib (plans,
// case files, datasets and results, prompt files, price files, saved
// results, task files, harness JSON), and every line-based reader by --max-field-mib
// (case files, interop JSONL): over the limit each command fails with
// exit 1 and an error naming the file, the limit and the flag; under the
// default the same inputs are read. The inputs are the shipped samples
// padded in the test past 1 MiB with what the format ignores (white
// space after a JSON document, blank lines) or one long value.
func TestMaxFileAndLineMiB(t *testing.T) {
	t.Cleanup(func() { tabular.Limit, tabular.MaxFile = tabular.DefaultLimits, tabular.DefaultMaxFile })
	dir := t.TempDir()
	pad := func(src, name, padding string) string {
		t.Helper()
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, append(b, padding...), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	spaces, blanks := strings.Repeat(" ", 2<<20), strings.Repeat("\n", 2<<20)
	bigCases := pad("../datasets/helpdesk/cases.jsonl", "cases.jsonl", blanks)
	bigPlan := pad("../datasets/helpdesk/plan_v1.json", "plan.json", spaces)
	bigDataset := pad("../datasets/helpdesk/seed004_dataset.json", "dataset.json", spaces)
	results := "../datasets/helpdesk/seed004_results.json"
	bigPrompts := pad("../datasets/judge/prompts.json", "prompts.json", spaces)
	bigResult := pad("testdata/report_result.json", "result.json", spaces)
	bigPromptfoo := pad("../pkg/interop/testdata/promptfoo/results_v3.json", "promptfoo.json", spaces)
	prices := filepath.Join(dir, "prices.json")
	if err := os.WriteFile(prices, []byte(`{"date": "2026-12-01", "currency": "USD", "models": {}}`+spaces), 0o644); err != nil {
		t.Fatal(err)
	}

	taskDir := filepath.Join(dir, "tasks")
	if err := os.MkdirAll(taskDir, 0o755); err != nil {
		t.Fatal(err)
	}
	pad("../datasets/tasks/boolq/task.json", "tasks/task.json", spaces)

	// A case file whose third line holds a 2 MiB "why".
	data, err := os.ReadFile("../datasets/helpdesk/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[2] = strings.Replace(lines[2], `"why":"`, `"why":"`+strings.Repeat("y", 2<<20), 1)
	longCases := filepath.Join(dir, "long.jsonl")
	if err := os.WriteFile(longCases, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(lines[2], "yyyy") {
		t.Fatal("the test could not lengthen line 3")
	}

	// An lm-eval output folder whose arc_easy samples file has a 2 MiB
	// line 2 (a member lm-eval readers ignore).
	lmDir := filepath.Join(dir, "lmeval")
	if err := os.MkdirAll(lmDir, 0o755); err != nil {
		t.Fatal(err)
	}
	const lmSrc = "../pkg/interop/testdata/lmeval/new/evalbook__tiny-hi"
	ents, err := os.ReadDir(lmSrc)
	if err != nil {
		t.Fatal(err)
	}
	longSamples := ""
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(lmSrc, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(e.Name(), "samples_arc_easy_hi") {
			l := strings.SplitAfter(string(b), "\n")
			l[1] = `{"pad": "` + strings.Repeat("p", 2<<20) + `", ` + strings.TrimPrefix(l[1], "{")
			b = []byte(strings.Join(l, ""))
			longSamples = filepath.Join(lmDir, e.Name())
		}
		if err := os.WriteFile(filepath.Join(lmDir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	for _, tc := range []struct {
		args         []string
		flag, where  string
		defaultWorks bool // the same input reads under the default limit
	}{
		{[]string{"cases", "hash", bigCases}, "--max-file-mib", bigCases + ": file too large", true},
		{[]string{"cases", "hash", longCases}, "--max-field-mib", longCases + ":3: record too long", true},
		{[]string{"plan", "check", bigPlan}, "--max-file-mib", bigPlan + ": file too large", true},
		{[]string{"summarize", "--dataset", bigDataset, "--results", results}, "--max-file-mib", bigDataset + ": file too large", true},
		{[]string{"report", "--from", bigResult}, "--max-file-mib", bigResult + ": file too large", true},
		{[]string{"import", bigPromptfoo}, "--max-file-mib", bigPromptfoo + ": over the reading limit (file too large)", true},
		{[]string{"import", lmDir}, "--max-field-mib", longSamples + ":2: record too long", true},
		{[]string{"task", "list", "--task-dir", taskDir}, "--max-file-mib", "task.json: file too large", true},
		// These two need a model server or details files past the file
		// read; only the refusal is checked.
		{[]string{"judge", "--endpoint", "http://127.0.0.1:9", "--model", "m", "--prompts", bigPrompts}, "--max-file-mib", bigPrompts + ": file too large", false},
		{[]string{"task", "merge", "none.jsonl", "--prices", prices}, "--max-file-mib", prices + ": file too large", false},
	} {
		name := strings.Join(tc.args[:2], " ")
		_, errb, code := runCLI(t, append(tc.args, tc.flag, "1")...)
		if code != 1 || !strings.Contains(errb, tc.where) || !strings.Contains(errb, "1 MiB") || !strings.Contains(errb, "raise the limit with "+tc.flag) {
			t.Errorf("%s %s 1: exit %d, stderr %.400s; want exit 1 and %q, 1 MiB and %s", name, tc.flag, code, errb, tc.where, tc.flag)
		}
		if !tc.defaultWorks {
			continue
		}
		if _, errb, code := runCLI(t, tc.args...); code != 0 {
			t.Errorf("%s with the default limits: exit %d, stderr %.400s", name, code, errb)
		}
	}
	if _, errb, code := runCLI(t, "plan", "check", bigPlan, "--max-file-mib", "0"); code != 2 || !strings.Contains(errb, "max-file-mib") {
		t.Errorf("--max-file-mib 0: exit %d, %s", code, errb)
	}
}
