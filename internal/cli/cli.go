package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/score"
)

// Env is what every command receives: its context, its arguments and the
// streams.
type Env struct {
	Ctx    context.Context
	Args   []string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// command is one subcommand of evalbook. Each command lives in its own
// file and registers itself from an init function, so adding a command
// never edits another command's file.
type Command struct {
	Name    string // e.g. "score", or "plan check" for a two-word command
	Summary string // one line for `evalbook --help`
	Run     func(e *Env) error
}

var Commands = map[string]*Command{}

func Register(c *Command) {
	if _, dup := Commands[c.Name]; dup {
		panic("evalbook: command registered twice: " + c.Name)
	}
	Commands[c.Name] = c
}

// usageError is a mistake on the command line: exit status 2.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

func Usagef(format string, a ...any) error { return &UsageError{fmt.Sprintf(format, a...)} }

// exitGateFailed is the exit status of a gate or check that ran and
// failed (plan gate's "no release"): not an error in the data or the use.
const ExitGateFailed = 3

// silentError carries an exit status without a message (the message has
// already been printed, e.g. by the flag package).
type SilentError struct{ Code int }

func (e *SilentError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// errHelp is returned after help was printed on request: exit status 0.
var ErrHelp = errors.New("help requested")

func IsSilent(err error) bool {
	var s *SilentError
	return errors.As(err, &s) || errors.Is(err, ErrHelp)
}

// exitCode maps an error to the process exit status: 0 for help, 2 for
// usage, a silentError's own code (3 for a failed gate), 1 for everything
// else (bad data, failed I/O).
func ExitCode(err error) int {
	var u *UsageError
	var s *SilentError
	switch {
	case err == nil, errors.Is(err, ErrHelp):
		return 0
	case errors.As(err, &u):
		return 2
	case errors.As(err, &s):
		return s.Code
	}
	return 1
}

func Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) >= 2 && args[0] == "help" {
			return Run(ctx, append(args[1:], "--help"), stdin, stdout, stderr)
		}
		if len(args) == 0 {
			// No command is a usage error: the usage goes to stderr, as
			// every usage error's message does, and the status is 2.
			PrintUsage(stderr)
			return &SilentError{Code: 2}
		}
		PrintUsage(stdout)
		return nil
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintln(stdout, "evalbook", Version)
		return nil
	}
	// Two-word commands ("plan check") take precedence over one-word ones.
	var c *Command
	rest := args[1:]
	if len(args) >= 2 {
		c = Commands[args[0]+" "+args[1]]
		if c != nil {
			rest = args[2:]
		}
	}
	if c == nil {
		c = Commands[args[0]]
	}
	if c == nil {
		if sub := subcommands(args[0]); len(sub) > 0 {
			if len(args) >= 2 && !strings.HasPrefix(args[1], "-") {
				return Usagef("unknown subcommand %q of %s (known: %s)", args[1], args[0], strings.Join(sub, ", "))
			}
			return Usagef("%s needs a subcommand: %s (see evalbook --help)", args[0], strings.Join(sub, ", "))
		}
		return Usagef("unknown command %q (see evalbook --help)", args[0])
	}
	return c.Run(&Env{Ctx: ctx, Args: rest, Stdin: stdin, Stdout: stdout, Stderr: stderr})
}

func subcommands(first string) []string {
	var out []string
	for name := range Commands {
		if strings.HasPrefix(name, first+" ") {
			out = append(out, strings.TrimPrefix(name, first+" "))
		}
	}
	sort.Strings(out)
	return out
}

func PrintUsage(w io.Writer) {
	fmt.Fprint(w, `evalbook scores LLM answers against golden answers and helps design evaluations.

Usage:
	evalbook <Command> [flags]

Commands:
`)
	names := make([]string, 0, len(Commands))
	for n := range Commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "\t%-18s %s\n", n, Commands[n].Summary)
	}
	fmt.Fprint(w, `
Run "evalbook <command> --help" for a Command's flags and an example.
Exit status: 0 success, 1 bad data or failed I/O, 2 usage error, 3 a gate or check that failed.
`)
}

// HelpFiles holds each command's --help text (usage line, description,
// examples): help/<command>.txt, a two-word command's space written as "-".
// The program sets it before Run.
var HelpFiles fs.FS

// Version is what `evalbook version` prints; the program sets it.
var Version = "devel"

// HelpText is the --help text of the command name, with {{metrics}}
// replaced by the row metric ids score knows, and {{rules}} (every row
// metric) or {{rules ID,ID,...}} by each metric's id and its rule from
// pkg/score's registry, so that the help says what the JSON's
// metric_defs say.
func HelpText(name string) string {
	b, err := fs.ReadFile(HelpFiles, "help/"+strings.ReplaceAll(name, " ", "-")+".txt")
	if err != nil {
		panic("evalbook: no help text for " + name) // TestEveryCommandHasHelp
	}
	s := strings.ReplaceAll(string(b), "{{metrics}}", strings.Join(score.IDs(), ", "))
	for {
		i := strings.Index(s, "{{rules")
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			panic("evalbook: help text for " + name + ": {{rules without }}") // TestEveryCommandHasHelp
		}
		ids := score.IDs()
		if arg := strings.TrimSpace(s[i+len("{{rules") : i+j]); arg != "" {
			ids = strings.Split(arg, ",")
		}
		s = s[:i] + ruleList(ids) + s[i+j+2:]
	}
}

// ruleList writes each metric's id, then its rule wrapped at 100
// columns and indented, one metric after another. An id the registry
// does not know is a programming error in a help file.
func ruleList(ids []string) string {
	var b strings.Builder
	for n, id := range ids {
		m, err := score.Find(strings.TrimSpace(id))
		if err != nil {
			panic("evalbook: help text names " + err.Error()) // TestEveryCommandHasHelp
		}
		if n > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("  " + m.ID + ": " + m.Name)
		if len(m.Aliases) > 0 {
			b.WriteString("; alias " + strings.Join(m.Aliases, ", "))
		}
		col := 100
		for _, w := range strings.Fields(m.Rule) {
			if col+1+len([]rune(w)) > 100 {
				b.WriteString("\n     ")
				col = 5
			}
			b.WriteString(" " + w)
			col += 1 + len([]rune(w))
		}
	}
	return b.String()
}

// newFlags makes a flag set whose errors become usage errors and whose
// --help prints the command's help text and its flags.
func NewFlags(e *Env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	if !readsNoTable[name] {
		addFieldLimit(fs)
	}
	help := HelpText(name)
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
func ParseFlags(e *Env, fs *flag.FlagSet) ([]string, error) {
	for _, a := range e.Args {
		if a == "-h" || a == "-help" || a == "--help" {
			fs.SetOutput(e.Stdout)
			fs.Usage()
			return nil, ErrHelp
		}
	}
	fs.SetOutput(io.Discard) // we report the error ourselves
	var pos []string
	for args := e.Args; len(args) > 0; {
		if err := fs.Parse(args); err != nil {
			return nil, Usagef("%s: %v (see evalbook %s --help)", fs.Name(), err, fs.Name())
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
	if fs.Lookup("max-field-mib") != nil {
		applyFieldLimit(fs)
	}
	return pos, nil
}

// parseNoArgs is parseFlags for a command that takes no positional
// argument; hint says where such a value goes (e.g. "the file goes after
// --predictions"), or is empty.
func ParseNoArgs(e *Env, fs *flag.FlagSet, hint string) error {
	args, err := ParseFlags(e, fs)
	if err == nil && len(args) > 0 {
		if hint != "" {
			hint = " (" + hint + ")"
		}
		err = Usagef("%s: unexpected argument %q%s", fs.Name(), args[0], hint)
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
			return Usagef("%s: --%s -: standard output (-) is only for score --out; give --%s a file name", fs.Name(), name, name)
		}
		if err := RefuseDir(path); err != nil {
			return Usagef("%s: --%s: %v", fs.Name(), name, err)
		}
		if len(seen) > 0 && seen[0] == path {
			return Usagef("%s: --xlsx and --html name the same file %q", fs.Name(), path)
		}
		seen = append(seen, path)
	}
	return nil
}

// writeJSON writes v as one indented JSON document.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// plural formats a count with the singular or plural noun: "1 row", "2 rows".
func Plural(n int, singular, pluralForm string) string {
	if n == 1 {
		return "1 " + singular
	}
	return fmt.Sprintf("%d %s", n, pluralForm)
}
