package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The output guard: every command declares what each of its path flags
// and positional arguments does (reads, writes, or both), and ParseFlags
// refuses, before anything is read or written, an output that would
// replace or land inside an input of the same run, or two outputs that
// name one file. Flags are declared with InputFlag, OutputFlag,
// OutputDirFlag and PathFlag (a shared flag helper such as
// AddTableExportFlags or AddClientFlags declares its own), positional
// arguments by the Args value given to ParseFlags. A flag whose usage
// names a `FILE`, `DIR`, `FOLDER` or `PATH` but that is declared with
// fs.String is a mistake in the command, reported by ParseFlags (and so
// by every command's --help test), so a new command cannot forget.

// Role says what a command does with the path a flag or argument names.
type Role uint8

const (
	// Scope: a path the command neither reads whole nor writes (import
	// --root bounds other paths). Declared so the guard knows it was
	// thought about.
	Scope Role = 0
	// Input: a file the command reads, or a folder whose every file
	// counts as read.
	Input Role = 1
	// Output: a file (or, with OutputDirFlag, a folder) the command
	// writes.
	Output Role = 2
	// InputOutput: read and written (a reply cache, the run store): no
	// output may replace it, and it must not replace another input.
	InputOutput = Input | Output
)

// Args says what a command's positional arguments are, for ParseFlags.
type Args uint8

const (
	// WordArgs: the arguments are not paths (run ids, numbers).
	WordArgs Args = iota
	// InputArgs: the arguments are files or folders the command reads.
	InputArgs
)

// PathValue is a flag naming a file or folder, with its Role (a
// flag.Value). Its options (Default, When, Companions) say where the
// guard must look when the flag is not given or names more than one file.
type PathValue struct {
	p          *string
	role       Role
	dir        bool                         // an output folder (written into), not a file
	resolve    func(string) string          // the path the command will use for a value ("" = none)
	when       func() bool                  // the path is used only when this says so
	companions []string                     // suffixes of files kept beside it (a WAL, a batch state file)
	list       *[]string                    // a repeatable flag: every value
	pathOf     func(string) (string, error) // a repeatable flag: the path inside one value
}

// String and Set make PathValue a flag.Value.
func (v *PathValue) String() string {
	switch {
	case v == nil:
		return ""
	case v.list != nil:
		return strings.Join(*v.list, " ")
	case v.p == nil:
		return ""
	}
	return *v.p
}

func (v *PathValue) Set(s string) error {
	if v.list != nil {
		if v.pathOf != nil {
			if _, err := v.pathOf(s); err != nil {
				return err
			}
		}
		*v.list = append(*v.list, s)
		return nil
	}
	*v.p = s
	return nil
}

// PathFlag declares the flag name on fs, holding a path in p (default
// value) that the command uses in role.
func PathFlag(fs *flag.FlagSet, p *string, name, value string, role Role, usage string) *PathValue {
	*p = value
	v := &PathValue{p: p, role: role}
	fs.Var(v, name, usage)
	return v
}

// InputFlag declares a flag naming a file or folder the command reads.
func InputFlag(fs *flag.FlagSet, name, value, usage string) *string {
	p := new(string)
	PathFlag(fs, p, name, value, Input, usage)
	return p
}

// OutputFlag declares a flag naming a file the command writes.
func OutputFlag(fs *flag.FlagSet, name, value, usage string) *string {
	p := new(string)
	PathFlag(fs, p, name, value, Output, usage)
	return p
}

// OutputDirFlag declares a flag naming a folder the command writes files
// into.
func OutputDirFlag(fs *flag.FlagSet, name, usage string) *string {
	p := new(string)
	PathFlag(fs, p, name, "", Output, usage).dir = true
	return p
}

// InputListVar declares the repeatable flag name, each value appended to
// list; pathOf returns the input path inside one value (for NAME=FILE) or
// why the value is refused (a usage error), or is nil when the value is
// the path.
func InputListVar(fs *flag.FlagSet, list *[]string, name, usage string, pathOf func(string) (string, error)) {
	fs.Var(&PathValue{list: list, role: Input, pathOf: pathOf}, name, usage)
}

// Default sets how the flag's value becomes the path the command uses:
// resolve("") is the default file ("" when there is none), resolve(v)
// for a given value v. Without it the value is the path.
func (v *PathValue) Default(resolve func(string) string) *PathValue { v.resolve = resolve; return v }

// When makes the path count only when on() is true after parsing (the
// store only with --record).
func (v *PathValue) When(on func() bool) *PathValue { v.when = on; return v }

// Companions names files the command keeps beside the path, as suffixes
// added to it (the store's "-wal", a cache's ".batch-state.json"): they
// share its role.
func (v *PathValue) Companions(suffixes ...string) *PathValue {
	v.companions = suffixes
	return v
}

// guarded is one path of a run: who names it ("--xlsx", "the argument")
// and what the command does with it.
type guarded struct {
	what string
	path string
	role Role
	dir  bool
}

// paths returns the paths fs's declared flags and the positional args
// name, as the command will use them.
func paths(fs *flag.FlagSet, args []string, kind Args) []guarded {
	var out []guarded
	fs.VisitAll(func(f *flag.Flag) {
		v, ok := f.Value.(*PathValue)
		if !ok || (v.when != nil && !v.when()) {
			return
		}
		var vals []string
		if v.list != nil {
			for _, s := range *v.list {
				if v.pathOf != nil {
					s, _ = v.pathOf(s) // Set refused a bad value
				}
				vals = append(vals, s)
			}
		} else {
			s := *v.p
			if v.resolve != nil {
				s = v.resolve(s)
			}
			vals = append(vals, s)
		}
		for _, s := range vals {
			if s == "" || s == "-" {
				continue // nothing, or a standard stream
			}
			out = append(out, guarded{what: "--" + f.Name, path: s, role: v.role, dir: v.dir})
			for _, c := range v.companions {
				out = append(out, guarded{what: "--" + f.Name + " (its " + c + ")", path: s + c, role: v.role})
			}
		}
	})
	if kind == InputArgs {
		for i, a := range args {
			what := "the argument"
			if len(args) > 1 {
				what = fmt.Sprintf("argument %d", i+1)
			}
			if a != "" && a != "-" {
				out = append(out, guarded{what: what, path: a, role: Input})
			}
		}
	}
	return out
}

// checkDeclared reports a flag whose usage names a path (`FILE`, `DIR`,
// `FOLDER`, `PATH`) that was not declared with its role: a mistake in
// the command, not in its use.
func checkDeclared(fs *flag.FlagSet) error {
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if _, ok := f.Value.(*PathValue); ok || err != nil {
			return
		}
		name, _ := flag.UnquoteUsage(f)
		for _, w := range []string{"FILE", "DIR", "FOLDER", "PATH"} {
			if strings.Contains(name, w) {
				err = fmt.Errorf("evalbook %s: flag --%s names a %s but is not declared as read or written (declare it with cli.InputFlag, cli.OutputFlag or cli.PathFlag): a bug in evalbook", fs.Name(), f.Name, w)
				return
			}
		}
	})
	return err
}

// guard refuses, as a usage error of cmd, an output that is an input,
// resolves to one (a symbolic link, "..", a hard link: the same device
// and inode) or lies inside an input folder, and two outputs that name
// one file.
func guard(cmd string, ps []guarded) error {
	for i, o := range ps {
		if o.role&Output == 0 {
			continue
		}
		if o.role == Output && !o.dir {
			if err := RefuseDir(o.path); err != nil {
				return Usagef("%s: %s: %v", cmd, o.what, err)
			}
		}
		for j, in := range ps {
			if i != j && in.role&Input != 0 {
				if err := replaces(cmd, o, in); err != nil {
					return err
				}
			}
		}
	}
	// Then two outputs (not an input, said above) on one file.
	for i, o := range ps {
		for _, p := range ps[i+1:] {
			if o.role == Output && p.role == Output && sameTarget(o.path, p.path) {
				return Usagef("%s: %s and %s name the same file %q", cmd, o.what, p.what, o.path)
			}
		}
	}
	return nil
}

// GuardInputs refuses, as a usage error, an output declared on fs that
// is, resolves to or lies inside one of inputs: files a command learns it
// reads only after parsing (task run's data files, named by its task
// files). what names them in the message ("the data file of task X").
func GuardInputs(fs *flag.FlagSet, what string, inputs ...string) error {
	ps := paths(fs, nil, WordArgs)
	for _, o := range ps {
		if o.role&Output == 0 {
			continue
		}
		for _, in := range inputs {
			if err := replaces(fs.Name(), o, guarded{what: what, path: in, role: Input}); err != nil {
				return err
			}
		}
	}
	return nil
}

// replaces returns the usage error when writing o would replace or change
// the input in.
func replaces(cmd string, o, in guarded) error {
	si, err := os.Stat(in.path)
	if err != nil {
		return nil // not there: nothing to lose (reading it fails on its own)
	}
	target := resolvePath(o.path)
	if so, err := os.Stat(target); err == nil && os.SameFile(so, si) {
		how := ""
		if lo, err := os.Lstat(o.path); err == nil && lo.Mode()&fs.ModeSymlink != 0 {
			how = ", through a symbolic link"
		} else if filepath.Clean(o.path) != filepath.Clean(in.path) {
			how = ", under another name or a hard link"
		}
		kind := "file"
		if si.IsDir() {
			kind = "folder"
		}
		return Usagef("%s: %s %q is the input %s of %s (%q%s): writing it would replace what the command reads; name another path for %s",
			cmd, o.what, o.path, kind, in.what, in.path, how, o.what)
	}
	if !si.IsDir() {
		return nil
	}
	for d := filepath.Dir(target); ; d = filepath.Dir(d) {
		if sd, err := os.Stat(d); err == nil && os.SameFile(sd, si) {
			return Usagef("%s: %s %q lies inside the input folder of %s (%q): writing there would change what the command reads; name a path outside it for %s",
				cmd, o.what, o.path, in.what, in.path, o.what)
		}
		if filepath.Dir(d) == d {
			return nil
		}
	}
}

// sameTarget reports whether two output paths name one file: the same
// existing file, or the same place once links are followed.
func sameTarget(a, b string) bool {
	ra, rb := resolvePath(a), resolvePath(b)
	if ra == rb {
		return true
	}
	sa, ea := os.Stat(ra)
	sb, eb := os.Stat(rb)
	return ea == nil && eb == nil && os.SameFile(sa, sb)
}

// resolvePath returns the absolute path p names once every symbolic link
// is followed and ".." taken where the kernel takes it (after a link, not
// before), for a path that need not exist: its longest existing prefix
// is resolved and the rest appended. A dangling link is followed to the
// file it would create.
func resolvePath(p string) string {
	if !filepath.IsAbs(p) {
		if wd, err := os.Getwd(); err == nil {
			p = wd + string(filepath.Separator) + p // not Join: Join cleans "link/.." away
		}
	}
	for range 40 { // the limit Linux sets on a chain of links
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			dest, err := os.Readlink(p)
			if err != nil {
				break
			}
			if !filepath.IsAbs(dest) {
				dest = p[:strings.LastIndexByte(p, filepath.Separator)+1] + dest
			}
			p = dest
			continue
		}
		i := strings.LastIndexByte(p, filepath.Separator)
		if i <= 0 {
			break
		}
		return filepath.Join(resolvePath(p[:i]), p[i+1:])
	}
	return filepath.Clean(p)
}

// batchStateSuffix names the Batch API's state file beside a reply cache
// (--batch): the cache's path with this added.
const batchStateSuffix = ".batch-state.json"

// cacheFile returns how a --cache value becomes the file llm.OpenCacheFile
// opens: "none" is no file, "" the default name in the user cache
// directory (no file when there is none: opening fails with its own
// message).
func cacheFile(defaultName string) func(string) string {
	return func(v string) string {
		switch v {
		case "none":
			return ""
		case "":
			dir, err := os.UserCacheDir()
			if err != nil {
				return ""
			}
			return filepath.Join(dir, defaultName)
		}
		return v
	}
}

// Declared is what a command declares about the paths it reads and
// writes (App.Declared): its path flags and whether its positional
// arguments are inputs.
type Declared struct {
	Flags []DeclaredFlag
	Args  Args
}

// DeclaredFlag is one path flag: its name (without "--"), its Role,
// whether it names an output folder rather than a file, and the name its
// usage gives the value (FILE, DIR, NAME=FILE).
type DeclaredFlag struct {
	Name    string
	Role    Role
	Dir     bool
	Metavar string
}

// errProbe stops a command run by App.Declared once its flags are known.
var errProbe = errors.New("flags declared")

func declared(fs *flag.FlagSet, kind Args) Declared {
	d := Declared{Args: kind}
	fs.VisitAll(func(f *flag.Flag) {
		if v, ok := f.Value.(*PathValue); ok {
			metavar, _ := flag.UnquoteUsage(f)
			d.Flags = append(d.Flags, DeclaredFlag{Name: f.Name, Role: v.role, Dir: v.dir, Metavar: metavar})
		}
	})
	return d
}

// Declared runs the command name only as far as declaring its flags and
// returns its path flags and positional-argument kind, so that a test can
// point every output at every input of every command, new ones included.
// A command that does not parse its flags with ParseFlags or ParseNoArgs
// is an error.
func (a *App) Declared(name string) (*Declared, error) {
	c := a.commands[name]
	if c == nil {
		return nil, fmt.Errorf("no command %q", name)
	}
	d := &Declared{}
	err := c.Run(&Env{Ctx: context.Background(), Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, app: a, cmd: c, probe: d})
	switch {
	case errors.Is(err, errProbe):
	case err != nil:
		return nil, err // an undeclared path flag, or a failure before parsing
	default:
		return nil, fmt.Errorf("%s: ran without parsing its flags through cli.ParseFlags or ParseNoArgs", name)
	}
	return d, nil
}
