//go:build unix

package outfile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// putAtomic puts text into path through Create and commits.
func putAtomic(t *testing.T, path, text string) {
	t.Helper()
	w, commit, abort, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer abort()
	if _, err := io.WriteString(w, text); err != nil {
		t.Fatal(err)
	}
	if err := commit(); err != nil {
		t.Fatal(err)
	}
}

func TestCreateAtomic(t *testing.T) {
	dir := t.TempDir()
	umask := syscall.Umask(0)
	syscall.Umask(umask)

	t.Run("new file: 0666 less the umask", func(t *testing.T) {
		p := filepath.Join(dir, "new.csv")
		putAtomic(t, p, "a\n")
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if want := os.FileMode(0o666) &^ os.FileMode(umask); fi.Mode().Perm() != want {
			t.Errorf("mode %v, want %v (umask %03o)", fi.Mode().Perm(), want, umask)
		}
	})
	t.Run("replaced file keeps its mode", func(t *testing.T) {
		p := filepath.Join(dir, "old.csv")
		if err := os.WriteFile(p, []byte("old\n"), 0o640); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, 0o640)
		putAtomic(t, p, "new\n")
		fi, _ := os.Stat(p)
		if b, _ := os.ReadFile(p); string(b) != "new\n" || fi.Mode().Perm() != 0o640 {
			t.Errorf("content %q mode %v, want \"new\\n\" and -rw-r-----", b, fi.Mode().Perm())
		}
	})
	t.Run("abort keeps the old file", func(t *testing.T) {
		p := filepath.Join(dir, "keep.csv")
		os.WriteFile(p, []byte("keep\n"), 0o644)
		w, _, abort, err := Create(p)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, "half")
		abort()
		if b, _ := os.ReadFile(p); string(b) != "keep\n" {
			t.Errorf("after abort the file holds %q", b)
		}
	})
	t.Run("symbolic links are followed", func(t *testing.T) {
		target := filepath.Join(dir, "target.csv")
		link := filepath.Join(dir, "link.csv")
		os.WriteFile(target, []byte("before\n"), 0o644)
		if err := os.Symlink("target.csv", link); err != nil {
			t.Fatal(err)
		}
		putAtomic(t, link, "after\n")
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
		}
		if b, _ := os.ReadFile(target); string(b) != "after\n" {
			t.Errorf("the link's target holds %q", b)
		}
		dangling := filepath.Join(dir, "dangling.csv")
		os.Symlink("created.csv", dangling)
		putAtomic(t, dangling, "x\n")
		if b, _ := os.ReadFile(filepath.Join(dir, "created.csv")); string(b) != "x\n" {
			t.Errorf("a dangling link's target holds %q", b)
		}
	})
	t.Run("a named pipe is written in place", func(t *testing.T) {
		p := filepath.Join(dir, "pipe")
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skip("mkfifo:", err)
		}
		got := make(chan string)
		go func() {
			f, err := os.Open(p)
			if err != nil {
				got <- err.Error()
				return
			}
			b, _ := io.ReadAll(f)
			f.Close()
			got <- string(b)
		}()
		putAtomic(t, p, "through the pipe\n")
		if s := <-got; s != "through the pipe\n" {
			t.Errorf("read %q from the pipe", s)
		}
		if fi, _ := os.Lstat(p); fi.Mode()&os.ModeNamedPipe == 0 {
			t.Errorf("the pipe was replaced by %v", fi.Mode())
		}
	})
	t.Run("a directory is refused", func(t *testing.T) {
		_, _, _, err := Create(dir)
		if err == nil || !strings.Contains(err.Error(), "is a directory") {
			t.Errorf("err = %v", err)
		}
	})
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

// TestRefuseDirMissingParent: an output path in a directory that does
// not exist (or under a file) is refused by name before any work, as a
// directory target is; it used to fail at the end with the temporary
// file's name ("open nodir/.x.csv.7422965438.tmp: no such file ...").
func TestRefuseDirMissingParent(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, []byte("x"), 0o644)
	for _, c := range []struct{ name, path, want string }{
		{"missing directory", filepath.Join(dir, "nodir", "x.csv"), "cannot write " + filepath.Join(dir, "nodir", "x.csv") + ": the directory " + filepath.Join(dir, "nodir") + " does not exist"},
		{"under a file", filepath.Join(file, "x.csv"), "cannot write " + filepath.Join(file, "x.csv") + ": " + file + " is not a directory"},
		{"a directory", dir, dir + " is a directory"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := RefuseDir(c.path); err == nil || err.Error() != c.want && !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("RefuseDir: %v, want %q", err, c.want)
			}
			if _, _, _, err := Create(c.path); err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("Create: %v, want %q", err, c.want)
			}
		})
	}
	// A relative name in the current directory has the directory ".".
	if err := RefuseDir("x.csv"); err != nil {
		t.Errorf("RefuseDir(x.csv): %v", err)
	}
}

// TestReplaceFileFailure: when the new file cannot be renamed into place
// (here it is missing), the old file is put back unchanged, nothing is
// left aside, and the error says so.
func TestReplaceFileFailure(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "v.csv")
	if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := replaceFile(filepath.Join(dir, ".v.csv.missing.tmp"), target)
	if err == nil || !strings.Contains(err.Error(), "is unchanged") {
		t.Fatalf("err = %v, want one saying the old file is unchanged", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "old\n" {
		t.Errorf("the old file holds %q", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*.old")); len(left) > 0 {
		t.Errorf("files left aside: %v", left)
	}
}

func TestOutputDash(t *testing.T) {
	if err := RefuseDir("-"); err == nil || !strings.Contains(err.Error(), "only for score --out") {
		t.Errorf("RefuseDir(-) = %v", err)
	}
}

// TestWriteKeepsDeviceMode: a report written to a device goes to it in
// place and leaves its mode alone (Write makes regular files 0644 only;
// a chmod of /dev/null to 0644 would lock other users out of it).
func TestWriteKeepsDeviceMode(t *testing.T) {
	before, err := os.Stat("/dev/null")
	if err != nil {
		t.Skip("no /dev/null")
	}
	if err := Write("/dev/null", func(w io.Writer) error { _, err := io.WriteString(w, "report\n"); return err }); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat("/dev/null")
	if err != nil {
		t.Fatal(err)
	}
	if after.Mode() != before.Mode() {
		os.Chmod("/dev/null", before.Mode().Perm())
		t.Errorf("/dev/null mode %v after Write, was %v", after.Mode(), before.Mode())
	}
	p := filepath.Join(t.TempDir(), "r.html")
	if err := Write(p, func(w io.Writer) error { _, err := io.WriteString(w, "<p>"); return err }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("report file mode %v (%v), want 0644", fi.Mode(), err)
	}
}

func TestRefuseInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(in, []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{in, link, filepath.Join(dir, ".", "in.csv")} {
		if err := RefuseInput(out, in); err == nil || !strings.Contains(err.Error(), "is the input file") {
			t.Errorf("RefuseInput(%s, %s) = %v", out, in, err)
		}
	}
	for _, out := range []string{filepath.Join(dir, "out.csv"), "-"} {
		if err := RefuseInput(out, in, ""); err != nil {
			t.Errorf("RefuseInput(%s) = %v", out, err)
		}
	}
}

// TestRemoveTemps: the temporary file of an unfinished Create and a
// TempFile are removed; a commit after that fails and leaves the previous
// file as it was; a finished file is not touched.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	done, unfinished := filepath.Join(dir, "done.csv"), filepath.Join(dir, "unfinished.csv")
	if err := os.WriteFile(unfinished, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(done, func(w io.Writer) error { _, err := io.WriteString(w, "done\n"); return err }); err != nil {
		t.Fatal(err)
	}
	w, commit, abort, err := Create(unfinished)
	if err != nil {
		t.Fatal(err)
	}
	defer abort()
	io.WriteString(w, "half")
	scratch, err := TempFile("outfile-test-*")
	if err != nil {
		t.Fatal(err)
	}
	if n := RemoveTemps(); n != 2 {
		t.Errorf("RemoveTemps removed %d files, want 2", n)
	}
	if _, err := os.Stat(scratch.Name()); !os.IsNotExist(err) {
		t.Errorf("the scratch file is still there (%v)", err)
	}
	if err := commit(); err == nil {
		t.Error("a commit after RemoveTemps succeeded")
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	for path, want := range map[string]string{done: "done\n", unfinished: "old\n"} {
		if b, _ := os.ReadFile(path); string(b) != want {
			t.Errorf("%s holds %q, want %q", path, b, want)
		}
	}
	scratch.Close()
}
