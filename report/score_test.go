package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/report/internal/cli"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// runCLI runs evalbook with args and returns stdout, stderr and the exit code.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600") // 2026-01-01, so reports are byte-stable
	var out, errb bytes.Buffer
	err := testApp(t).Run(context.Background(), args, strings.NewReader(""), &out, &errb)
	if err != nil && !cli.IsSilent(err) {
		errb.WriteString("evalbook: " + err.Error() + "\n")
	}
	return out.String(), errb.String(), cli.ExitCode(err)
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
		{"bad ci", []string{"score", "--ci", "exact"}, 2, []string{"wilson, clopper-pearson, jeffreys, beta, bootstrap, bca or none"}},
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

// TestScoreAuditFixes covers the score items of the 2026-11-30 audit
// (5, 9, 10, 11, 14, 15).
func TestScoreAuditFixes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	hdr := "question,answer,Domain,response\n"
	badJSONL := write("bad.jsonl", `{"question": "q", "answer": "a`+"\xff"+`", "Domain": "D", "response": "a`+"\xff"+`"}`+"\n"+
		`{"question": "q", "answer": "b", "Domain": "D", "response": "b"}`+"\n")
	one := write("one.csv", hdr+"q,a,,a\n")
	cases := []struct {
		name        string
		args        []string
		code        int
		out, stderr []string // substrings of stdout and stderr
		notStderr   []string
	}{
		{"jsonl bad utf8 hint", []string{"score", "--responses", badJSONL}, 1, nil, []string{"bad.jsonl:1", "pass --repair-utf8"}, nil},
		{"jsonl repair", []string{"score", "--responses", badJSONL, "--repair-utf8"}, 0,
			[]string{"1 row had its invalid UTF-8 replaced by U+FFFD (line 1)"}, nil, []string{"repair-utf8"}},
		{"empty jsonl", []string{"score", "--responses", write("e.jsonl", "\n")}, 1, nil, []string{"one JSON object per line"}, []string{"header row"}},
		{"nested jsonl value", []string{"score", "--responses", write("n.jsonl", `{"question": "q", "answer": "a", "Domain": "D", "response": "a", "meta": {"tokens": [1, 2]}}`+"\n")}, 0,
			[]string{"n.jsonl: 1 row,", "100.0%"}, nil, nil},
		{"format xml", []string{"score", "--format", "xml"}, 2, nil, []string{"--format", "csv, jsonl"}, nil},
		{"negative examples", []string{"score", "--examples", "-1"}, 2, nil, []string{"--examples"}, nil},
		{"by nosuch", []string{"score", "--responses", one, "--by", "nosuch"}, 1, nil,
			[]string{`"nosuch" (a grouping column)`, `the header has: "question", "answer", "Domain", "response"`}, []string{"--question-col"}},
		{"missing domain once", []string{"score", "--responses", write("m.csv", "question,answer,response\nq,a,a\n")}, 1, nil,
			[]string{`missing column "Domain" (the domain); the header`, "--domain-col"}, []string{`"Domain" (a grouping column)`}},
		{"empty group and singular", []string{"score", "--responses", one, "--out", filepath.Join(dir, "v.csv")}, 0,
			[]string{"one.csv: 1 row, file hash", "(empty)", "over 1 row:"}, []string{"wrote verdicts for 1 row to"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, errs, code := runCLI(t, c.args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d (%s)", code, c.code, errs)
			}
			for _, s := range c.out {
				if !strings.Contains(out, s) {
					t.Errorf("stdout does not contain %q:\n%s", s, out)
				}
			}
			for _, s := range c.stderr {
				if !strings.Contains(errs, s) {
					t.Errorf("stderr does not contain %q: %s", s, errs)
				}
			}
			for _, s := range c.notStderr {
				if strings.Contains(errs, s) {
					t.Errorf("stderr contains %q: %s", s, errs)
				}
			}
		})
	}
	if out, _, _ := runCLI(t, "score", "--help"); !strings.Contains(out, "--normalize none|nfc|indic|indic_stem]") {
		t.Errorf("score usage line does not list indic_stem")
	}
}

// TestDispatch: no command is a usage error (usage on stderr, exit 2),
// --help is not (stdout, exit 0), and an unknown subcommand is named.
func TestDispatch(t *testing.T) {
	out, errs, code := runCLI(t)
	if code != 2 || out != "" || !strings.Contains(errs, "Usage:") {
		t.Errorf("evalbook: exit %d, stdout %q, stderr %q; want 2, nothing, the usage", code, out, errs)
	}
	out, errs, code = runCLI(t, "--help")
	if code != 0 || errs != "" || !strings.Contains(out, "Usage:") {
		t.Errorf("evalbook --help: exit %d, stdout %q, stderr %q; want 0, the usage, nothing", code, out, errs)
	}
	if _, errs, code := runCLI(t, "cases", "foo"); code != 2 || !strings.Contains(errs, `unknown subcommand "foo" of cases (known: coverage, hash, leakage, split)`) {
		t.Errorf("evalbook cases foo: exit %d, %q", code, errs)
	}
	if _, errs, code := runCLI(t, "cases"); code != 2 || !strings.Contains(errs, "cases needs a subcommand") {
		t.Errorf("evalbook cases: exit %d, %q", code, errs)
	}
}

// TestScoreOutStdout: --out - writes the verdict file to standard output
// and moves the report to standard error, so that the two never mix.
func TestScoreOutStdout(t *testing.T) {
	out, errs, code := runCLI(t, "score", "--out", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("standard output is not one CSV file: %v", err)
	}
	if len(recs) != 285 || recs[0][len(recs[0])-1] != "empty_golden" {
		t.Errorf("standard output: %d records (want the header and 284 rows), header %q", len(recs), recs[0])
	}
	if !strings.Contains(errs, "combined") || !strings.Contains(errs, "to standard output") {
		t.Errorf("standard error lacks the report or the note: %q", errs)
	}
	if _, err := os.Stat("-"); err == nil {
		t.Errorf("a file named - was written")
	}
}

// TestScoreAudit2: the second user audit's items 12, 18 and 19 at the
// command: flag hints added to the library's warnings, "-" refused for
// the report files, a missing output directory refused up front, and
// "(line 2)" for one line.
func TestScoreAudit2(t *testing.T) {
	dir := t.TempDir()
	four := filepath.Join(dir, "four.csv")
	// squad_f1 2/3, 2/3, 2/3, 3/4 (pkg/qa's TestGradedIntervalNearlyEqual);
	// the last response is blank, so one blank_response warning on line 5.
	os.WriteFile(four, []byte("question,answer,Domain,response\nq,x y z,D,x y w\nq,x y z,D,x y u\nq,x y z,D,x y t\nq,x y z v,D, \n"), 0o644)
	out, errs, code := runCLI(t, "score", "--responses", four, "--metrics", "squad_f1,exact_substring")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		// stats.UnitMeanInterval's warning (code few_values), with score's flag after it.
		"squad_f1: fewer than 30 values: the normal interval of a graded score is rough and may be far too narrow; prefer more values or a bootstrap interval (--ci bootstrap)\n",
		"1 row has a blank response",
		"(line 5)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "(lines 5)") {
		t.Errorf("output says \"(lines 5)\":\n%s", out)
	}
	// Hints follow codes: a corpus-level metric under Wilson is told of
	// --ci bootstrap (code no_interval); under --ci bootstrap its
	// small-sample warning (few_resampled) gets no hint. Rewriting text
	// put "(--ci bootstrap)" into that one too, as it says "a bootstrap
	// interval".
	for _, c := range []struct {
		ci, want string
	}{
		{"wilson", "  chrf: a corpus-level metric has no Wilson interval; ask for a bootstrap interval (--ci bootstrap)\n"},
		{"bootstrap", "  chrf: bootstrap over only 4 rows: the interval is rough and too narrow\n"},
	} {
		out, errs, code := runCLI(t, "score", "--responses", four, "--metrics", "chrf", "--ci", c.ci, "--resamples", "100")
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("--ci %s: exit %d, %s; output lacks %q:\n%s", c.ci, code, errs, c.want, out)
		}
		if c.ci == "bootstrap" && strings.Contains(out, "--ci") {
			t.Errorf("--ci bootstrap: output names --ci:\n%s", out)
		}
	}
	missing := filepath.Join(dir, "nodir", "x.csv")
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"--out in a missing directory", []string{"score", "--out", missing}, "score: --out: cannot write " + missing + ": the directory " + filepath.Join(dir, "nodir") + " does not exist"},
		{"--xlsx in a missing directory", []string{"score", "--xlsx", missing}, "the directory " + filepath.Join(dir, "nodir") + " does not exist"},
		{"--html -", []string{"score", "--html", "-"}, "score: --html -: standard output (-) is only for score --out"},
		{"--xlsx -", []string{"score", "--xlsx", "-"}, "score: --xlsx -: standard output (-) is only for score --out"},
		{"--charts -", []string{"score", "--charts", "-"}, "score: --charts -: standard output (-) is only for score --out"},
		{"report --html -", []string{"report", "--from", filepath.Join("testdata", "report_result.json"), "--html", "-"}, "report: --html -: standard output (-) is only for score --out"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, errs, code := runCLI(t, c.args...)
			if code != 2 || !strings.Contains(errs, c.want) {
				t.Errorf("exit %d, %q; want exit 2 and %q", code, errs, c.want)
			}
			if _, err := os.Stat("-"); err == nil {
				t.Errorf("a file named - was written")
			}
		})
	}
}

// TestScoreByRepeats: a repeated or empty --by column is a usage error
// naming --by, not a library error about Options.By.
func TestScoreByRepeats(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--by", "Domain", "--by", "Domain"}, "--by Domain is given twice"},
		{[]string{"--by", "Domain,Domain"}, `names the column "Domain" twice`},
		{[]string{"--by", "Domain,"}, "a column name is empty"},
	} {
		_, errs, code := runCLI(t, append([]string{"score"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Contains(errs, "Options.") {
			t.Errorf("score %q: exit %d, %q; want exit 2 and %q", c.args, code, errs, c.want)
		}
	}
	if _, errs, code := runCLI(t, "score", "--by", "", "--examples", "0"); code != 0 {
		t.Errorf(`--by "" (no grouping) must still work: exit %d, %s`, code, errs)
	}
}

// testApp is the evalbook command line, for tests that run commands in
// this process.
func testApp(t testing.TB) *cli.App {
	t.Helper()
	app, err := newApp()
	if err != nil {
		t.Fatal(err)
	}
	return app
}

// TestEveryCommandHasHelp: each command has its help file (newApp refuses
// one without), whose first line is its usage line, and every help file
// belongs to a command.
func TestEveryCommandHasHelp(t *testing.T) {
	app := testApp(t)
	for _, name := range app.Names() {
		h, err := app.HelpText(name)
		if err != nil {
			t.Fatal(err)
		}
		if want := "Usage: evalbook " + name; !strings.HasPrefix(h, want) {
			t.Errorf("help/%s.txt starts %q, want %q", strings.ReplaceAll(name, " ", "-"), firstLine(h), want)
		}
		if strings.Contains(h, "{{") {
			t.Errorf("help of %s has an unreplaced placeholder", name)
		}
	}
	files, err := helpFiles.ReadDir("help")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := strings.ReplaceAll(strings.TrimSuffix(f.Name(), ".txt"), "-", " ")
		if app.Command(name) == nil {
			t.Errorf("help/%s belongs to no command", f.Name())
		}
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

// TestParseFlagsAnywhere: flags may follow positional arguments, "--"
// makes the rest positional, and a command with no positional argument
// names where the value goes.
func TestParseFlagsAnywhere(t *testing.T) {
	for _, c := range []struct {
		args []string
		pos  []string
		json bool
	}{
		{[]string{"a", "--json", "b"}, []string{"a", "b"}, true},
		{[]string{"--json", "-", "b"}, []string{"-", "b"}, true},
		{[]string{"a", "--", "--json", "-x"}, []string{"a", "--json", "-x"}, false},
		{nil, nil, false},
	} {
		e := &cli.Env{Args: c.args, Stdout: io.Discard, Stderr: io.Discard}
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		j := fs.Bool("json", false, "")
		pos, err := cli.ParseFlags(e, fs, cli.WordArgs)
		if err != nil || !slices.Equal(pos, c.pos) || *j != c.json {
			t.Errorf("parseFlags(%q) = %q, json %v, %v; want %q, json %v", c.args, pos, *j, err, c.pos, c.json)
		}
	}
	_, stderr, code := runCLI(t, "mc", "preds.csv", "--json")
	if code != 2 || !strings.Contains(stderr, `mc: unexpected argument "preds.csv" (the file goes after --predictions)`) {
		t.Errorf("mc preds.csv: exit %d, %q", code, stderr)
	}
}

// The formula_cells warning says where the guarded cells went: a verdict
// file, standard output, or nowhere but the report (it said "written to
// the verdict file" when score wrote none, for --html alone).
func TestFormulaWarningSaysWhere(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args      []string
		want, not string
	}{
		{[]string{"--out", filepath.Join(dir, "v.csv")}, "were written to the verdict file with a leading '", "no verdict file"},
		{[]string{"--html", filepath.Join(dir, "r.html")}, "no verdict file was written (--out FILE.csv writes them with a leading '", "written to the verdict file"},
		{[]string{"--out", "-"}, "got a leading ' in the verdict rows written to standard output", "written to the verdict file"},
	}
	for _, c := range cases {
		stdout, stderr, code := runCLI(t, append([]string{"score"}, c.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		text := stdout + stderr
		// The sample has 4 such cells (lines 37, 60, 61 and 107).
		if !strings.Contains(text, "4 cells that a spreadsheet would run as a formula") || !strings.Contains(text, c.want) || strings.Contains(text, c.not) {
			t.Errorf("%v: the formula_cells warning does not say %q (or says %q):\n%s", c.args, c.want, c.not, text)
		}
	}
}
