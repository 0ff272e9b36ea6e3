package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// score --out-dir naming a symbolic link to an empty folder writes the
// partitions into that folder and leaves the link a link (it was
// replaced by a real folder, the target left empty).
func TestScoreOutDirThroughLink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "big-disk", "verdicts")
	if err := os.MkdirAll(target, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "vd")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := runCLI(t, "score", "--out-dir", link, "--partition-by", "language")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("%s is no longer a link (%v)", link, err)
	}
	var langs []string
	ents, err := os.ReadDir(target)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		langs = append(langs, e.Name())
	}
	if strings.Join(langs, " ") != "language=bn language=en language=hi" {
		t.Errorf("the link's target holds %v; want the sample's three language folders", langs)
	}
}
