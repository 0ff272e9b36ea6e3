package depcheck

import (
	"sort"
	"strings"
	"testing"
)

// graph builds `go list -deps` style records from an adjacency list.
// Paths starting with "./" are module packages; paths without a dot in the
// first element are standard library; anything else is third-party. Deps
// are computed transitively, as go list does.
func graph(edges map[string][]string) []listedPackage {
	full := func(p string) string {
		if name, ok := strings.CutPrefix(p, "./"); ok {
			return module + "/" + name
		}
		return p
	}
	imports := map[string][]string{}
	var add func(p string)
	add = func(p string) {
		if _, ok := imports[p]; ok {
			return
		}
		imports[p] = nil
		for _, q := range edges[p] {
			imports[p] = append(imports[p], full(q))
			add(q)
		}
	}
	for p := range edges {
		add(p)
	}
	var pkgs []listedPackage
	for p, imps := range imports {
		deps := map[string]bool{}
		var walk func(string)
		walk = func(q string) {
			for _, r := range edges[q] {
				if !deps[full(r)] {
					deps[full(r)] = true
					walk(r)
				}
			}
		}
		walk(p)
		lp := listedPackage{ImportPath: full(p), Imports: imps}
		for d := range deps {
			lp.Deps = append(lp.Deps, d)
		}
		sort.Strings(lp.Imports)
		sort.Strings(lp.Deps)
		first, _, _ := strings.Cut(lp.ImportPath, "/")
		lp.Standard = !strings.HasPrefix(p, "./") && !strings.Contains(first, ".")
		pkgs = append(pkgs, lp)
	}
	return pkgs
}

// clean is a module laid out as DESIGN.md wants; each case below breaks it
// in one place.
func clean() map[string][]string {
	return map[string][]string{
		"./pkg/textnorm":                    {"strings", "golang.org/x/text/unicode/norm"},
		"./pkg/score":                       {"./pkg/textnorm", "strings"},
		"./pkg/stats":                       {"math"},
		"./pkg/agree":                       {"./pkg/results", "math"},
		"./pkg/results":                     {"./pkg/stats", "encoding/json"},
		"./pkg/qa":                          {"./pkg/results", "./pkg/stats", "./pkg/textnorm", "encoding/csv"}, // stats, textnorm inherited or direct
		"./pkg/chart":                       {"./pkg/results", "./pkg/stats", "gonum.org/v1/plot/plotter"},      // stats inherited from results
		"./pkg/htmlreport":                  {"./pkg/results", "html/template"},
		"./pkg/frame":                       {"./pkg/results", "github.com/go-gota/gota/dataframe"},
		"./pkg/nb":                          {"./pkg/chart", "./pkg/frame", "./pkg/results", "github.com/janpfeifer/gonb/gonbui", "github.com/go-gota/gota/dataframe"},
		"./report":                          {"./pkg/qa", "./pkg/chart", "./pkg/htmlreport", "./datasets", "fmt"},
		"./datasets":                        {"embed"},
		"./internal/tools/gen":              {"encoding/csv", "math/rand/v2"},
		"./cmd/unlisted":                    {"./pkg/nb"}, // outside pkg/ and without a rule: not checked
		"golang.org/x/text/unicode/norm":    {"unicode/utf8"},
		"gonum.org/v1/plot/plotter":         {"image/color"},
		"github.com/go-gota/gota/dataframe": {"sort"},
		"github.com/janpfeifer/gonb/gonbui": {"os"},
	}
}

func TestCheckSynthetic(t *testing.T) {
	tests := []struct {
		name   string
		change func(g map[string][]string)
		want   []string // each violation must contain the matching string, in order
	}{
		{name: "clean module", change: func(map[string][]string) {}},
		{
			name:   "core imports a higher core package",
			change: func(g map[string][]string) { g["./pkg/score"] = append(g["./pkg/score"], "./pkg/qa") },
			want:   []string{"pkg/score imports pkg/qa, which its rule does not allow (module packages: internal/fasttext, pkg/textnorm; third-party: golang.org/x/text)"},
		},
		{
			name:   "core imports a third-party module",
			change: func(g map[string][]string) { g["./pkg/stats"] = []string{"gonum.org/v1/gonum/stat"} },
			want:   []string{"pkg/stats imports third-party gonum.org/v1/gonum/stat, which its rule does not allow"},
		},
		{
			name: "core reaches a heavy library through an allowed module",
			change: func(g map[string][]string) {
				g["golang.org/x/text/unicode/norm"] = []string{"github.com/go-gota/gota/dataframe"}
			},
			want: []string{
				// Every core package above textnorm reaches it; sorted by package path.
				"pkg/qa must not depend on github.com/go-gota/gota/dataframe",
				"pkg/score must not depend on github.com/go-gota/gota/dataframe",
				"pkg/textnorm must not depend on github.com/go-gota/gota/dataframe, but does: " +
					module + "/pkg/textnorm -> golang.org/x/text/unicode/norm -> github.com/go-gota/gota/dataframe",
				// The command's own rule forbids gota too.
				"report must not depend on github.com/go-gota/gota/dataframe, but does: " +
					module + "/report -> " + module + "/pkg/qa -> " + module + "/pkg/textnorm -> golang.org/x/text/unicode/norm -> github.com/go-gota/gota/dataframe",
			},
		},
		{
			name:   "report imports frame",
			change: func(g map[string][]string) { g["./report"] = append(g["./report"], "./pkg/frame") },
			want: []string{
				"report imports pkg/frame, which its rule does not allow",
				"report must not depend on github.com/evalbook/evalbook/pkg/frame",
				"report must not depend on github.com/go-gota/gota/dataframe, but does: " +
					module + "/report -> " + module + "/pkg/frame -> github.com/go-gota/gota/dataframe",
			},
		},
		{
			name: "report reaches gonbui through an edge package",
			change: func(g map[string][]string) {
				g["./pkg/htmlreport"] = append(g["./pkg/htmlreport"], "github.com/janpfeifer/gonb/gonbui")
			},
			want: []string{
				"pkg/htmlreport imports third-party github.com/janpfeifer/gonb/gonbui",
				"report must not depend on github.com/janpfeifer/gonb/gonbui, but does: " +
					module + "/report -> " + module + "/pkg/htmlreport -> github.com/janpfeifer/gonb/gonbui",
			},
		},
		{
			name:   "new package under pkg",
			change: func(g map[string][]string) { g["./pkg/newthing"] = []string{"fmt"} },
			want:   []string{"pkg/newthing has no rule: add it to the rules table in internal/depcheck/deps_test.go"},
		},
		{
			name:   "new subpackage of a known package",
			change: func(g map[string][]string) { g["./pkg/qa/xlsx"] = []string{"./pkg/qa"} },
			want:   []string{"pkg/qa/xlsx has no rule"},
		},
		{
			name:   "edge imports a sibling edge",
			change: func(g map[string][]string) { g["./pkg/chart"] = append(g["./pkg/chart"], "./pkg/htmlreport") },
			want:   []string{"pkg/chart imports pkg/htmlreport, which its rule does not allow"},
		},
		{
			name:   "edge imports a core package its rule does not name",
			change: func(g map[string][]string) { g["./pkg/htmlreport"] = append(g["./pkg/htmlreport"], "./pkg/qa") },
			want:   []string{"pkg/htmlreport imports pkg/qa, which its rule does not allow"},
		},
		{
			name: "nb inherits gota from frame but not excelize",
			change: func(g map[string][]string) {
				g["./pkg/nb"] = append(g["./pkg/nb"], "github.com/xuri/excelize/v2")
			},
			want: []string{"pkg/nb imports third-party github.com/xuri/excelize/v2, which its rule does not allow"},
		},
		{
			name: "tools use the standard library only",
			change: func(g map[string][]string) {
				g["./internal/tools/gen"] = append(g["./internal/tools/gen"], "./pkg/score")
			},
			want: []string{"internal/tools/gen imports pkg/score, which its rule does not allow (module packages: none; third-party: none)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := clean()
			tt.change(g)
			got := check(graph(g), rules)
			ok := len(got) == len(tt.want)
			for i := 0; ok && i < len(got); i++ {
				ok = strings.Contains(got[i], tt.want[i])
			}
			if !ok {
				t.Errorf("violations:\n  %s\nwant (as substrings):\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}
