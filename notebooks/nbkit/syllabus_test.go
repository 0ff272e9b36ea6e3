package nbkit

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Issue 30's syllabus: notebooks/README.md has the two tracks and the
// page for Python users, and every notebook in notebooks/ is a row of a
// track's table with its time in minutes (or the notebook it is part of)
// and its prerequisites; a row names no notebook that is not there.
func TestSyllabusListsEveryNotebook(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, h := range []string{"## Track 1: people who evaluate", "## Track 2: engineers", "## Go for Python users"} {
		if !strings.Contains(readme, "\n"+h+"\n") {
			t.Errorf("notebooks/README.md has no heading %q", h)
		}
	}
	files, err := filepath.Glob("../[0-9][0-9]-*.ipynb")
	if err != nil || len(files) < 10 {
		t.Fatalf("found %d notebooks (%v)", len(files), err)
	}
	// | # | `NN-name` ... | the question | time | prerequisites |
	row := regexp.MustCompile("(?m)^\\| [^|]+ \\| `([0-9]{2}-[a-z0-9-]+)`[^|]* \\| [^|]+ \\| ([0-9]+ min|\\(part of [0-9]{2}\\)) \\| ([^|]+) \\|$")
	listed := map[string]bool{}
	for _, m := range row.FindAllStringSubmatch(readme, -1) {
		listed[m[1]] = true
		if strings.TrimSpace(m[3]) == "" {
			t.Errorf("%s: no prerequisites", m[1])
		}
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".ipynb")
		if !listed[name] {
			t.Errorf("%s is in no track's table with a time and prerequisites", name)
		}
		delete(listed, name)
	}
	for name := range listed {
		t.Errorf("the syllabus lists %s, which is not in notebooks/", name)
	}
}
