package main

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/score"
)

// env is what every command receives: its arguments and the streams.
type env struct {
	ctx    context.Context
	args   []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// command is one subcommand of evalbook. Each command lives in its own
// file and registers itself from an init function, so adding a command
// never edits another command's file.
type command struct {
	name    string // e.g. "score", or "plan check" for a two-word command
	summary string // one line for `evalbook --help`
	run     func(e *env) error
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("evalbook: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// usageError is a mistake on the command line: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

// exitGateFailed is the exit status of a gate or check that ran and
// failed (plan gate's "no release"): not an error in the data or the use.
const exitGateFailed = 3

// silentError carries an exit status without a message (the message has
// already been printed, e.g. by the flag package).
type silentError struct{ code int }

func (e *silentError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// errHelp is returned after help was printed on request: exit status 0.
var errHelp = errors.New("help requested")

func isSilent(err error) bool {
	var s *silentError
	return errors.As(err, &s) || errors.Is(err, errHelp)
}

// exitCode maps an error to the process exit status: 0 for help, 2 for
// usage, a silentError's own code (3 for a failed gate), 1 for everything
// else (bad data, failed I/O).
func exitCode(err error) int {
	var u *usageError
	var s *silentError
	switch {
	case err == nil, errors.Is(err, errHelp):
		return 0
	case errors.As(err, &u):
		return 2
	case errors.As(err, &s):
		return s.code
	}
	return 1
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) >= 2 && args[0] == "help" {
			return run(ctx, append(args[1:], "--help"), stdin, stdout, stderr)
		}
		if len(args) == 0 {
			// No command is a usage error: the usage goes to stderr, as
			// every usage error's message does, and the status is 2.
			printUsage(stderr)
			return &silentError{2}
		}
		printUsage(stdout)
		return nil
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintln(stdout, "evalbook", version)
		return nil
	}
	// Two-word commands ("plan check") take precedence over one-word ones.
	var c *command
	rest := args[1:]
	if len(args) >= 2 {
		c = commands[args[0]+" "+args[1]]
		if c != nil {
			rest = args[2:]
		}
	}
	if c == nil {
		c = commands[args[0]]
	}
	if c == nil {
		if sub := subcommands(args[0]); len(sub) > 0 {
			if len(args) >= 2 && !strings.HasPrefix(args[1], "-") {
				return usagef("unknown subcommand %q of %s (known: %s)", args[1], args[0], strings.Join(sub, ", "))
			}
			return usagef("%s needs a subcommand: %s (see evalbook --help)", args[0], strings.Join(sub, ", "))
		}
		return usagef("unknown command %q (see evalbook --help)", args[0])
	}
	return c.run(&env{ctx: ctx, args: rest, stdin: stdin, stdout: stdout, stderr: stderr})
}

func subcommands(first string) []string {
	var out []string
	for name := range commands {
		if strings.HasPrefix(name, first+" ") {
			out = append(out, strings.TrimPrefix(name, first+" "))
		}
	}
	sort.Strings(out)
	return out
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `evalbook scores LLM answers against golden answers and helps design evaluations.

Usage:
	evalbook <command> [flags]

Commands:
`)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "\t%-18s %s\n", n, commands[n].summary)
	}
	fmt.Fprint(w, `
Run "evalbook <command> --help" for a command's flags and an example.
Exit status: 0 success, 1 bad data or failed I/O, 2 usage error, 3 a gate or check that failed.
`)
}

// helpFiles holds each command's --help text (usage line, description,
// examples): help/<command>.txt, a two-word command's space written as "-".
//
//go:embed help/*.txt
var helpFiles embed.FS

// helpText is the --help text of the command name, with {{metrics}}
// replaced by the metric ids score knows.
func helpText(name string) string {
	b, err := helpFiles.ReadFile("help/" + strings.ReplaceAll(name, " ", "-") + ".txt")
	if err != nil {
		panic("evalbook: no help text for " + name) // TestEveryCommandHasHelp
	}
	return strings.ReplaceAll(string(b), "{{metrics}}", strings.Join(score.IDs(), ", "))
}

// newFlags makes a flag set whose errors become usage errors and whose
// --help prints the command's help text and its flags.
func newFlags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	help := helpText(name)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintln(out, strings.TrimSpace(help))
		fmt.Fprintln(out, "\nFlags:")
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, flags wherever they appear among the positional
// arguments ("cases hash FILE --json" as well as "cases hash --json FILE";
// after "--" everything is positional); --help prints to stdout and
// returns errHelp, a bad flag returns a usage error. Positional arguments
// are returned.
func parseFlags(e *env, fs *flag.FlagSet) ([]string, error) {
	for _, a := range e.args {
		if a == "-h" || a == "-help" || a == "--help" {
			fs.SetOutput(e.stdout)
			fs.Usage()
			return nil, errHelp
		}
	}
	fs.SetOutput(io.Discard) // we report the error ourselves
	var pos []string
	for args := e.args; len(args) > 0; {
		if err := fs.Parse(args); err != nil {
			return nil, usagef("%s: %v (see evalbook %s --help)", fs.Name(), err, fs.Name())
		}
		rest := fs.Args()
		if len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			pos = append(pos, rest...) // everything after "--"
			break
		}
		for len(rest) > 0 && (len(rest[0]) < 2 || rest[0][0] != '-') {
			pos, rest = append(pos, rest[0]), rest[1:]
		}
		args = rest
	}
	if err := checkOutputFlags(fs); err != nil {
		return nil, err
	}
	return pos, nil
}

// parseNoArgs is parseFlags for a command that takes no positional
// argument; hint says where such a value goes (e.g. "the file goes after
// --predictions"), or is empty.
func parseNoArgs(e *env, fs *flag.FlagSet, hint string) error {
	args, err := parseFlags(e, fs)
	if err == nil && len(args) > 0 {
		if hint != "" {
			hint = " (" + hint + ")"
		}
		err = usagef("%s: unexpected argument %q%s", fs.Name(), args[0], hint)
	}
	return err
}

// checkOutputFlags refuses, for every command that has them, a --xlsx or
// --html of "-" (a workbook or a page would mix with the report on
// standard output), one naming a directory, and both naming one file.
func checkOutputFlags(fs *flag.FlagSet) error {
	var seen []string
	for _, name := range []string{"xlsx", "html"} {
		f := fs.Lookup(name)
		if f == nil || f.Value.String() == "" {
			continue
		}
		path := f.Value.String()
		if path == "-" {
			return usagef("%s: --%s -: standard output (-) is only for score --out; give --%s a file name", fs.Name(), name, name)
		}
		if err := refuseDir(path); err != nil {
			return usagef("%s: --%s: %v", fs.Name(), name, err)
		}
		if len(seen) > 0 && seen[0] == path {
			return usagef("%s: --xlsx and --html name the same file %q", fs.Name(), path)
		}
		seen = append(seen, path)
	}
	return nil
}

// writeJSON writes v as one indented JSON document.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// plural formats a count with the singular or plural noun: "1 row", "2 rows".
func plural(n int, singular, pluralForm string) string {
	if n == 1 {
		return "1 " + singular
	}
	return fmt.Sprintf("%d %s", n, pluralForm)
}
