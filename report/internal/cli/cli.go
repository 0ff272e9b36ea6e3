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

// Env is what a command receives: its context (cancelled by SIGINT or
// SIGTERM under Main), the arguments after its name, and the streams. An
// Env made outside App.Run (a test calling a command function) has no
// App: NewFlags then gives a one-line help text and Version is "devel".
type Env struct {
	Ctx    context.Context
	Args   []string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer

	app   *App      // the App that dispatched the command, or nil
	cmd   *Command  // the command being run, or nil
	probe *Declared // set by App.Declared: ParseFlags fills it and stops

	notRecorded error // why --record could not keep the run (RecordFlags), reported at the end
}

// NotRecorded returns why the run of a command given --record was not
// kept in the run store, or nil. RecordFlags never stops a command for
// it: its outputs are written, and App.Run then returns this error
// (exit status 1) after the command's own.
func (e *Env) NotRecorded() error { return e.notRecorded }

// finish returns what App.Run returns for a command that returned err:
// err, and the run store's failure after it when the run was not
// recorded (said on stderr when err is silent or another error).
func (e *Env) finish(err error) error {
	if e.notRecorded == nil {
		return err
	}
	if err == nil {
		return e.notRecorded
	}
	fmt.Fprintf(e.Stderr, "evalbook: %v\n", e.notRecorded)
	return err
}

// Version is the version of the App that runs the command ("devel" for an
// Env without one).
func (e *Env) Version() string {
	if e.app == nil {
		return "devel"
	}
	return e.app.version
}

// Command is one command of evalbook. Each lives in its own file of
// report/ as a value the main package hands to New, so adding a command
// never edits another command's file.
type Command struct {
	Name    string // e.g. "score", or "plan check" for a two-word command
	Summary string // one line for `evalbook --help`
	Run     func(e *Env) error
	// ReadsNoFile marks a command that reads no input file (a stored run,
	// a figure): NewFlags declares neither --max-field-mib nor
	// --max-file-mib for it.
	ReadsNoFile bool
}

// App is the evalbook command line: its commands by name, their help
// texts and the version. Make one with New; it is not changed afterwards,
// so one App may run several command lines at once (the tests do).
type App struct {
	version  string
	help     fs.FS
	commands map[string]*Command
	names    []string // sorted
}

// New returns the App of commands, whose --help texts are in help as
// help/<name>.txt (a two-word command's space written as "-"), and whose
// `evalbook version` prints version. A command without a name, a Run or a
// help file, or two commands of one name, is an error.
func New(version string, help fs.FS, commands ...Command) (*App, error) {
	a := &App{version: version, help: help, commands: make(map[string]*Command, len(commands))}
	for i := range commands {
		c := commands[i]
		switch {
		case c.Name == "" || c.Run == nil:
			return nil, fmt.Errorf("cli.New: command %d (%q) needs a Name and a Run", i, c.Name)
		case a.commands[c.Name] != nil:
			return nil, fmt.Errorf("cli.New: two commands named %q", c.Name)
		}
		if _, err := fs.Stat(help, helpPath(c.Name)); err != nil {
			return nil, fmt.Errorf("cli.New: command %q has no help text: %w", c.Name, err)
		}
		a.commands[c.Name] = &c
		a.names = append(a.names, c.Name)
	}
	sort.Strings(a.names)
	return a, nil
}

// Names returns the names of the App's commands, sorted.
func (a *App) Names() []string { return append([]string(nil), a.names...) }

// Command returns the command called name, or nil.
func (a *App) Command(name string) *Command {
	c, ok := a.commands[name]
	if !ok {
		return nil
	}
	cp := *c
	return &cp
}

func helpPath(name string) string { return "help/" + strings.ReplaceAll(name, " ", "-") + ".txt" }

// HelpText is the --help text of the command name, with {{metrics}}
// replaced by the row metric ids score knows, and {{rules}} (every row
// metric) or {{rules ID,ID,...}} by each metric's id and its rule from
// pkg/score's registry, so that the help says what the JSON's
// metric_defs say.
func (a *App) HelpText(name string) (string, error) {
	b, err := fs.ReadFile(a.help, helpPath(name))
	if err != nil {
		return "", err
	}
	s := strings.ReplaceAll(string(b), "{{metrics}}", strings.Join(score.IDs(), ", "))
	for {
		i := strings.Index(s, "{{rules")
		if i < 0 {
			return s, nil
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			return "", fmt.Errorf("help text for %s: {{rules without }}", name)
		}
		ids := score.IDs()
		if arg := strings.TrimSpace(s[i+len("{{rules") : i+j]); arg != "" {
			ids = strings.Split(arg, ",")
		}
		list, err := ruleList(ids)
		if err != nil {
			return "", fmt.Errorf("help text for %s: %w", name, err)
		}
		s = s[:i] + list + s[i+j+2:]
	}
}

// ruleList writes each metric's id, then its rule wrapped at 100
// columns and indented, one metric after another. An id the registry
// does not know is an error (a mistake in a help file).
func ruleList(ids []string) (string, error) {
	var b strings.Builder
	for n, id := range ids {
		m, err := score.Find(strings.TrimSpace(id))
		if err != nil {
			return "", err
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
	return b.String(), nil
}

// UsageError is a mistake on the command line: exit status 2.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

// Usagef returns a UsageError with the formatted message.
func Usagef(format string, a ...any) error { return &UsageError{fmt.Sprintf(format, a...)} }

// ExitGateFailed is the exit status of a gate or check that ran and
// failed (plan gate's "no release"): not an error in the data or the use.
const ExitGateFailed = 3

// SilentError carries an exit status without a message (the message has
// already been printed, e.g. the usage after a bare `evalbook`).
type SilentError struct{ Code int }

func (e *SilentError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// ErrHelp is returned after help was printed on request: exit status 0.
var ErrHelp = errors.New("help requested")

// IsSilent reports whether err needs no message of its own: a
// SilentError, or ErrHelp.
func IsSilent(err error) bool {
	var s *SilentError
	return errors.As(err, &s) || errors.Is(err, ErrHelp)
}

// ExitCode maps an error to the process exit status: 0 for none or help,
// 2 for a UsageError, a SilentError's own code (3 for a failed gate), 1
// for everything else (bad data, failed I/O). Wrapped errors count as
// what they wrap.
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

// Run runs one command line (args without the program name) and returns
// the command's error; ExitCode gives its exit status. No arguments print
// the usage on stderr (exit status 2); --help, -h or help print it on
// stdout, "help CMD" is "CMD --help", and version or --version print the
// version. A two-word command ("plan check") is looked up before a
// one-word one.
func (a *App) Run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		if len(args) >= 2 && args[0] == "help" {
			return a.Run(ctx, append(args[1:len(args):len(args)], "--help"), stdin, stdout, stderr)
		}
		if len(args) == 0 {
			// No command is a usage error: the usage goes to stderr, as
			// every usage error's message does, and the status is 2.
			a.PrintUsage(stderr)
			return &SilentError{Code: 2}
		}
		a.PrintUsage(stdout)
		return nil
	}
	if args[0] == "version" || args[0] == "--version" {
		fmt.Fprintln(stdout, "evalbook", a.version)
		return nil
	}
	var c *Command
	rest := args[1:]
	if len(args) >= 2 {
		if c = a.commands[args[0]+" "+args[1]]; c != nil {
			rest = args[2:]
		}
	}
	if c == nil {
		c = a.commands[args[0]]
	}
	if c == nil {
		if sub := a.subcommands(args[0]); len(sub) > 0 {
			if len(args) >= 2 && !strings.HasPrefix(args[1], "-") {
				hint := ""
				if s := suggest(args[1], sub); s != "" {
					hint = fmt.Sprintf("; did you mean %q?", args[0]+" "+s)
				}
				return Usagef("unknown subcommand %q of %s (known: %s)%s", args[1], args[0], strings.Join(sub, ", "), hint)
			}
			return Usagef("%s needs a subcommand: %s (see evalbook --help)", args[0], strings.Join(sub, ", "))
		}
		if s := suggest(args[0], a.firstWords()); s != "" {
			return Usagef("unknown command %q; did you mean %q? (see evalbook --help)", args[0], s)
		}
		return Usagef("unknown command %q (see evalbook --help)", args[0])
	}
	e := &Env{Ctx: ctx, Args: rest, Stdin: stdin, Stdout: stdout, Stderr: stderr, app: a, cmd: c}
	return e.finish(c.Run(e))
}

// firstWords returns the first word of every command, once each, sorted.
func (a *App) firstWords() []string {
	var out []string
	for _, name := range a.names {
		w, _, _ := strings.Cut(name, " ")
		if len(out) == 0 || out[len(out)-1] != w {
			out = append(out, w)
		}
	}
	return out
}

// subcommands returns the second words of the two-word commands whose
// first word is first, sorted.
func (a *App) subcommands(first string) []string {
	var out []string
	for _, name := range a.names {
		if sub, ok := strings.CutPrefix(name, first+" "); ok {
			out = append(out, sub)
		}
	}
	return out
}

// PrintUsage writes `evalbook --help`: the usage line, every command with
// its summary, and the exit statuses.
func (a *App) PrintUsage(w io.Writer) {
	fmt.Fprint(w, `evalbook scores LLM answers against golden answers and helps design evaluations.

Usage:
	evalbook <command> [flags]

Commands:
`)
	for _, n := range a.names {
		fmt.Fprintf(w, "\t%-18s %s\n", n, a.commands[n].Summary)
	}
	fmt.Fprint(w, `
Run "evalbook <command> --help" for a command's flags and an example.
Exit status: 0 success, 1 bad data or failed I/O, 2 usage error, 3 a gate or check that failed.
`)
}

// NewFlags makes the flag set of the command name: its errors become
// usage errors (through ParseFlags) and its --help prints the command's
// help text and its flags. Unless the command reads no file
// (Command.ReadsNoFile), it declares --max-field-mib and --max-file-mib,
// which ParseFlags applies.
func NewFlags(e *Env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	if e.cmd == nil || !e.cmd.ReadsNoFile {
		addFieldLimit(fs)
	}
	fs.Usage = func() {
		// the help text is made here, when asked for: every run of the
		// command would otherwise pay for it (its metric and rule lists)
		help := "Usage: evalbook " + name + " [flags]"
		if e.app != nil {
			if h, err := e.app.HelpText(name); err == nil { // New checked that it exists
				help = h
			}
		}
		out := fs.Output()
		fmt.Fprintln(out, strings.TrimSpace(help))
		fmt.Fprintln(out, "\nFlags:")
		fs.PrintDefaults()
	}
	return fs
}

// ParseFlags parses the command's arguments into fs, flags wherever they
// appear among the positional arguments ("cases hash FILE --json" as well
// as "cases hash --json FILE"; after "--" everything is positional), and
// returns the positional arguments, which kind says are paths the command
// reads (InputArgs) or not (WordArgs). -h, -help or --help anywhere
// prints the help on stdout and returns ErrHelp; a bad flag or value is a
// UsageError naming the command. It then refuses unusable --xlsx and
// --html paths, runs the output guard over the declared paths (guard.go:
// an output that is or lies inside an input, two outputs on one file, an
// output file that names a folder), and applies --max-field-mib and
// --max-file-mib.
func ParseFlags(e *Env, fs *flag.FlagSet, kind Args) ([]string, error) {
	if err := checkDeclared(fs); err != nil {
		return nil, err
	}
	addAliases(fs)
	if e.probe != nil {
		*e.probe = declared(fs, kind)
		return nil, errProbe
	}
	for _, a := range e.Args {
		if a == "-h" || a == "-help" || a == "--help" {
			fs.SetOutput(e.Stdout)
			fs.Usage()
			return nil, ErrHelp
		}
	}
	fs.SetOutput(io.Discard) // the error is reported by the caller, once
	var pos []string
	for args := e.Args; len(args) > 0; {
		if err := fs.Parse(args); err != nil {
			return nil, Usagef("%s: %v%s (see evalbook %s --help)", fs.Name(), err, flagSuggestion(fs, err), fs.Name())
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
	if err := guard(fs.Name(), paths(fs, pos, kind)); err != nil {
		return nil, err
	}
	if fs.Lookup("max-field-mib") != nil {
		applyFieldLimit(fs)
	}
	return pos, nil
}

// ParseNoArgs is ParseFlags for a command that takes no positional
// argument; hint says where such a value goes (e.g. "the file goes after
// --predictions"), or is empty.
func ParseNoArgs(e *Env, fs *flag.FlagSet, hint string) error {
	args, err := ParseFlags(e, fs, WordArgs)
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

// WriteJSON writes v as one indented JSON document, HTML characters as
// they are.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Plural formats a count with the singular or plural noun: "1 row", "2 rows".
func Plural(n int, singular, pluralForm string) string {
	if n == 1 {
		return "1 " + singular
	}
	return fmt.Sprintf("%d %s", n, pluralForm)
}
