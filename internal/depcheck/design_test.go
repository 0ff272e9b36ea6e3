package depcheck

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite DESIGN.md's dependency list from the rules")

// The dependency list in DESIGN.md ("Which way dependencies point") is
// rendered from rules, between these two lines.
const (
	beginArrows = "<!-- begin: rendered from internal/depcheck's rules by `go test ./internal/depcheck -update`; edit the rules there -->"
	endArrows   = "<!-- end: rendered from internal/depcheck's rules -->"
)

// listed is the module's `go list -deps` once per test binary.
var listed = sync.OnceValues(func() ([]listedPackage, error) { return goList() })

// stale returns one message per allowance of table that the listed
// packages do not use: an allow entry naming one package (not a pattern)
// that the rule's package does not import directly, a third-party module
// it imports nothing from, and a rule whose package does not exist. So
// every arrow of the table, and of DESIGN.md, is an import the code
// makes. Rules for a pattern ("dir/...") and pattern entries are not
// checked: they permit, they do not state an arrow.
func stale(pkgs []listedPackage, table []rule) []string {
	imports := map[string][]string{}
	for _, p := range pkgs {
		if inModule(p.ImportPath) {
			imports[rel(p.ImportPath)] = p.Imports
		}
	}
	var out []string
	for _, r := range table {
		if strings.HasSuffix(r.pkg, "/...") {
			continue
		}
		imps, ok := imports[r.pkg]
		if !ok {
			out = append(out, fmt.Sprintf("the rule for %s names no package of the module: remove it (and its line in DESIGN.md)", r.pkg))
			continue
		}
		for _, a := range r.allow {
			if !strings.HasSuffix(a, "/...") && !slices.Contains(imps, module+"/"+a) {
				out = append(out, fmt.Sprintf("%s's rule allows %s, which it does not import: remove the arrow", r.pkg, a))
			}
		}
		for _, x := range r.ext {
			if !slices.ContainsFunc(imps, func(imp string) bool { return under(imp, x) }) {
				out = append(out, fmt.Sprintf("%s's rule allows third-party %s, which it does not import: remove it", r.pkg, x))
			}
		}
	}
	return out
}

// TestNoStaleArrows: every arrow of the rules is a real import.
func TestNoStaleArrows(t *testing.T) {
	pkgs, err := listed()
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range stale(pkgs, rules) {
		t.Error(m)
	}
}

// renderArrows writes the rules as DESIGN.md shows them: one line per
// rule, "pkg -> what it imports (+ third-party)", core rules first.
func renderArrows(table []rule) string {
	const width = 112
	var b strings.Builder
	section := func(title string, core bool) {
		fmt.Fprintf(&b, "# %s\n", title)
		pad := 0
		for _, r := range table {
			if r.core == core {
				pad = max(pad, len(r.pkg))
			}
		}
		for _, r := range table {
			if r.core != core {
				continue
			}
			line := fmt.Sprintf("%-*s ->", pad, r.pkg)
			var parts []string
			switch {
			case len(r.allow) == 0 && len(r.ext) == 0:
				parts = append(parts, "the standard library only")
			case len(r.allow) == 0:
				parts = append(parts, "the standard library and")
			}
			allow := slices.Clone(r.allow)
			slices.Sort(allow)
			for i, a := range allow {
				sep := ","
				if i == len(allow)-1 {
					sep = ""
				}
				parts = append(parts, a+sep)
			}
			if len(r.deny) > 0 {
				parts = append(parts, "except")
				for i, d := range r.deny {
					sep := ","
					if i == len(r.deny)-1 {
						sep = ""
					}
					parts = append(parts, d+sep)
				}
			}
			if len(r.ext) > 0 {
				ext := slices.Clone(r.ext)
				slices.Sort(ext)
				if len(r.allow) == 0 {
					parts = append(parts, strings.Join(ext, ", "))
				} else {
					parts = append(parts, "(+ "+strings.Join(ext, ", ")+")")
				}
			}
			if len(r.forbidDeps) > 0 {
				var never []string
				for _, f := range r.forbidDeps {
					never = append(never, rel(f))
				}
				parts = append(parts, "[never below it: "+strings.Join(never, ", ")+"]")
			}
			// Wrap at width, continuation lines indented under the first item.
			indent := strings.Repeat(" ", len(line)+1)
			cur := line
			for _, p := range parts {
				if len(cur)+1+len(p) > width && cur != line {
					b.WriteString(cur + "\n")
					cur = indent + p
					continue
				}
				cur += " " + p
			}
			b.WriteString(cur + "\n")
		}
	}
	section("core: the standard library, golang.org/x/text and the core below; no heavy library anywhere below", true)
	b.WriteString("\n")
	section("edge, command and tools", false)
	return b.String()
}

// designPath is DESIGN.md at the module root.
func designPath(t *testing.T) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(root, "DESIGN.md")
}

// TestDesignArrows: DESIGN.md's dependency list is the rules as
// renderArrows writes them (-update rewrites it).
func TestDesignArrows(t *testing.T) {
	path := designPath(t)
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i, j := bytes.Index(doc, []byte(beginArrows)), bytes.Index(doc, []byte(endArrows))
	if i < 0 || j < i {
		t.Fatalf("%s: no dependency list between %q and %q", path, beginArrows, endArrows)
	}
	start := i + len(beginArrows) + 1
	want := "```\n" + renderArrows(rules) + "```\n"
	if got := string(doc[start:j]); got != want {
		if *update {
			out := append(append(slices.Clone(doc[:start]), want...), doc[j:]...)
			if err := os.WriteFile(path, out, 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("rewrote the dependency list of %s", path)
			return
		}
		t.Errorf("%s's dependency list differs from internal/depcheck's rules; run go test ./internal/depcheck -update\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// stale finds an allowance the code does not use, and a rule for a
// package that is gone; a third-party module used through a subpackage
// and a pattern rule are not stale.
func TestStaleSynthetic(t *testing.T) {
	table := []rule{
		{pkg: "pkg/a", allow: []string{"pkg/b", "pkg/c", "pkg/..."}, ext: []string{"x.org/y", "x.org/unused"}},
		{pkg: "pkg/b"},
		{pkg: "pkg/c"},
		{pkg: "pkg/gone"},
		{pkg: "tools/..."},
	}
	g := graph(map[string][]string{
		"./pkg/a":   {"./pkg/b", "x.org/y/z", "fmt"},
		"./pkg/b":   {"fmt"},
		"./pkg/c":   {},
		"x.org/y/z": {},
	})
	got := stale(g, table)
	want := []string{
		"pkg/a's rule allows pkg/c, which it does not import: remove the arrow",
		"pkg/a's rule allows third-party x.org/unused, which it does not import: remove it",
		"the rule for pkg/gone names no package of the module: remove it (and its line in DESIGN.md)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("stale:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
