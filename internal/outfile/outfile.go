// Package outfile writes the command's output files so that a failed
// run never leaves a half-written file or loses the previous one: Create
// writes beside the target and puts the file in place on commit, Write
// wraps that around a function, and RefuseDir refuses a path that cannot
// be a file before any work is done. It is the command's (and the run
// store's) way to write files, kept out of package main so it is tested
// on its own.
package outfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// Create prepares the output file at path. Writes go through a
// 64 KiB buffer (small writes are gathered; the scorer's batches, about
// 256 KiB each, go to the file without a copy). What commit and abort do
// depends on what is at path:
//
//   - Nothing, or a regular file: the output goes to a temporary file
//     beside it; commit flushes it and puts it in place of the old file
//     (see replaceFile); abort removes it. A failed run leaves no
//     half-written output behind and the previous output untouched. A
//     new file gets mode 0666 less the umask, as with shell redirection;
//     a replaced file keeps its mode.
//   - A symbolic link: it is followed, as cp and shell redirection do, and
//     the file it names is written as above; the link stays.
//   - A device or a named pipe (/dev/null, /dev/stdout, a FIFO): it is
//     opened and written directly; nothing is renamed or removed.
//   - A directory, or a path whose directory is missing: refused at
//     once, before any work is done (RefuseDir).
func Create(path string) (w io.Writer, commit func() error, abort func(), err error) {
	target, err := followLink(path)
	if err != nil {
		return nil, nil, nil, err
	}
	perm, replace := fs.FileMode(0o666), false
	if err := RefuseDir(target); err != nil {
		return nil, nil, nil, err
	}
	switch fi, err := os.Stat(target); {
	case err == nil && !fi.Mode().IsRegular():
		return openSpecial(target)
	case err == nil:
		perm, replace = fi.Mode().Perm(), true
	case !errors.Is(err, fs.ErrNotExist):
		return nil, nil, nil, err
	}
	f, err := createTemp(target, perm)
	if err != nil {
		return nil, nil, nil, err
	}
	track(f.Name())
	if replace {
		// The umask applied to the new file; give it the old one's mode.
		if err := f.Chmod(perm); err != nil {
			f.Close()
			remove(f.Name())
			return nil, nil, nil, err
		}
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	done := false
	commit = func() error {
		if err := bw.Flush(); err != nil {
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		done = true
		err := replaceFile(f.Name(), target)
		untrack(f.Name()) // in place, or kept and named in err
		return err
	}
	abort = func() {
		if !done {
			f.Close()
			remove(f.Name())
		}
	}
	return bw, commit, abort, nil
}

// live holds the temporary files being written, so that RemoveTemps can
// remove them when the process is told to stop.
var live struct {
	sync.Mutex
	names map[string]bool
}

func track(name string) {
	live.Lock()
	defer live.Unlock()
	if live.names == nil {
		live.names = map[string]bool{}
	}
	live.names[name] = true
}

func untrack(name string) {
	live.Lock()
	defer live.Unlock()
	delete(live.names, name)
}

func remove(name string) {
	os.Remove(name)
	untrack(name)
}

// TempFile creates a scratch file in the system's temporary directory
// (os.CreateTemp with pattern) that RemoveTemps removes too; the caller
// removes it with RemoveTemp when done.
func TempFile(pattern string) (*os.File, error) {
	f, err := os.CreateTemp("", pattern)
	if err == nil {
		track(f.Name())
	}
	return f, err
}

// RemoveTemp closes and removes a file made by TempFile.
func RemoveTemp(f *os.File) {
	f.Close()
	remove(f.Name())
}

// RemoveTemps removes every temporary file Create or TempFile made that
// is still being written, and returns how many it removed. The command
// calls it when SIGINT or SIGTERM stops it before a run ends, so that no
// ".<out>.<n>.tmp" outlives the process; the previous output, never
// touched until commit, stays intact. A commit racing with it fails
// (its temporary file is gone) and leaves the previous output in place.
func RemoveTemps() int {
	live.Lock()
	defer live.Unlock()
	n := 0
	for name := range live.names {
		if os.Remove(name) == nil {
			n++
		}
		delete(live.names, name)
	}
	return n
}

// followLink returns the file that path names: path itself, or, when path
// is a symbolic link, the file at the end of the chain of links (which
// need not exist yet).
func followLink(path string) (string, error) {
	for range 40 { // the limit Linux sets on a chain of links
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// createTemp creates a new file beside target, named after it, with perm
// (less the umask): os.CreateTemp would make it 0600.
func createTemp(target string, perm fs.FileMode) (*os.File, error) {
	for range 100 {
		name, err := freeName(target, ".tmp")
		if err != nil {
			return nil, err
		}
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue // taken since freeName looked
		}
		return f, err
	}
	return nil, fmt.Errorf("%s: could not create a temporary file beside it", target)
}

// openSpecial opens a device or named pipe for writing in place.
func openSpecial(path string) (io.Writer, func() error, func(), error) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return nil, nil, nil, err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	closed := false
	commit := func() error {
		closed = true
		if err := bw.Flush(); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	abort := func() {
		if !closed {
			f.Close()
		}
	}
	return bw, commit, abort, nil
}

// replaceFile renames the complete file tmp to target. An old file at
// target is first renamed aside (beside it, under a temporary name), and
// removed only once the new file is in place; if that rename fails, the
// old file is put back and the new one kept, and the error names both.
//
// It never renames over an existing file, because on ext4 (the default on
// Linux) a rename that replaces a file makes the kernel allocate and start
// writing back every block of the new file inside rename(2) (the
// auto_da_alloc heuristic). For a 230 MB verdict file that took 0.15 s,
// a sixth of the whole scoring job; two renames to names that do not
// exist are instant, and writeback happens in the background. For a few
// microseconds no file is at target; a crash then leaves the old file
// under its temporary name beside it.
func replaceFile(tmp, target string) error {
	fi, err := os.Lstat(target)
	if err != nil || !fi.Mode().IsRegular() {
		return renameOrKeep(tmp, target)
	}
	aside, err := freeName(target, ".old")
	if err != nil {
		return renameOrKeep(tmp, target) // cannot set the old file aside: replace it directly
	}
	if err := os.Rename(target, aside); err != nil {
		return renameOrKeep(tmp, target)
	}
	if err := os.Rename(tmp, target); err != nil {
		if rerr := os.Rename(aside, target); rerr != nil {
			return fmt.Errorf("%w; the new output is in %s and the old one in %s", err, tmp, aside)
		}
		return fmt.Errorf("%w; the new output is in %s, and %s is unchanged", err, tmp, target)
	}
	os.Remove(aside)
	return nil
}

// renameOrKeep renames tmp to target; on failure it keeps tmp and names it.
func renameOrKeep(tmp, target string) error {
	if err := os.Rename(tmp, target); err != nil {
		return fmt.Errorf("%w; the new output is in %s", err, tmp)
	}
	return nil
}

// freeName returns a name beside target that is not taken, for a file
// set aside (suffix ".old") or being written (".tmp").
func freeName(target, suffix string) (string, error) {
	dir, base := filepath.Split(target)
	for range 100 {
		name := filepath.Join(dir, "."+base+"."+strconv.FormatUint(rand.Uint64()%1e10, 10)+suffix)
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			return name, nil
		}
	}
	return "", fmt.Errorf("%s: no free name beside it", target)
}

// RefuseDir reports an error when path cannot be a file to write: it
// names a directory (through any symbolic links), or the directory it
// would go in does not exist or is not a directory. A command calls it
// to refuse an output path before doing the work whose result it would
// write there; Create calls it too.
func RefuseDir(path string) error {
	if path == "-" {
		return errors.New("standard output (-) is only for score --out: give the name of a file to write")
	}
	target, err := followLink(path)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(target); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory: give the name of a file to write", path)
	}
	dir := filepath.Dir(target)
	switch fi, err := os.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot write %s: the directory %s does not exist (create it first)", path, dir)
	case err != nil:
		return fmt.Errorf("cannot write %s: %w", path, err)
	case !fi.IsDir():
		return fmt.Errorf("cannot write %s: %s is not a directory", path, dir)
	}
	return nil
}

// Write writes a report through write, replacing path only when write
// and the commit succeed (Create). A report is for sharing, so a regular
// file ends readable by others (0644), as a plain create would leave it;
// a device or a named pipe keeps its mode.
func Write(path string, write func(io.Writer) error) error {
	w, commit, abort, err := Create(path)
	if err != nil {
		return err
	}
	defer abort()
	if err := write(w); err != nil {
		return err
	}
	if err := commit(); err != nil {
		return err
	}
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return err
	}
	return os.Chmod(path, 0o644)
}

// RefuseInput reports an error when out names the same file as one of
// inputs (through links too): writing there would replace the data the
// run reads. A path that does not exist yet is no input.
func RefuseInput(out string, inputs ...string) error {
	fo, err := os.Stat(out)
	if err != nil {
		return nil
	}
	for _, in := range inputs {
		if in == "" || in == "-" {
			continue
		}
		if fi, err := os.Stat(in); err == nil && os.SameFile(fo, fi) {
			return fmt.Errorf("%s is the input file %s: write the output to another file", out, in)
		}
	}
	return nil
}
