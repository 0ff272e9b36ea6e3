package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/evalbook/evalbook/internal/outfile"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/pkg/xlsxread"
)

// helpFS holds a help file for each name.
func helpFS(names ...string) fstest.MapFS {
	m := fstest.MapFS{}
	for _, n := range names {
		m[helpPath(n)] = &fstest.MapFile{Data: []byte("Usage: evalbook " + n + " [flags]\n\nmetrics: {{metrics}}\n")}
	}
	return m
}

// seen records what a command was run with.
type seen struct {
	name string
	args []string
}

// testApp is an App of "one", "two", "two sub" (so "two sub" must win over
// "two" with a positional argument "sub"), "pair a" and "pair b" (a first
// word with subcommands only) and "stored" (reads no file). Each records
// its name and arguments in *got and returns ret(name).
func testApp(t *testing.T, got *seen, ret func(name string) error) *App {
	t.Helper()
	names := []string{"one", "two", "two sub", "pair a", "pair b", "stored"}
	var cmds []Command
	for _, n := range names {
		cmds = append(cmds, Command{Name: n, Summary: "summary of " + n, ReadsNoFile: n == "stored", Run: func(e *Env) error {
			*got = seen{n, e.Args}
			if ret != nil {
				return ret(n)
			}
			return nil
		}})
	}
	a, err := New("1.2.3", helpFS(names...), cmds...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// run runs args through a and returns stdout, stderr and the exit status.
func run(a *App, args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	err := a.Run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), ExitCode(err)
}

func TestNewRefusesBadCommands(t *testing.T) {
	ok := func(*Env) error { return nil }
	for _, c := range []struct {
		cmds []Command
		want string
	}{
		{[]Command{{Name: "one", Run: ok}, {Name: "one", Run: ok}}, `two commands named "one"`},
		{[]Command{{Name: "one"}}, "needs a Name and a Run"},
		{[]Command{{Run: ok}}, "needs a Name and a Run"},
		{[]Command{{Name: "three", Run: ok}}, `command "three" has no help text`},
	} {
		if _, err := New("v", helpFS("one", "two"), c.cmds...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%v): %v, want an error containing %q", c.cmds, err, c.want)
		}
	}
}

// The App keeps its own copy of each command: changing the value handed
// to New, or the one Command returns, changes nothing.
func TestAppOwnsItsCommands(t *testing.T) {
	cmds := []Command{{Name: "one", Summary: "first", Run: func(*Env) error { return nil }}}
	a, err := New("v", helpFS("one"), cmds...)
	if err != nil {
		t.Fatal(err)
	}
	cmds[0].Summary = "changed"
	a.Command("one").Summary = "changed too"
	if got := a.Command("one").Summary; got != "first" {
		t.Errorf("summary %q, want first", got)
	}
	if a.Command("nope") != nil {
		t.Error("Command of an unknown name is not nil")
	}
}

func TestRunDispatch(t *testing.T) {
	var got seen
	a := testApp(t, &got, nil)
	for _, c := range []struct {
		args []string
		want seen
	}{
		{[]string{"one", "x", "--flag"}, seen{"one", []string{"x", "--flag"}}},
		{[]string{"two", "sub", "x"}, seen{"two sub", []string{"x"}}}, // the two-word command first
		{[]string{"two", "other"}, seen{"two", []string{"other"}}},
		{[]string{"two"}, seen{"two", []string{}}},
		{[]string{"pair", "b"}, seen{"pair b", []string{}}},
	} {
		got = seen{}
		if _, errs, code := run(a, c.args...); code != 0 || got.name != c.want.name || !slices.Equal(got.args, c.want.args) {
			t.Errorf("%q ran %q with %q (exit %d, %s), want %q with %q", c.args, got.name, got.args, code, errs, c.want.name, c.want.args)
		}
	}
}

// Usage errors exit 2 with a message naming what to do; help exits 0.
func TestRunUsage(t *testing.T) {
	var got seen
	a := testApp(t, &got, nil)
	for _, c := range []struct {
		args         []string
		code         int
		out, errText string // substrings of stdout and of stdout+stderr+error
	}{
		{nil, 2, "", "Usage:\n\tevalbook <command> [flags]"},
		{[]string{"--help"}, 0, "Usage:\n\tevalbook <command> [flags]", ""},
		{[]string{"-h"}, 0, "\tpair b             summary of pair b\n", ""},
		{[]string{"help"}, 0, "Run \"evalbook <command> --help\" for a command's flags", ""},
		{[]string{"version"}, 0, "evalbook 1.2.3\n", ""},
		{[]string{"--version"}, 0, "evalbook 1.2.3\n", ""},
		{[]string{"nope"}, 2, "", `unknown command "nope" (see evalbook --help)`},
		{[]string{"pair"}, 2, "", "pair needs a subcommand: a, b"},
		{[]string{"pair", "--json"}, 2, "", "pair needs a subcommand: a, b"},
		{[]string{"pair", "c"}, 2, "", `unknown subcommand "c" of pair (known: a, b)`},
	} {
		var out, errb bytes.Buffer
		err := a.Run(context.Background(), c.args, strings.NewReader(""), &out, &errb)
		all := out.String() + errb.String()
		if err != nil {
			all += err.Error()
		}
		if code := ExitCode(err); code != c.code || !strings.Contains(out.String(), c.out) || !strings.Contains(all, c.errText) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q, err %v; want exit %d, stdout with %q, message with %q",
				c.args, code, out.String(), errb.String(), err, c.code, c.out, c.errText)
		}
	}
	if out, _, _ := run(a, "--help"); strings.Contains(out, "cli.") || strings.Contains(out, "<Command>") {
		t.Errorf("the usage names a Go identifier:\n%s", out)
	}
}

// "help CMD" and "CMD --help" print the command's help text (with
// {{metrics}} filled in) and its flags on stdout, exit 0.
func TestCommandHelp(t *testing.T) {
	a, err := New("v", helpFS("one"), Command{Name: "one", Run: func(e *Env) error {
		fs := NewFlags(e, "one")
		fs.Bool("json", false, "print JSON")
		_, err := ParseFlags(e, fs, WordArgs)
		return err
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"help", "one"}, {"one", "--help"}, {"one", "x", "-h"}, {"one", "-help", "--bad"}} {
		out, errs, code := run(a, args...)
		if code != 0 || errs != "" || !strings.HasPrefix(out, "Usage: evalbook one [flags]") ||
			!strings.Contains(out, "exact_substring") || !strings.Contains(out, "-json") || !strings.Contains(out, "-max-field-mib") {
			t.Errorf("%q: exit %d, stderr %q, stdout:\n%s", args, code, errs, out)
		}
	}
}

func TestExitCode(t *testing.T) {
	for _, c := range []struct {
		err  error
		code int
	}{
		{nil, 0},
		{ErrHelp, 0},
		{fmt.Errorf("wrapped: %w", ErrHelp), 0},
		{Usagef("bad %s", "flag"), 2},
		{fmt.Errorf("in context: %w", Usagef("bad")), 2},
		{&SilentError{Code: ExitGateFailed}, 3},
		{&SilentError{Code: 2}, 2},
		{errors.New("bad data"), 1},
		{os.ErrNotExist, 1},
	} {
		if got := ExitCode(c.err); got != c.code {
			t.Errorf("ExitCode(%v) = %d, want %d", c.err, got, c.code)
		}
	}
	if !IsSilent(&SilentError{Code: 3}) || !IsSilent(ErrHelp) || IsSilent(Usagef("x")) || IsSilent(errors.New("x")) {
		t.Error("IsSilent: only SilentError and ErrHelp carry no message")
	}
}

// env is an Env with args and buffers for the streams.
func env(args ...string) (*Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return &Env{Ctx: context.Background(), Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, &out, &errb
}

// Flags may come anywhere among the positional arguments; "--" makes
// the rest positional; a bad flag is a usage error naming the command.
func TestParseFlagsAnywhere(t *testing.T) {
	for _, c := range []struct {
		args []string
		pos  []string
		json bool
		n    int
	}{
		{[]string{"a", "--json", "b"}, []string{"a", "b"}, true, 0},
		{[]string{"--json", "-", "b"}, []string{"-", "b"}, true, 0},
		{[]string{"a", "-n", "3", "b", "--json"}, []string{"a", "b"}, true, 3},
		{[]string{"a", "--", "--json", "-x"}, []string{"a", "--json", "-x"}, false, 0},
		{[]string{"--n=4", "--", "a"}, []string{"a"}, false, 4},
		{nil, nil, false, 0},
	} {
		e, _, _ := env(c.args...)
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		j := fs.Bool("json", false, "")
		n := fs.Int("n", 0, "")
		pos, err := ParseFlags(e, fs, WordArgs)
		if err != nil || !slices.Equal(pos, c.pos) || *j != c.json || *n != c.n {
			t.Errorf("ParseFlags(%q) = %q, json %v, n %d, %v; want %q, json %v, n %d", c.args, pos, *j, *n, err, c.pos, c.json, c.n)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--nope"}, "t: flag provided but not defined: -nope (see evalbook t --help)"},
		{[]string{"a", "-n", "x"}, `t: invalid value "x" for flag -n`},
		{[]string{"a", "-n"}, "t: flag needs an argument: -n"},
	} {
		e, out, errb := env(c.args...)
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.Int("n", 0, "")
		_, err := ParseFlags(e, fs, WordArgs)
		var u *UsageError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) || out.Len()+errb.Len() > 0 {
			t.Errorf("ParseFlags(%q): %v (printed %q %q), want a usage error with %q and nothing printed", c.args, err, out, errb, c.want)
		}
	}
	e, _, _ := env("x.csv")
	err := ParseNoArgs(e, flag.NewFlagSet("mc", flag.ContinueOnError), "the file goes after --predictions")
	if ExitCode(err) != 2 || err.Error() != `mc: unexpected argument "x.csv" (the file goes after --predictions)` {
		t.Errorf("ParseNoArgs: %v", err)
	}
	e, _, _ = env()
	if err := ParseNoArgs(e, flag.NewFlagSet("mc", flag.ContinueOnError), ""); err != nil {
		t.Errorf("ParseNoArgs with no argument: %v", err)
	}
}

// parse declares flags on a new flag set of the command "cmd" through
// declare, parses args and returns the error.
func parse(declare func(fs *flag.FlagSet), args ...string) error {
	return parseAs("cmd", declare, args...)
}

// parseAs is parse for the command name.
func parseAs(name string, declare func(fs *flag.FlagSet), args ...string) error {
	e, _, _ := env(args...)
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	declare(fs)
	_, err := ParseFlags(e, fs, WordArgs)
	return err
}

// The shared flags refuse a bad value as a usage error naming the flag.
func TestSharedFlagsValidate(t *testing.T) {
	var iv *IntervalFlags
	interval := func(fs *flag.FlagSet) { iv = AddIntervalFlags(fs, "") }
	optional := func(fs *flag.FlagSet) { iv = AddOptionalIntervalFlags(fs, "") }
	var ci *string
	choice := func(fs *flag.FlagSet) { ci = AddChoice(fs, "ci", "", "wilson", "bootstrap", "bca") }
	var conf *ConfidenceValue
	confOnly := func(fs *flag.FlagSet) { conf = AddConfidenceFlag(fs, "") }
	normalize := func(fs *flag.FlagSet) { AddNormalizeFlag(fs, "") }
	for _, c := range []struct {
		declare func(*flag.FlagSet)
		args    []string
		want    string // "" for success
	}{
		{interval, []string{"--confidence", "0"}, "-confidence: want a level between 0 and 1"},
		{interval, []string{"--confidence", "1"}, "-confidence: want a level between 0 and 1"},
		{interval, []string{"--confidence", "NaN"}, "-confidence: want a level between 0 and 1"},
		{interval, []string{"--confidence", "x"}, "-confidence: want a level between 0 and 1"},
		{interval, []string{"--resamples", "0"}, "-resamples: want a whole number of at least 1"},
		{interval, []string{"--resamples", "1.5"}, "-resamples: want a whole number of at least 1"},
		{interval, []string{"--seed", "-1"}, "-seed"},
		{optional, []string{"--resamples", "-1"}, "-resamples: want a whole number of at least 0"},
		{optional, []string{"--resamples", "0"}, ""},
		{choice, []string{"--ci", "wald"}, "-ci: want wilson, bootstrap or bca"},
		{confOnly, []string{"--confidence", "1.5"}, "-confidence: want a level between 0 and 1"},
		{normalize, []string{"--normalize", "no-such-profile"}, "-normalize"},
	} {
		err := parse(c.declare, c.args...)
		if c.want == "" {
			if err != nil {
				t.Errorf("%q: %v", c.args, err)
			}
			continue
		}
		if ExitCode(err) != 2 || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "cmd: ") {
			t.Errorf("%q: %v, want a usage error of cmd with %q", c.args, err, c.want)
		}
	}
	if err := parse(interval); err != nil || iv.Confidence() != DefaultConfidence || iv.Resamples() != DefaultResamples || iv.Seed() != DefaultSeed {
		t.Errorf("interval defaults: %v %v %v %v", err, iv.Confidence(), iv.Resamples(), iv.Seed())
	}
	if err := parse(optional); err != nil || iv.Resamples() != 0 {
		t.Errorf("optional bootstrap: %v, resamples %d, want 0", err, iv.Resamples())
	}
	if err := parse(interval, "--confidence", "0.9", "--resamples", "200", "--seed", "7"); err != nil ||
		iv.Confidence() != 0.9 || iv.Resamples() != 200 || iv.Seed() != 7 {
		t.Errorf("interval values: %v %v %v %v", err, iv.Confidence(), iv.Resamples(), iv.Seed())
	}
	if err := parse(choice); err != nil || *ci != "wilson" {
		t.Errorf("choice default %q, %v", *ci, err)
	}
	if err := parse(choice, "--ci", "bca"); err != nil || *ci != "bca" {
		t.Errorf("choice %q, %v", *ci, err)
	}
	if err := parse(confOnly, "--confidence", "0.8"); err != nil || conf.Level() != 0.8 {
		t.Errorf("confidence alone %v, %v", conf.Level(), err)
	}
}

// --max-field-mib and --max-file-mib are declared for a command that
// reads files, refused out of range, and applied to tabular's limits;
// a command that reads no file does not have them.
func TestFieldLimitFlags(t *testing.T) {
	saved, savedFile := tabular.Limit, tabular.MaxFile
	t.Cleanup(func() { tabular.Limit, tabular.MaxFile = saved, savedFile })
	for _, c := range []struct {
		cmd  string
		args []string
		want string
	}{
		{"one", []string{"--max-field-mib", "0"}, `one: invalid value "0" for flag -max-field-mib: want a whole number of MiB between 1 and 1048576`},
		{"one", []string{"--max-file-mib", "1048577"}, "-max-file-mib: want a whole number of MiB between 1 and 1048576"},
		{"stored", []string{"--max-field-mib", "4"}, "stored: flag provided but not defined: -max-field-mib"},
	} {
		a, err := New("v", helpFS(c.cmd), Command{Name: c.cmd, ReadsNoFile: c.cmd == "stored", Run: func(e *Env) error {
			_, err := ParseFlags(e, NewFlags(e, c.cmd), WordArgs)
			return err
		}})
		if err != nil {
			t.Fatal(err)
		}
		err = a.Run(context.Background(), append([]string{c.cmd}, c.args...), nil, io.Discard, io.Discard)
		if ExitCode(err) != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: %v; want exit 2 and %q", c.cmd, c.args, err, c.want)
		}
	}
	e, _, _ := env("--max-field-mib", "3", "--max-file-mib", "5")
	if _, err := ParseFlags(e, NewFlags(e, "one"), WordArgs); err != nil {
		t.Fatal(err)
	}
	if tabular.Limit.MaxRecord != 3<<20 || tabular.MaxFile != 5<<20 {
		t.Errorf("limits %d and %d, want %d and %d", tabular.Limit.MaxRecord, tabular.MaxFile, 3<<20, 5<<20)
	}
}

// --xlsx and --html refuse "-", a directory, and one file for both; --out
// refuses a directory and an input.
func TestOutputFileChecks(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(in, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tables := func(fs *flag.FlagSet) { AddTableExportFlags(fs) }
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--xlsx", "-"}, "cmd: --xlsx -: standard output (-) is only for score --out; give --xlsx a file name"},
		{[]string{"--html", "-"}, "cmd: --html -: standard output (-) is only for score --out"},
		{[]string{"--xlsx", dir}, "cmd: --xlsx: "},
		{[]string{"--xlsx", "r.out", "--html", "r.out"}, `cmd: --xlsx and --html name the same file "r.out"`},
	} {
		if err := parse(tables, c.args...); ExitCode(err) != 2 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want a usage error with %q", c.args, err, c.want)
		}
	}
	if err := parse(tables, "--xlsx", filepath.Join(dir, "r.xlsx"), "--html", filepath.Join(dir, "r.html")); err != nil {
		t.Errorf("two new files: %v", err)
	}
	inOut := func(fs *flag.FlagSet) {
		InputFlag(fs, "responses", in, "`FILE`")
		OutputFlag(fs, "out", "", "`FILE`")
	}
	for _, c := range []struct {
		out, want string
	}{
		{"", ""},
		{"-", ""},
		{filepath.Join(dir, "new.csv"), ""},
		{dir, "score: --out: "},
		{in, "score: --out "},
		{filepath.Join(dir, ".", "in.csv"), "score: --out "},
	} {
		err := parseAs("score", inOut, "--out", c.out)
		if c.want == "" && err != nil || c.want != "" && (ExitCode(err) != 2 || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("--out %q: %v, want %q", c.out, err, c.want)
		}
	}
	for _, c := range []struct {
		x    ExportFlags
		want string
	}{
		{ExportFlags{HTMLRows: -1}, "--html-rows must not be negative"},
		{ExportFlags{XLSX: "a", HTML: "a"}, `--xlsx and --html name the same file "a"`},
		{ExportFlags{Charts: "-"}, "--charts -: standard output"},
		{ExportFlags{HTML: dir}, "--html: "},
		{ExportFlags{Charts: dir}, ""}, // a folder is what --charts takes
	} {
		err := c.x.Check("score")
		if c.want == "" && err != nil || c.want != "" && (ExitCode(err) != 2 || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v.Check: %v, want %q", c.x, err, c.want)
		}
	}
}

// The client flags are checked before anything is sent.
func TestClientFlagsConfig(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "judge: --model is required with an endpoint"},
		{[]string{"--model", "m", "--max-reply-mib", "0"}, "judge: --max-reply-mib must be between 1 and 1048576"},
		{[]string{"--model", "m", "--grace", "-1s"}, "judge: --grace must not be negative"},
		{[]string{"--model", "m", "--concurrency", "0"}, "judge: --concurrency must be at least 1"},
		{[]string{"--model", "m", "--model-seed", "x"}, `judge: --model-seed must be an integer, not "x"`},
		{[]string{"--model", "m"}, ""},
	} {
		var cf *ClientFlags
		if err := parseAs("judge", func(fs *flag.FlagSet) { cf = AddClientFlags(fs, 4, "judge-cache.jsonl", "judge") }, c.args...); err != nil {
			t.Fatal(err)
		}
		_, err := cf.Config("http://127.0.0.1:1/v1")
		if c.want == "" && err != nil || c.want != "" && (ExitCode(err) != 2 || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%q: %v, want %q", c.args, err, c.want)
		}
	}
}

func TestWorkbookLimitFlags(t *testing.T) {
	saved := xlsxread.Limit
	t.Cleanup(func() { xlsxread.Limit = saved })
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--max-inflated-mib", "0"}, "--max-inflated-mib must be at least 1"},
		{[]string{"--max-inflate-ratio", "0.5"}, "--max-inflate-ratio must be at least 1"},
		{[]string{"--max-inflate-ratio", "NaN"}, "--max-inflate-ratio must be at least 1"},
		{[]string{"--max-inflated-mib", "8", "--max-inflate-ratio", "20"}, ""},
	} {
		var w *WorkbookLimitFlags
		if err := parse(func(fs *flag.FlagSet) { w = AddWorkbookLimitFlags(fs) }, c.args...); err != nil {
			t.Fatal(err)
		}
		err := w.Apply()
		if c.want == "" && err != nil || c.want != "" && (ExitCode(err) != 2 || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%q: %v, want %q", c.args, err, c.want)
		}
	}
	if xlsxread.Limit.MaxInflated != 8<<20 || xlsxread.Limit.MaxRatio != 20 {
		t.Errorf("xlsxread.Limit %+v after Apply", xlsxread.Limit)
	}
}

// report is a results.Report of one line and one table.
type report struct {
	Kind string `json:"kind"`
	Note string `json:"note"`
}

func (r report) WriteText(w io.Writer) error { _, err := fmt.Fprintln(w, "note:", r.Note); return err }
func (r report) Tables() []results.Table {
	return []results.Table{{Title: "t", Columns: []results.Column{{Name: "note"}}, Rows: [][]string{{r.Note}}}}
}

// Render prints the text, or with --json the JSON document (HTML
// characters as they are), and writes the files asked for.
func TestRender(t *testing.T) {
	r := report{Kind: "k", Note: "<a & b>"}
	e, out, _ := env()
	if err := Render(e, r, &TableExport{Cmd: "x"}); err != nil || out.String() != "note: <a & b>\n" {
		t.Errorf("text: %q, %v", out, err)
	}
	e, out, _ = env()
	if err := Render(e, r, &TableExport{Cmd: "x", JSON: true}); err != nil || out.String() != "{\n  \"kind\": \"k\",\n  \"note\": \"<a & b>\"\n}\n" {
		t.Errorf("json: %q, %v", out, err)
	}
	page := filepath.Join(t.TempDir(), "r.html")
	e, out, errb := env()
	if err := Render(e, r, &TableExport{Cmd: "x", HTML: page}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(b), "&lt;a &amp; b&gt;") || !strings.Contains(errb.String(), "evalbook: wrote "+page) || out.String() != "note: <a & b>\n" {
		t.Errorf("page: %v, stderr %q, stdout %q", err, errb, out)
	}
}

func TestWords(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Plural(0, "row", "rows"), "0 rows"},
		{Plural(1, "row", "rows"), "1 row"},
		{Plural(2, "reply is", "replies are"), "2 replies are"},
		{OrList(nil), ""},
		{OrList([]string{"a"}), "a"},
		{OrList([]string{"a", "b"}), "a or b"},
		{OrList([]string{"a", "b", "c"}), "a, b or c"},
		{strings.Join(SplitList(" a, ,b ,,c "), "|"), "a|b|c"},
		{strings.Join(SplitList(""), "|"), ""},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// signalApp is an App whose command "wait" creates a temporary file
// through internal/outfile, says it started, and then waits for its
// context (honest=true) or for release (a command that ignores the
// signal).
func signalApp(t *testing.T, honest bool, started, release chan struct{}, tmp *string) *App {
	t.Helper()
	a, err := New("v", helpFS("wait"), Command{Name: "wait", Run: func(e *Env) error {
		f, err := outfile.TempFile("evalbook-clitest-*.tmp")
		if err != nil {
			return err
		}
		*tmp = f.Name()
		close(started)
		if honest {
			<-e.Ctx.Done()
			outfile.RemoveTemp(f)
			return fmt.Errorf("interrupted: %w", e.Ctx.Err())
		}
		<-release
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// A signal cancels the command's context; a command that stops on its
// own returns its error as usual (exit 1, message on stderr).
func TestMainSignalCancels(t *testing.T) {
	started := make(chan struct{})
	var tmp string
	a := signalApp(t, true, started, nil, &tmp)
	sig := make(chan os.Signal, 2)
	go func() { <-started; sig <- syscall.SIGTERM }()
	var out, errb bytes.Buffer
	code := a.main([]string{"wait"}, strings.NewReader(""), &out, &errb, sig, time.Hour,
		func(c int) { t.Errorf("exit(%d) called for a command that stopped", c) })
	if code != 1 || errb.String() != "evalbook: interrupted: context canceled\n" {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temporary file %s left: %v", tmp, err)
	}
}

// A command that does not stop within the grace, or at a second signal,
// has its temporary files removed and the process exits 143 (SIGTERM) or
// 130 (SIGINT).
func TestMainSignalExits(t *testing.T) {
	for _, c := range []struct {
		name  string
		sigs  []os.Signal
		grace time.Duration
		code  int
	}{
		{"term after grace", []os.Signal{syscall.SIGTERM}, time.Millisecond, 143},
		{"interrupt after grace", []os.Signal{os.Interrupt}, time.Millisecond, 130},
		{"second signal", []os.Signal{os.Interrupt, syscall.SIGTERM}, time.Hour, 130}, // the first signal names the status
	} {
		t.Run(c.name, func(t *testing.T) {
			started, release := make(chan struct{}), make(chan struct{})
			var tmp string
			a := signalApp(t, false, started, release, &tmp)
			sig := make(chan os.Signal, 2)
			go func() {
				<-started
				for _, s := range c.sigs {
					sig <- s
				}
			}()
			exited := -1
			var out, errb bytes.Buffer
			code := a.main([]string{"wait"}, strings.NewReader(""), &out, &errb, sig, c.grace, func(code int) {
				exited = code
				if _, err := os.Stat(tmp); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("temporary file %s still there at exit: %v", tmp, err)
				}
				close(release) // os.Exit would end the process here
			})
			if exited != c.code || code != 0 {
				t.Errorf("exit(%d), main returned %d; want exit(%d)", exited, code, c.code)
			}
		})
	}
}
