package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
	"github.com/evalbook/evalbook/report/internal/cli"
)

// The output guard (issue 29): for every command and every output it
// declares (a file or folder flag, the reply cache, the run store), the
// output pointed at each input of the same command (a flag or the
// positional arguments) by the same path, a symbolic link, a "../" path,
// a hard link, or a path inside an input folder, is refused with exit 2
// naming both, and the input's bytes are unchanged. The commands and
// their flags come from the App itself (App.Declared), so a new command
// is tested without being listed here.
func TestOutputGuardEveryCommand(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("EVALBOOK_STORE", filepath.Join(t.TempDir(), "store.db")) // nothing lands in the repository, even with a broken guard
	app := testApp(t)
	type input struct {
		flag   string // "" for the positional arguments
		name   string // how the refusal names it
		prefix string // what goes before the path in the value (NAME= for NAME=FILE)
	}
	cases, withOutputs := 0, 0
	for _, cmd := range app.Names() {
		d, err := app.Declared(cmd)
		if err != nil {
			t.Fatal(err)
		}
		var ins []input
		var outs []cli.DeclaredFlag
		for _, f := range d.Flags {
			if f.Role&cli.Input != 0 {
				prefix, _, ok := strings.Cut(f.Metavar, "FILE")
				if !ok {
					prefix = ""
				}
				ins = append(ins, input{f.Name, "--" + f.Name, strings.ToLower(prefix)})
			}
			if f.Role&cli.Output != 0 {
				outs = append(outs, f)
			}
		}
		if d.Args == cli.InputArgs {
			ins = append(ins, input{"", "argument", ""})
		}
		if len(outs) > 0 {
			withOutputs++
		}
		var base []string
		if slices.ContainsFunc(d.Flags, func(f cli.DeclaredFlag) bool { return f.Name == "store" && f.Role == cli.InputOutput }) {
			base = append(base, "--record") // the store is written only with --record
		}
		for _, o := range outs {
			for _, in := range ins {
				if in.flag == o.Name {
					continue // one flag, one path
				}
				for _, v := range []string{"same path", "symlink", "dotdot", "hard link", "inside folder", "elsewhere"} {
					cases++
					t.Run(fmt.Sprintf("%s/--%s/%s/%s", cmd, o.Name, in.name, v), func(t *testing.T) {
						dir := t.TempDir()
						inPath := filepath.Join(dir, "input.data")
						if err := os.WriteFile(inPath, []byte("id,question,answer,response\n1,q,a,a\n"), 0o644); err != nil {
							t.Fatal(err)
						}
						var outPath string
						switch v {
						case "same path":
							outPath = inPath
						case "symlink":
							outPath = filepath.Join(dir, "link.out")
							if err := os.Symlink("input.data", outPath); err != nil {
								t.Fatal(err)
							}
						case "dotdot":
							if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
								t.Fatal(err)
							}
							outPath = dir + "/sub/../input.data"
						case "hard link":
							outPath = filepath.Join(dir, "hard.out")
							if err := os.Link(inPath, outPath); err != nil {
								t.Fatal(err)
							}
						case "inside folder":
							// The input is a folder; the output goes in it.
							inPath = filepath.Join(dir, "folder")
							if err := os.Mkdir(inPath, 0o755); err != nil {
								t.Fatal(err)
							}
							if err := os.WriteFile(filepath.Join(inPath, "a.csv"), []byte("id\n1\n"), 0o644); err != nil {
								t.Fatal(err)
							}
							outPath = filepath.Join(inPath, "new.out")
						case "elsewhere":
							other := t.TempDir()
							outPath = filepath.Join(other, "new.out")
						}
						before := fingerprint(t, inPath)
						args := append([]string{}, strings.Fields(cmd)...)
						args = append(args, base...)
						if in.flag != "" {
							args = append(args, "--"+in.flag, in.prefix+inPath)
						}
						args = append(args, "--"+o.Name, outPath)
						if in.flag == "" {
							args = append(args, inPath)
						}
						_, stderr, code := runCLI(t, args...)
						refused := strings.Contains(stderr, "is the input") || strings.Contains(stderr, "lies inside the input folder")
						if v == "elsewhere" {
							// The control: an output away from every input
							// is not refused by the guard (the command may
							// still fail on the made-up input).
							if refused {
								t.Errorf("%q: refused an output away from the inputs: %s", args, stderr)
							}
							return
						}
						if code != 2 || !refused || !strings.Contains(stderr, "--"+o.Name+" ") || !strings.Contains(stderr, in.name) {
							t.Errorf("%q: exit %d, %s; want exit 2 naming --%s and %s", args, code, stderr, o.Name, in.name)
						}
						if after := fingerprint(t, inPath); after != before {
							t.Errorf("%q: the input changed:\n%s\nbecame\n%s", args, before, after)
						}
					})
				}
			}
		}
	}
	// The table covers what it should: every command with an output, and
	// the outputs the issue names.
	if withOutputs < 25 || cases < 500 {
		t.Errorf("only %d commands with outputs and %d cases: the declarations are missing", withOutputs, cases)
	}
	for _, want := range []struct{ cmd, out, in string }{
		{"score", "xlsx", "responses"}, {"score", "html", "responses"}, {"score", "out-dir", "responses"},
		{"score", "store", "responses"}, {"import", "out", ""}, {"import", "xlsx", ""},
		{"task run", "details", "cache"}, {"task run", "details", "task-dir"}, {"task merge", "details", ""},
		{"judge", "cache", "responses"}, {"runs list", "xlsx", "store"}, {"leaderboard", "html", "dir"},
		{"agree", "charts", "labels"}, {"cases leakage", "xlsx", "source"},
	} {
		d, err := app.Declared(want.cmd)
		if err != nil {
			t.Fatal(err)
		}
		has := func(name string, role cli.Role) bool {
			if name == "" {
				return role == cli.Input && d.Args == cli.InputArgs
			}
			return slices.ContainsFunc(d.Flags, func(f cli.DeclaredFlag) bool { return f.Name == name && f.Role&role != 0 })
		}
		if !has(want.out, cli.Output) || !has(want.in, cli.Input) {
			t.Errorf("%s: --%s is not declared an output or %q an input: %+v", want.cmd, want.out, want.in, d)
		}
	}
}

// fingerprint is the SHA-256 of a file, or of every name and file in a
// folder (a new file in it changes it too).
func fingerprint(t *testing.T, path string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.Walk(path, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %v\n", p, fi.Mode())
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// The task run cases against a real loopback server: --details
// on the reply cache after a run that filled it, and --details on a
// task's data file reached through a link out of --task-dir, are refused
// with exit 2 before a request is sent, and both files keep their bytes.
func TestOutputGuardTaskRun(t *testing.T) {
	m := tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।")
	s := tasktest.New(t, m)
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache.jsonl")
	common := []string{"task", "run", "--endpoint", s.BaseURL(), "--model", "bigram", "--cache", cache}
	if _, errb, code := runCLI(t, append(common, "--tasks", "indiceval|BoolQ:english|0|0")...); code != 0 {
		t.Fatalf("first run: exit %d: %s", code, errb)
	}
	sent := s.Count()
	before := fingerprint(t, cache)
	_, errb, code := runCLI(t, append(common, "--tasks", "indiceval|BoolQ:english|0|0", "--details", cache)...)
	if code != 2 || !strings.Contains(errb, "--details") || !strings.Contains(errb, "is the input file of --cache") {
		t.Errorf("--details on the cache: exit %d, %s", code, errb)
	}
	if fingerprint(t, cache) != before || s.Count() != sent {
		t.Errorf("--details on the cache: the cache changed or %d requests were sent", s.Count()-sent)
	}

	// A task folder whose English data is a link to a file outside it.
	taskDir, outside := filepath.Join(dir, "tasks", "boolq"), filepath.Join(dir, "outside")
	for _, d := range []string{taskDir, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"task.json", "english.jsonl", "hindi.jsonl", "bengali.jsonl"} {
		b, err := os.ReadFile(filepath.Join("..", "datasets", "tasks", "boolq", name))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(taskDir, name)
		if name == "english.jsonl" {
			dst = filepath.Join(outside, name)
			if err := os.Symlink(dst, filepath.Join(taskDir, name)); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(outside, "english.jsonl")
	before = fingerprint(t, data)
	_, errb, code = runCLI(t, append(common, "--task-dir", filepath.Dir(taskDir), "--tasks", "indiceval|BoolQ:english|0|0", "--details", data)...)
	if code != 2 || !strings.Contains(errb, "--details") || !strings.Contains(errb, "the data file of task indiceval|BoolQ") {
		t.Errorf("--details on a task's data file: exit %d, %s", code, errb)
	}
	if fingerprint(t, data) != before || s.Count() != sent {
		t.Errorf("--details on a task's data file: the file changed or %d requests were sent", s.Count()-sent)
	}
	// The same run with the details elsewhere works: the refusal was the guard's.
	if _, errb, code := runCLI(t, append(common, "--task-dir", filepath.Dir(taskDir), "--tasks", "indiceval|BoolQ:english|0|0", "--details", filepath.Join(dir, "d.jsonl"))...); code != 0 {
		t.Errorf("details elsewhere: exit %d: %s", code, errb)
	}
}

// A symbolic link to a folder given as an output folder is written
// through: the charts land in the folder it names and the link stays.
func TestOutputFolderSymlinkWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	real, link := filepath.Join(dir, "real"), filepath.Join(dir, "charts")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, errb, code := runCLI(t, "score", "--charts", link); code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("--charts replaced the link: %v %v", fi, err)
	}
	names, err := filepath.Glob(filepath.Join(real, "*.svg"))
	if err != nil || len(names) == 0 {
		t.Errorf("no chart written through the link into %s: %v", real, err)
	}
}
