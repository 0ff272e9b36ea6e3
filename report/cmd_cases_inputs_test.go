package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Broken and empty inputs of cases, run, plan and summarize: each is a data
// error (exit 1) naming the file, and the line and field where there is
// one; nothing is printed on stdout. Uses runCLI from score_test.go.
func TestKitBadInputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sample, err := os.ReadFile("../datasets/helpdesk/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(string(sample), "\n", 2)[0] // g01, "How many days do I have to return an unused item?"
	empty := write("empty.jsonl", "")
	blank := write("blank.jsonl", "\n  \n")
	// The bad byte replaces the space after "How": column
	// python3 len('{"id":"g01","question":"How') + 1 = 28.
	badCase := write("bad.jsonl", first+"\n"+strings.Replace(strings.Replace(first, "g01", "g99", 1), "How many", "How\xffmany", 1)+"\n")
	const runHead = "id,task,set,lang,expect,outcome,fact,pass\n"
	emptyRun := write("empty.csv", "")
	headRun := write("head.csv", runHead)
	badRun := write("badrun.csv", runHead+"g01,lookup,golden,en,answer,answer,30\xfe days,1\n")
	plan, err := os.ReadFile("../datasets/helpdesk/plan_v1.json")
	if err != nil {
		t.Fatal(err)
	}
	// Places in the sample plan, by python3 (line number, str.index + 1):
	// "threshold": 0.8 at line 11 column 87; the space of "Inkwell Row"
	// at line 2 column 26.
	highPlan := write("high.json", strings.Replace(string(plan), `"threshold": 0.8,`, `"threshold": 1.8,`, 1))
	badPlan := write("badplan.json", strings.Replace(string(plan), "Inkwell Row", "Inkwell\xffRow", 1))
	unknownPlan := write("unknown.json", strings.Replace(string(plan), `"metric": "format_ok"`, `"metric": "nosuch"`, 1))
	ds := write("d.json", "[\n{\"id\":\"E1\",\"slice\":\"s\",\"expected\":\"abstain\",\"fact\":null},\n{\"id\":\"E2\",\"slice\":\"s\",\"expected\":\"answer\",\"fact\":\"f\"}\n]\n")
	res := write("r.json", `{"E1": {"kind": "abstain"}}`)
	emptyJSON := write("empty.json", "")
	abstainFact := write("abstainfact.json", "[\n{\"id\":\"E1\",\"slice\":\"s\",\"expected\":\"abstain\",\"fact\":\"return_window\"}\n]")
	noSlice := write("noslice.jsonl", "{\"id\":\"E1\",\"slice\":\"s\",\"expected\":\"abstain\"}\n{\"id\":\"E2\",\"expected\":\"abstain\"}\n")
	unknownRes := write("unknown.jsonl", "{\"id\":\"E1\",\"kind\":\"abstain\"}\n{\"id\":\"X9\",\"kind\":\"abstain\"}\n{\"id\":\"X2\",\"kind\":\"error\"}\n")
	badRes := write("badres.jsonl", "{\"id\":\"E2\",\"kind\":\"answer\",\"fact\":\"\xc3\"}\n")

	for _, tc := range []struct {
		name string
		args []string
		want string // the whole of stderr
	}{
		{"cases hash of an empty file", []string{"cases", "hash", empty}, empty + ": no case records (the file is empty)"},
		{"cases coverage of blank lines", []string{"cases", "coverage", blank}, blank + ": no case records (the file has only blank lines)"},
		{"cases split of an empty file", []string{"cases", "split", empty}, empty + ": no case records (the file is empty)"},
		{"cases leakage of an empty file", []string{"cases", "leakage", empty}, empty + ": no case records (the file is empty)"},
		{"cases hash of invalid UTF-8", []string{"cases", "hash", badCase}, badCase + ":2:28 (column \"question\"): invalid UTF-8: byte 0xFF is not part of a UTF-8 character (re-save the file as UTF-8)"},
		{"cases leakage of an empty source", []string{"cases", "leakage", "--source", "few=" + empty, "../datasets/helpdesk/cases.jsonl"}, empty + ": no questions (the file is empty or has only blank lines)"},
		{"run of an empty file", []string{"run", "--cases", empty}, empty + ": no case records (the file is empty)"},
		{"run of invalid UTF-8", []string{"run", "--cases", badCase}, badCase + ":2:28 (column \"question\"): invalid UTF-8: byte 0xFF is not part of a UTF-8 character (re-save the file as UTF-8)"},
		{"run with a missing corpus", []string{"run", "--corpus", filepath.Join(dir, "nosuch")}, "corpus " + filepath.Join(dir, "nosuch") + ": no such directory"},
		{"run with a file as corpus", []string{"run", "--corpus", empty}, "corpus " + empty + ": not a directory (--corpus names a directory of *.md documents)"},
		{"plan gate of an empty run", []string{"plan", "gate", "--plan", "../datasets/helpdesk/plan_v1.json", "--run", emptyRun},
			emptyRun + ": no rows (the file is empty; a run file starts with the header id,task,set,lang,expect,outcome,fact,pass)"},
		{"plan gate of a header alone", []string{"plan", "gate", "--plan", "../datasets/helpdesk/plan_v1.json", "--run", headRun}, headRun + ": no rows after the header"},
		// The fact field starts at column len("g01,lookup,golden,en,answer,answer,") + 1 = 36,
		// and its bad byte, the third character, at 38.
		{"plan gate of invalid UTF-8", []string{"plan", "gate", "--plan", "../datasets/helpdesk/plan_v1.json", "--run", badRun},
			badRun + ":2:38 (column \"fact\"): invalid UTF-8: first bad byte 0xFE at character 3 of the field; re-save the file as UTF-8"},
		{"plan check of a rate threshold 1.8", []string{"plan", "check", highPlan},
			highPlan + ":11:87 (column \"metrics[0].threshold\"): 1.8 is outside [0, 1]: a plan metric is a rate or share, so no run could measure that"},
		{"plan check of invalid UTF-8", []string{"plan", "check", badPlan}, badPlan + ":2:26 (column \"task\"): invalid UTF-8: byte 0xFF is not part of a UTF-8 character (re-save the file as UTF-8)"},
		{"plan check of an empty file", []string{"plan", "check", emptyJSON}, emptyJSON + ": no plan (the file is empty); want one JSON object"},
		{"summarize of an empty dataset", []string{"summarize", "--dataset", emptyJSON, "--results", res}, emptyJSON + ": no cases (the file is empty)"},
		{"summarize of empty results", []string{"summarize", "--dataset", ds, "--results", emptyJSON}, emptyJSON + ": no results (the file is empty)"},
		{"summarize of an empty run file", []string{"summarize", "--dataset", ds, "--results", emptyRun},
			emptyRun + ": no rows (the file is empty; a run file starts with the header id,task,set,lang,expect,outcome,fact,pass)"},
		{"summarize of an abstain case with a fact", []string{"summarize", "--dataset", abstainFact, "--results", res},
			abstainFact + `:2 (column "fact"): case "E1" expects abstain, so its fact must be null, got "return_window"`},
		{"summarize of a case without a slice", []string{"summarize", "--dataset", noSlice, "--results", res}, noSlice + `:2 (column "slice"): case "E2" needs a non-empty slice name`},
		{"summarize of unknown result ids", []string{"summarize", "--dataset", ds, "--results", unknownRes},
			unknownRes + `:2: Unknown result ID: "X9" (no case of ` + ds + ` has this id; 1 more: "X2" on line 3)`},
		// len(`{"id":"E2","kind":"answer","fact":"`) + 1 = 36.
		{"summarize of invalid UTF-8", []string{"summarize", "--dataset", ds, "--results", badRes}, badRes + ":1:36 (column \"fact\"): invalid UTF-8: byte 0xC3 is not part of a UTF-8 character (re-save the file as UTF-8)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.args...)
			errOut = strings.ReplaceAll(errOut, "evalbook: no --plan FILE given; using the embedded sample datasets/helpdesk/plan_v1.json\n", "")
			if code != 1 || errOut != "evalbook: "+tc.want+"\n" || out != "" {
				t.Errorf("exit %d, stdout %q, stderr\n%q\nwant exit 1, stderr\n%q", code, out, errOut, "evalbook: "+tc.want+"\n")
			}
		})
	}
	// The plan with an unknown metric is read; its problem quotes the names.
	out, errOut, code := runCLI(t, "plan", "check", unknownPlan)
	if want := "  failure \"reply is not valid JSON\" names unknown metric \"nosuch\"\n"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want %q", code, out, errOut, want)
	}
}

// Records that differ in one character hash differently, and bytes that
// are no character are refused rather than read as U+FFFD (the audit got
// one hash, 1c1a8b831732, for 0xFF, 0xFE and U+FFFD in a question).
func TestCasesHashDistinguishes(t *testing.T) {
	sample, err := os.ReadFile("../datasets/helpdesk/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(string(sample), "\n", 2)[0]
	dir := t.TempDir()
	hashes := map[string]string{}
	for _, tc := range []struct {
		name, char string
		code       int
	}{
		{"0xFF", "\xff", 1}, {"0xFE", "\xfe", 1}, {"lone surrogate escape", `\udbff`, 1},
		{"U+FFFD", "\ufffd", 0}, {"space", " ", 0}, {"no-break space", "\u00a0", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name+".jsonl")
			os.WriteFile(p, []byte(strings.Replace(first, "How many", "How"+tc.char+"many", 1)+"\n"), 0o644)
			out, errOut, code := runCLI(t, "cases", "hash", p)
			if code != tc.code {
				t.Fatalf("exit %d (%s), want %d", code, errOut, tc.code)
			}
			if code == 0 {
				if prev, dup := hashes[out]; dup {
					t.Errorf("hash %s also for %s", strings.TrimSpace(out), prev)
				}
				hashes[out] = tc.name
			}
		})
	}
}

// Settings outside what a score can be are usage errors (exit 2).
func TestRunSettingsRange(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"min-score above 1", []string{"--min-score", "2"}, "run: --min-score 2 is outside [0, 1]"},
		{"min-score below 0", []string{"--min-score", "-1"}, "run: --min-score -1 is outside [0, 1]"},
		{"min-score NaN", []string{"--min-score", "NaN"}, "run: --min-score NaN is outside [0, 1]"},
		{"min-margin below 0", []string{"--min-margin", "-1"}, "run: --min-margin -1 is outside [0, 1]"},
		{"min-margin above 1", []string{"--min-margin", "1.5"}, "run: --min-margin 1.5 is outside [0, 1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, append([]string{"run"}, tc.args...)...)
			if code != 2 || !strings.HasPrefix(errOut, "evalbook: "+tc.want) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, tc.want)
			}
		})
	}
	// The limits themselves are settings a user may choose.
	for _, args := range [][]string{{"--min-score", "0", "--min-margin", "1"}, {"--min-score", "1", "--min-margin", "0"}} {
		if _, errOut, code := runCLI(t, append([]string{"run"}, args...)...); code != 0 {
			t.Errorf("%q: exit %d, %s", args, code, errOut)
		}
	}
	// Without --cases the note names the flag, not a FILE argument.
	if _, errOut, _ := runCLI(t, "run"); !strings.Contains(errOut, "evalbook: no --cases FILE given; using the embedded sample datasets/helpdesk/cases.jsonl\n") {
		t.Errorf("stderr %q", errOut)
	}
}

// One case: "1 case", not "1 cases".
func TestCasesSingular(t *testing.T) {
	sample, err := os.ReadFile("../datasets/helpdesk/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "one.jsonl")
	os.WriteFile(p, []byte(strings.SplitN(string(sample), "\n", 2)[0]+"\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"coverage", []string{"cases", "coverage", "--min", "1", p}, []string{"1 case from ", "cells with fewer than 1 case: "}},
		{"split", []string{"cases", "split", p}, []string{" of 1 case ("}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
