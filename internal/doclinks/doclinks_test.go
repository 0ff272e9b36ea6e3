package doclinks

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// repoRoot is the module root, two folders up from this package.
const repoRoot = "../.."

// docFiles lists the Markdown files whose links the project keeps working.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "CONTRIBUTING.md", "DESIGN.md", "notebooks/README.md"}
	for _, pattern := range []string{"docs/*.md", "datasets/*/README.md", "datasets/README.md"} {
		m, err := filepath.Glob(filepath.Join(repoRoot, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			rel, err := filepath.Rel(repoRoot, p)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, filepath.ToSlash(rel))
		}
	}
	sort.Strings(files)
	return files
}

func TestRepositoryLinksResolve(t *testing.T) {
	files := docFiles(t)
	if len(files) < 15 {
		t.Fatalf("found only %d Markdown files (%v): is docs/ there?", len(files), files)
	}
	problems, err := Check(repoRoot, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	// The check must have seen links at all, or it proves nothing.
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(repoRoot, f))
		if err != nil {
			t.Fatal(err)
		}
		n += len(Links(f, b))
	}
	if n < 50 {
		t.Errorf("only %d links found in %d files; the link parser is probably broken", n, len(files))
	}
}

// TestReadmeShape holds the README to what a newcomer reads in five
// minutes: at most 12,000 bytes, and the two commands (score the sample,
// run the tests) as its very first lines after the title.
func TestReadmeShape(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 12000 {
		t.Errorf("README.md is %d bytes; keep it at most 12,000 and move detail into docs/", len(b))
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 5 || !strings.HasPrefix(lines[0], "# ") || lines[2] != "```sh" ||
		!strings.HasPrefix(lines[3], "go run ./report score ") || !strings.HasPrefix(lines[4], ".ci/run ") {
		t.Errorf("README.md must start with its title and a sh block whose first two lines are `go run ./report score` and `.ci/run`; it starts:\n%s",
			strings.Join(lines[:min(6, len(lines))], "\n"))
	}
	// Every guide in docs/ is linked from the README.
	guides, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range guides {
		name := "docs/" + filepath.Base(g)
		if name == "docs/README.md" {
			continue
		}
		if !strings.Contains(string(b), "]("+name+")") {
			t.Errorf("README.md does not link the guide %s", name)
		}
	}
}

func TestSlug(t *testing.T) {
	// Anchors as GitHub renders them for these headings (checked against
	// the headings of this repository's README on github.com).
	cases := map[string]string{
		"Small samples, pass@k and power":                  "small-samples-passk-and-power",
		"Workbook (`--xlsx`)":                              "workbook---xlsx",
		"Correcting a judge's pass rate with human labels": "correcting-a-judges-pass-rate-with-human-labels",
		"Parquet, DuckDB and Spark":                        "parquet-duckdb-and-spark",
		"Running language evaluations (evalbook task)":     "running-language-evaluations-evalbook-task",
		"The metrics": "the-metrics",
		"Is one system's corpus BLEU or chrF better?": "is-one-systems-corpus-bleu-or-chrf-better",
		"हिन्दी मूल्यांकन":                            "हिन्दी-मूल्यांकन",
		"See [the guide](docs/x.md) now":              "see-the-guide-now",
		"snake_case stays":                            "snake_case-stays",
	}
	for in, want := range cases {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCheckFindsBrokenLinks builds a small tree with one good and several
// bad links and expects exactly the bad ones back.
func TestCheckFindsBrokenLinks(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("docs/a.md", "# A\n\n## Twice\n\n## Twice\n\n<a id=\"custom\"></a>\n")
	write("docs/img/x.png", "png")
	write("README.md", strings.Join([]string{
		"# Top",
		"[ok](docs/a.md#twice) [ok2](docs/a.md#twice-1) [ok3](docs/a.md#custom) ![img](docs/img/x.png)",
		"[web](https://example.com/missing.md) [self](#top)",
		"[gone](docs/b.md)",
		"[no anchor](docs/a.md#thrice)",
		"[self bad](#nowhere)",
		"`[in code](docs/c.md)`",
		"```",
		"[in fence](docs/d.md)",
		"```",
		"[ref]: docs/e.md",
		"[abs](/etc/passwd)",
	}, "\n"))
	problems, err := Check(dir, []string{"README.md"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.Target)
	}
	want := []string{"docs/b.md", "docs/a.md#thrice", "#nowhere", "docs/e.md", "/etc/passwd"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("problems %v, want %v", problems, want)
	}
}
