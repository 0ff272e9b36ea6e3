package cli

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The guard follows paths as the kernel does: "link/.." is the parent of
// the link's target, not the folder the link is in, so an output there is
// not the input of the same name beside the link; a dangling link into
// an input folder is refused; the store's journal files and the cache's
// batch state file count as the store and the cache.
func TestGuardPaths(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	in := filepath.Join(dir, "in.csv")
	must(os.WriteFile(in, []byte("a\n"), 0o644))
	must(os.MkdirAll(filepath.Join(dir, "far", "deep"), 0o755))
	must(os.Symlink(filepath.Join(dir, "far", "deep"), filepath.Join(dir, "lnk")))
	folder := filepath.Join(dir, "folder")
	must(os.Mkdir(folder, 0o755))
	must(os.Symlink(filepath.Join(folder, "new.csv"), filepath.Join(dir, "dangling")))
	store := filepath.Join(dir, "runs.db")
	must(os.WriteFile(store+"-wal", nil, 0o644))
	cache := filepath.Join(dir, "c.jsonl")
	must(os.WriteFile(cache+batchStateSuffix, nil, 0o644))

	declare := func(fs *flag.FlagSet) {
		InputFlag(fs, "in", "", "`FILE`")
		InputFlag(fs, "dir", "", "`DIR`")
		OutputFlag(fs, "out", "", "`FILE`")
		OutputDirFlag(fs, "charts", "`DIR`")
		var s string
		storeFlag(fs, &s, Input)
		var c string
		PathFlag(fs, &c, "cache", "", InputOutput, "`FILE`").Default(cacheFile("x.jsonl")).Companions(batchStateSuffix)
	}
	for _, c := range []struct {
		name string
		args []string
		want string // "" for accepted
	}{
		{"link/.. is the link target's parent", []string{"--in", in, "--out", dir + "/lnk/../in.csv"}, ""},
		{"lexically the same, really elsewhere", []string{"--in", filepath.Join(dir, "far", "in.csv"), "--out", dir + "/lnk/../in.csv"}, ""},
		{"dangling link into an input folder", []string{"--dir", folder, "--out", filepath.Join(dir, "dangling")}, `--out "` + filepath.Join(dir, "dangling") + `" lies inside the input folder of --dir`},
		{"output folder is the input folder", []string{"--dir", folder, "--charts", folder + "/"}, "is the input folder of --dir"},
		{"output folder inside the input folder", []string{"--dir", folder, "--charts", filepath.Join(folder, "charts")}, "lies inside the input folder of --dir"},
		{"output folder beside the input", []string{"--in", in, "--charts", dir}, ""},
		{"the store's WAL", []string{"--store", store, "--out", store + "-wal"}, `--out "` + store + `-wal" is the input file of --store (its -wal)`},
		{"the cache's batch state", []string{"--cache", cache, "--out", cache + batchStateSuffix}, "is the input file of --cache (its .batch-state.json)"},
		{"the cache is not an input file", []string{"--in", in, "--cache", in}, "--cache " + `"` + in + `" is the input file of --in`},
		{"--cache none", []string{"--in", in, "--cache", "none"}, ""},
		{"a missing input", []string{"--in", filepath.Join(dir, "nothing.csv"), "--out", filepath.Join(dir, "nothing.csv")}, ""},
	} {
		err := parseAs("cmd", declare, c.args...)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want accepted", c.name, err)
		case c.want != "" && (ExitCode(err) != 2 || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want a usage error with %q", c.name, err, c.want)
		}
	}
}

// A flag whose usage names a FILE, DIR, FOLDER or PATH must be declared
// with its role; positional arguments are inputs only when the command
// says so.
func TestGuardDeclarations(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(in, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	undeclared := func(fs *flag.FlagSet) { fs.String("prices", "", "price `FILE`") }
	if err := parseAs("cmd", undeclared); err == nil || ExitCode(err) != 1 || !strings.Contains(err.Error(), "--prices names a FILE but is not declared") {
		t.Errorf("undeclared path flag: %v", err)
	}
	out := func(fs *flag.FlagSet) { OutputFlag(fs, "out", "", "`FILE`") }
	for _, c := range []struct {
		kind Args
		want string
	}{{InputArgs, `--out "` + in + `" is the input file of the argument`}, {WordArgs, ""}} {
		e, _, _ := env("--out", in, in)
		fs := flag.NewFlagSet("cmd", flag.ContinueOnError)
		out(fs)
		_, err := ParseFlags(e, fs, c.kind)
		if c.want == "" && err != nil || c.want != "" && (ExitCode(err) != 2 || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("args kind %d: %v, want %q", c.kind, err, c.want)
		}
	}
	// GuardInputs: inputs learnt after parsing.
	e, _, _ := env("--out", in)
	fs := flag.NewFlagSet("cmd", flag.ContinueOnError)
	out(fs)
	if _, err := ParseFlags(e, fs, WordArgs); err != nil {
		t.Fatal(err)
	}
	if err := GuardInputs(fs, "the data file of task x", in); ExitCode(err) != 2 || !strings.Contains(err.Error(), "is the input file of the data file of task x") {
		t.Errorf("GuardInputs: %v", err)
	}
	if err := GuardInputs(fs, "the data file of task x", filepath.Join(dir, "other.csv")); err != nil {
		t.Errorf("GuardInputs, another file: %v", err)
	}
}
