package leaderboard

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// DiscoverFS lists what Discover lists, and a board built from an fs.FS
// is the board built from the same files on disk.
func TestDiscoverFS(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, dir, "a_hindi.csv", 10, hindiAnswer, func(int) bool { return true }, "")
	writeRows(t, dir, "b_hi.csv", 10, hindiAnswer, func(i int) bool { return i < 2 }, "")
	writeRows(t, dir, "a_english.csv", 10, englishAnswer, func(i int) bool { return i < 6 }, "")
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a response file"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub.csv"), 0o755) // a directory, skipped whatever its name

	onDisk, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	fsys := os.DirFS(filepath.Dir(dir))
	inFS, err := DiscoverFS(fsys, filepath.Base(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(inFS) != 3 || len(onDisk) != 3 {
		t.Fatalf("DiscoverFS = %+v, Discover = %+v; want 3 files each", inFS, onDisk)
	}
	for i := range inFS {
		d, f := onDisk[i], inFS[i]
		if f.FS == nil || f.Path != filepath.Base(dir)+"/"+filepath.Base(d.Path) || f.Model != d.Model || f.Language != d.Language {
			t.Errorf("input %d: DiscoverFS %+v, Discover %+v", i, f, d)
		}
		// Name both alike, so the boards name the files alike.
		onDisk[i].Name, inFS[i].Name = filepath.Base(d.Path), filepath.Base(d.Path)
	}
	board := func(in []Input) string {
		b, err := Build(context.Background(), in, Options{})
		if err != nil {
			t.Fatal(err)
		}
		j, _ := json.Marshal(b)
		return string(j)
	}
	if a, b := board(onDisk), board(inFS); a != b {
		t.Errorf("board from DiscoverFS differs:\n%s\nfrom Discover:\n%s", b, a)
	}

	empty := fstest.MapFS{"runs/notes.txt": {Data: []byte("x")}}
	if _, err := DiscoverFS(empty, "runs"); err == nil || err.Error() != "runs: no response files (.csv, .jsonl, .xlsx)" {
		t.Errorf("no response file: got %v", err)
	}
	if _, err := DiscoverFS(empty, "missing"); err == nil {
		t.Error("a missing directory was accepted")
	}
	// A file DiscoverFS listed but the FS no longer holds is an error, not a panic.
	gone := fstest.MapFS{"runs/a_hindi.csv": {Data: []byte("question,answer\nq,a\n")}}
	in, err := DiscoverFS(gone, "runs")
	if err != nil {
		t.Fatal(err)
	}
	delete(gone, "runs/a_hindi.csv")
	if _, err := Build(context.Background(), in, Options{}); err == nil {
		t.Error("a vanished file was accepted")
	}
}
