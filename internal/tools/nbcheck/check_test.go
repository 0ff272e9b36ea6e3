package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// Each fixture in testdata is a hand-written executed notebook with the
// output GoNB produces in that situation (shapes taken from GONB.md §3 and
// from notebooks executed with GoNB v0.11.1 under nbconvert 6.5.3). The
// expected lines below were written by reading the fixture: cell numbers
// are 1-based positions in "cells", counting markdown cells too.
func TestRun(t *testing.T) {
	td := func(name string) string { return filepath.Join("testdata", name) }
	tests := []struct {
		name string
		args []string
		code int
		want []string // the exact stdout lines
	}{
		{
			name: "pass",
			args: []string{td("pass.ipynb")},
			code: 0,
			// cells 2 and 3 ran; the blank cell 4 needs no execution_count;
			// "exit status" in markdown, on stdout and mid-line on stderr is not a failure.
			want: []string{"ok   testdata/pass.ipynb: 2 code cells executed, 1 rich outputs"},
		},
		{
			name: "pass with require-rich",
			args: []string{"-require-rich", td("pass.ipynb")},
			code: 0,
			want: []string{"ok   testdata/pass.ipynb: 2 code cells executed, 1 rich outputs"},
		},
		{
			name: "quiet pass prints nothing",
			args: []string{"-q", td("pass.ipynb")},
			code: 0,
			want: nil,
		},
		{
			name: "error output",
			args: []string{td("error_output.ipynb")},
			code: 1,
			want: []string{`FAIL testdata/error_output.ipynb: cell 2 [broken] "%%": error output: ERROR: failed to run "go build": exit status 1`},
		},
		{
			name: "panic prints exit status on stderr",
			args: []string{td("panic.ipynb")},
			code: 1,
			want: []string{`FAIL testdata/panic.ipynb: cell 1 "%%": stderr: exit status 2`},
		},
		{
			name: "failing test with stderr split across outputs and CRLF",
			args: []string{td("split_stream.ipynb")},
			code: 1,
			want: []string{`FAIL testdata/split_stream.ipynb: cell 1 [test] "func TestX(t *testing.T) { t.Fatal(\"no\")...": stderr: exit status 1`},
		},
		{
			name: "interrupted program",
			args: []string{td("signal.ipynb")},
			code: 1,
			want: []string{`FAIL testdata/signal.ipynb: cell 1 [slow] "%%": stderr: ^Csignal: interrupt`},
		},
		{
			name: "cell never executed",
			args: []string{td("unexecuted.ipynb")},
			code: 1,
			want: []string{`FAIL testdata/unexecuted.ipynb: cell 2 [second] "%%": not executed (no execution_count)`},
		},
		{
			name: "text only passes without the flag",
			args: []string{td("text_only.ipynb")},
			code: 0,
			want: []string{"ok   testdata/text_only.ipynb: 1 code cells executed, 0 rich outputs"},
		},
		{
			name: "text and markdown are not rich",
			args: []string{"-require-rich", td("text_only.ipynb")},
			code: 1,
			want: []string{"FAIL testdata/text_only.ipynb: no image or HTML output in any cell (-require-rich)"},
		},
		{
			name: "image counts as rich",
			args: []string{"-require-rich", td("image.ipynb")},
			code: 0,
			want: []string{"ok   testdata/image.ipynb: 1 code cells executed, 1 rich outputs"},
		},
		{
			name: "nbformat 3",
			args: []string{td("nbformat3.ipynb")},
			code: 1,
			want: []string{`FAIL testdata/nbformat3.ipynb: not an nbformat 4 notebook (missing or different "nbformat")`},
		},
		{
			name: "truncated JSON",
			args: []string{td("truncated.ipynb")},
			code: 1,
			want: []string{"FAIL testdata/truncated.ipynb: not a notebook: unexpected end of JSON input"},
		},
		{
			name: "one failure among several files fails the run and reports all",
			args: []string{td("image.ipynb"), td("panic.ipynb"), td("text_only.ipynb")},
			code: 1,
			want: []string{
				"ok   testdata/image.ipynb: 1 code cells executed, 1 rich outputs",
				`FAIL testdata/panic.ipynb: cell 1 "%%": stderr: exit status 2`,
				"ok   testdata/text_only.ipynb: 1 code cells executed, 0 rich outputs",
			},
		},
		{
			// (the context is 30 bytes before the figure and 20 after, white space collapsed)
			// The prose of [read] holds six figures: 68.3% and "0.603 to 0.949" are
			// quoted from [rate], 95% is declared plain ({{=95%}}); 0.5 and the second
			// 68.3% (the one quote covers the first only) carry no marker. 0.25 and
			// 2.5 are code or a link target; 05, 12 and v1.2 are not figures.
			name: "unmarked figures",
			args: []string{"-unmarked", td("unmarked.ipynb")},
			code: 1,
			want: []string{
				`FAIL testdata/unmarked.ipynb: cell 2 [read] "It passes 68.3% with a 95% interval from...": figure "0.5" ("...al from 0.603 to 0.949, above 0.5. ` + "`" + `Seed: 0.25` + "`" + ` and [...") has no marker: {{cell-id: 0.5}} if a cell prints it, {{=0.5}} if none does`,
				`FAIL testdata/unmarked.ipynb: cell 2 [read] "It passes 68.3% with a 95% interval from...": figure "68.3%" ("...e code; notebook 05, 12 rows, 68.3%....") has no marker: {{cell-id: 68.3%}} if a cell prints it, {{=68.3%}} if none does`,
			},
		},
		{
			name: "without -unmarked an unmarked figure passes",
			args: []string{"-q", td("unmarked.ipynb")},
			code: 0,
		},
		{
			// Output: "kappa 0.762 (95% interval 0.603 to 0.949)" and an HTML cell "39&nbsp;of&nbsp;70".
			// 0.603, 0.949 and "39 of 70" (entities decoded, tags and spaces collapsed) are shown;
			// 0.60 is only the start of 0.603, 0.76 of 0.762, 62 is nowhere; [silent] printed
			// nothing, [read] is markdown and [gone] does not exist.
			name: "quoted figures",
			args: []string{td("quotes.ipynb")},
			code: 1,
			want: []string{
				`FAIL testdata/quotes.ipynb: cell 3 [read] "The interval runs from 0.603 to 0.949; 3...": quotes "0.60" from cell [kappa], whose output does not show it: correct the prose or the marker`,
				`FAIL testdata/quotes.ipynb: cell 3 [read] "The interval runs from 0.603 to 0.949; 3...": quotes "0.76" from cell [kappa], whose output does not show it: correct the prose or the marker`,
				`FAIL testdata/quotes.ipynb: cell 3 [read] "The interval runs from 0.603 to 0.949; 3...": quotes "62" from cell [kappa], whose output does not show it: correct the prose or the marker`,
				`FAIL testdata/quotes.ipynb: cell 3 [read] "The interval runs from 0.603 to 0.949; 3...": quotes "1" from cell [silent], which has no output (run the notebook)`,
				`FAIL testdata/quotes.ipynb: cell 3 [read] "The interval runs from 0.603 to 0.949; 3...": quotes "0.603" from cell [read], which is not a code cell`,
				`FAIL testdata/quotes.ipynb: cell 3 [read] "The interval runs from 0.603 to 0.949; 3...": quotes "0.603" from cell [gone], which does not exist`,
			},
		},
		{
			// [four] has 4 lines and two trailing blank ones, [five] 5; markdown is not counted.
			name: "max lines",
			args: []string{"-max-lines", "4", td("long.ipynb")},
			code: 1,
			want: []string{`FAIL testdata/long.ipynb: cell 3 [five] "a := 1": 5 lines of code, more than 4 (-max-lines): move plumbing into notebooks/nbkit or a package, or split the cell`},
		},
		{
			name: "max lines not reached",
			args: []string{"-max-lines", "5", td("long.ipynb")},
			code: 0,
			want: []string{"ok   testdata/long.ipynb: 2 code cells executed, 0 rich outputs"},
		},
		{
			// [same] differs only in timings, execution count, output metadata, the order of
			// MIME keys, how its text is split into a list and whether the printed line comes
			// before or after the display: equal. [changed] prints 0.25 for
			// 0.5 on its second line; [edited] has another source; [added] and [dropped] are
			// in one notebook each.
			name: "against the committed outputs",
			args: []string{"-against", td("committed.ipynb"), td("fresh.ipynb")},
			code: 1,
			want: []string{
				`FAIL testdata/fresh.ipynb: cell 2 [changed] "%%": output differs from testdata/committed.ipynb: output line 2 was "0.5", is now "0.25" (if the change is meant, commit the fresh outputs: scripts/run-notebooks.sh --update)`,
				`FAIL testdata/fresh.ipynb: cell 3 [edited] "%%": its source differs from testdata/committed.ipynb (regenerate it: scripts/nbgen.py)`,
				`FAIL testdata/fresh.ipynb: cell 4 [added] "y := 2": not in testdata/committed.ipynb (regenerate it: scripts/nbgen.py)`,
				`FAIL testdata/fresh.ipynb: cell [dropped] of testdata/committed.ipynb is not in the executed notebook`,
			},
		},
		{
			name: "against itself",
			args: []string{"-against", td("committed.ipynb"), td("committed.ipynb")},
			code: 0,
			want: []string{"ok   testdata/committed.ipynb: 4 code cells executed, 1 rich outputs"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit status = %d, want %d (stderr %q)", code, tt.code, stderr.String())
			}
			got := lines(stdout.String())
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("stdout:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestRunMissingFile(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{filepath.Join("testdata", "no-such.ipynb")}, &stdout, &stderr); code != 1 {
		t.Errorf("exit status = %d, want 1", code)
	}
	if !strings.HasPrefix(stdout.String(), "FAIL testdata/no-such.ipynb: open ") {
		t.Errorf("stdout = %q, want a FAIL line naming the file", stdout.String())
	}
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{{"-against", "a.ipynb", "b.ipynb", "c.ipynb"}, {"-max-lines", "-1", "x.ipynb"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 || stdout.Len() > 0 {
			t.Errorf("run(%q) = %d with stdout %q, want 2 and nothing", args, code, stdout.String())
		}
	}
	for _, args := range [][]string{nil, {"-no-such-flag", "x.ipynb"}} {
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 2 {
			t.Errorf("run(%q) = %d, want 2", args, code)
		}
		if !strings.Contains(stderr.String(), "usage: nbcheck") {
			t.Errorf("run(%q) stderr = %q, want the usage line", args, stderr.String())
		}
	}
}

func TestExitLine(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"exit status 1", true},
		{"exit status 255", true},
		{"^Cexit status 130", true},
		{"signal: killed", true},
		{"signal: segmentation fault (core dumped)", true},
		{"exit status", false},    // no number
		{"exit status -1", false}, // os/exec prints -1 only as "signal: ..."
		{" exit status 1", false}, // must be the whole line
		{"exit status 1 (retrying)", false},
		{"signal:", false},
		{"Csignal: killed", false},
	} {
		t.Run(tt.line, func(t *testing.T) {
			if got := exitLine.MatchString(tt.line); got != tt.want {
				t.Errorf("exitLine.MatchString(%q) = %v, want %v", tt.line, got, tt.want)
			}
		})
	}
}

func lines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
