package depcheck

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// rule says what one package of the module (or a pattern "dir/..." of them)
// may import directly, besides the standard library.
type rule struct {
	pkg        string   // path relative to the module root, or "dir/..."
	core       bool     // core: additionally, no heavy library anywhere in its dependencies
	allow      []string // module packages (relative, "dir/..." allowed); their own allowances are inherited
	deny       []string // exceptions to allow's patterns, never allowed
	ext        []string // third-party module or package paths allowed, with everything below them
	forbidDeps []string // import paths (with everything below) that must not appear among all dependencies
}

// listedPackage is the part of `go list -json` output the checker reads.
type listedPackage struct {
	ImportPath string
	Standard   bool
	Imports    []string
	Deps       []string
	Error      *struct{ Err string }
}

func inModule(path string) bool { return path == module || strings.HasPrefix(path, module+"/") }

// rel is path relative to the module root ("." for the root package).
func rel(path string) string {
	if path == module {
		return "."
	}
	return strings.TrimPrefix(path, module+"/")
}

// under reports whether path is prefix itself or lies below it.
func under(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

// matches reports whether a relative package path matches a rule pattern.
func matches(pattern, path string) bool {
	if dir, ok := strings.CutSuffix(pattern, "/..."); ok {
		return under(path, dir)
	}
	return pattern == path
}

func matchesAny(patterns []string, path string) bool {
	for _, p := range patterns {
		if matches(p, path) {
			return true
		}
	}
	return false
}

// findRule returns the rule for a relative package path: an exact entry
// first, else the first pattern that matches.
func findRule(table []rule, path string) (rule, bool) {
	for _, r := range table {
		if r.pkg == path {
			return r, true
		}
	}
	for _, r := range table {
		if strings.HasSuffix(r.pkg, "/...") && matches(r.pkg, path) {
			return r, true
		}
	}
	return rule{}, false
}

// allowance is what a rule permits once inherited allowances are added.
type allowance struct {
	mods []string // module package patterns
	deny []string
	ext  []string // third-party path prefixes
}

// closure adds to r's own allowances those of every table package it may
// import, recursively. visiting guards against cycles in a broken table
// (TestRules reports those).
func closure(table []rule, r rule, visiting map[string]bool) allowance {
	a := allowance{mods: append([]string(nil), r.allow...), deny: r.deny, ext: append([]string(nil), r.ext...)}
	if visiting[r.pkg] {
		return a
	}
	visiting[r.pkg] = true
	defer delete(visiting, r.pkg)
	for _, other := range table {
		if other.pkg == r.pkg || strings.HasSuffix(other.pkg, "/...") {
			continue
		}
		if matchesAny(r.allow, other.pkg) && !matchesAny(r.deny, other.pkg) {
			sub := closure(table, other, visiting)
			a.mods = append(a.mods, sub.mods...)
			a.ext = append(a.ext, sub.ext...)
		}
	}
	a.mods = dedupe(a.mods)
	a.ext = dedupe(a.ext)
	return a
}

func dedupe(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

func (a allowance) String() string {
	mods := "none"
	if len(a.mods) > 0 {
		mods = strings.Join(a.mods, ", ")
	}
	if len(a.deny) > 0 {
		mods += " except " + strings.Join(a.deny, ", ")
	}
	ext := "none"
	if len(a.ext) > 0 {
		ext = strings.Join(a.ext, ", ")
	}
	return "module packages: " + mods + "; third-party: " + ext
}

// check returns one message per violation of table by the listed packages,
// sorted by package.
func check(pkgs []listedPackage, table []rule) []string {
	std := map[string]bool{}
	imports := map[string][]string{}
	for _, p := range pkgs {
		std[p.ImportPath] = p.Standard
		imports[p.ImportPath] = p.Imports
	}
	sorted := append([]listedPackage(nil), pkgs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].ImportPath < sorted[j].ImportPath })

	var out []string
	for _, p := range sorted {
		if !inModule(p.ImportPath) {
			continue
		}
		name := rel(p.ImportPath)
		r, ok := findRule(table, name)
		if !ok {
			if strings.HasPrefix(name, "pkg/") {
				out = append(out, fmt.Sprintf("%s has no rule: add it to the rules table in internal/depcheck/deps_test.go "+
					"with the imports DESIGN.md allows it (and add it to DESIGN.md's map)", name))
			}
			continue
		}
		a := closure(table, r, map[string]bool{})
		for _, imp := range p.Imports {
			switch {
			case std[imp]:
			case inModule(imp):
				if target := rel(imp); !matchesAny(a.mods, target) || matchesAny(a.deny, target) {
					out = append(out, fmt.Sprintf("%s imports %s, which its rule does not allow (%s)", name, target, a))
				}
			default:
				if !underAny(imp, a.ext) {
					out = append(out, fmt.Sprintf("%s imports third-party %s, which its rule does not allow (%s)", name, imp, a))
				}
			}
		}
		forbid := r.forbidDeps
		if r.core {
			forbid = append(append([]string(nil), forbid...), heavy...)
		}
		for _, dep := range p.Deps {
			if underAny(dep, forbid) {
				out = append(out, fmt.Sprintf("%s must not depend on %s, but does: %s", name, dep,
					strings.Join(chain(imports, p.ImportPath, dep), " -> ")))
			}
		}
	}
	return out
}

func underAny(path string, prefixes []string) bool {
	for _, p := range prefixes {
		if under(path, p) {
			return true
		}
	}
	return false
}

// chain finds a shortest import path from one package to another
// (breadth-first over the import graph), for readable messages.
func chain(imports map[string][]string, from, to string) []string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if cur == to {
			var path []string
			for p := cur; p != ""; p = prev[p] {
				path = append([]string{p}, path...)
			}
			return path
		}
		for _, next := range imports[cur] {
			if _, seen := prev[next]; !seen {
				prev[next] = cur
				queue = append(queue, next)
			}
		}
	}
	return []string{from, "...", to}
}

// TestRules checks the table itself: every name it allows has a rule of its
// own, no package is listed twice, and the allowances form no cycle (a
// cycle would let a low layer import a high one).
func TestRules(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range rules {
		if seen[r.pkg] {
			t.Errorf("%s is listed twice", r.pkg)
		}
		seen[r.pkg] = true
		for _, a := range append(append([]string(nil), r.allow...), r.deny...) {
			if strings.HasSuffix(a, "/...") {
				continue
			}
			if _, ok := findRule(rules, a); !ok {
				t.Errorf("%s allows or denies %s, which has no rule", r.pkg, a)
			}
		}
	}
	// Depth-first search for a cycle through concrete allow entries.
	const (
		unvisited = iota
		active
		done
	)
	state := map[string]int{}
	var visit func(pkg string, path []string)
	visit = func(pkg string, path []string) {
		switch state[pkg] {
		case active:
			t.Errorf("the allowances form a cycle: %s -> %s", strings.Join(path, " -> "), pkg)
			return
		case done:
			return
		}
		state[pkg] = active
		r, _ := findRule(rules, pkg)
		for _, a := range r.allow {
			if !strings.HasSuffix(a, "/...") {
				visit(a, append(path, pkg))
			}
		}
		state[pkg] = done
	}
	for _, r := range rules {
		visit(r.pkg, nil)
	}
}
