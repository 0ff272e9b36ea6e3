package depcheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Warning codes (results.Warning.Code, stats.Warning.Code) are a contract
// that scripts branch on (DESIGN.md, "Warnings in every JSON document").
// They have one style: snake_case values, declared as named constants
// CodeXxx in the package that produces them (a code two packages produce
// is declared once, in pkg/results, and the producers refer to it), and
// never written as a literal where a warning is made. This test holds
// the module to it.

var snake = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// warnFuncs are the helpers that take a warning code as their first
// argument.
var warnFuncs = map[string]bool{"warn": true, "warnLine": true, "warnf": true}

// codeFinding is one place that breaks the style.
type codeFinding struct{ pos, msg string }

// checkCodes parses the non-test Go files under dirs of root and returns
// what breaks the warning-code style, and the code constants by value.
func checkCodes(root string, dirs []string) ([]codeFinding, map[string][]string, error) {
	fset := token.NewFileSet()
	var out []codeFinding
	byValue := map[string][]string{}
	at := func(p token.Pos) string {
		pos := fset.Position(p)
		rel, _ := filepath.Rel(root, pos.Filename)
		return fmt.Sprintf("%s:%d", filepath.ToSlash(rel), pos.Line)
	}
	for _, dir := range dirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "testdata" || d.Name() == "tools") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			pkgDir, _ := filepath.Rel(root, filepath.Dir(path))
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.ValueSpec:
					for i, name := range n.Names {
						if i >= len(n.Values) {
							break
						}
						lit, ok := n.Values[i].(*ast.BasicLit)
						if !ok || lit.Kind != token.STRING {
							continue
						}
						v, _ := strconv.Unquote(lit.Value)
						switch {
						case strings.HasPrefix(name.Name, "Code"):
							byValue[v] = append(byValue[v], filepath.ToSlash(pkgDir)+"."+name.Name)
							if !snake.MatchString(v) {
								out = append(out, codeFinding{at(lit.Pos()), fmt.Sprintf("%s = %q is not snake_case", name.Name, v)})
							}
						case strings.HasPrefix(name.Name, "Warn") && snake.MatchString(v):
							out = append(out, codeFinding{at(name.Pos()), fmt.Sprintf("%s = %q: name a warning code CodeXxx (keep %s as a deprecated alias of it)", name.Name, v, name.Name)})
						}
					}
				case *ast.CompositeLit:
					codeField := func(c *ast.CompositeLit) {
						for _, el := range c.Elts {
							kv, ok := el.(*ast.KeyValueExpr)
							if k, _ := kv.Key.(*ast.Ident); ok && k != nil && k.Name == "Code" {
								if lit, ok := kv.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
									out = append(out, codeFinding{at(lit.Pos()), fmt.Sprintf("warning code %s written as a literal: declare a CodeXxx constant beside its producer", lit.Value)})
								}
							}
						}
					}
					switch t := n.Type.(type) {
					case *ast.ArrayType: // []Warning{{Code: ...}}: the elements' type is elided
						if isWarningType(t.Elt) {
							for _, el := range n.Elts {
								if c, ok := el.(*ast.CompositeLit); ok && c.Type == nil {
									codeField(c)
								}
							}
						}
					default:
						if isWarningType(n.Type) {
							codeField(n)
						}
					}
				case *ast.AssignStmt: // w.Code = "..."
					for i, lhs := range n.Lhs {
						if sel, ok := lhs.(*ast.SelectorExpr); ok && sel.Sel.Name == "Code" && i < len(n.Rhs) {
							if lit, ok := n.Rhs[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
								out = append(out, codeFinding{at(lit.Pos()), fmt.Sprintf("warning code %s assigned as a literal: declare a CodeXxx constant beside its producer", lit.Value)})
							}
						}
					}
				case *ast.CallExpr:
					name := ""
					switch fn := n.Fun.(type) {
					case *ast.Ident:
						name = fn.Name
					case *ast.SelectorExpr:
						name = fn.Sel.Name
					}
					if warnFuncs[name] && len(n.Args) > 0 {
						if lit, ok := n.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
							out = append(out, codeFinding{at(lit.Pos()), fmt.Sprintf("warning code %s passed to %s as a literal: declare a CodeXxx constant beside its producer", lit.Value, name)})
						}
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	for v, names := range byValue {
		if len(names) > 1 {
			sort.Strings(names)
			out = append(out, codeFinding{names[0], fmt.Sprintf("code %q is declared %d times (%s): declare it once (pkg/results for a code several packages produce) and refer to it", v, len(names), strings.Join(names, ", "))})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].pos < out[j].pos })
	return out, byValue, nil
}

// isWarningType reports whether a composite literal's type is a Warning
// (results.Warning, stats.Warning, or Warning inside those packages).
func isWarningType(t ast.Expr) bool {
	switch t := t.(type) {
	case *ast.Ident:
		return t.Name == "Warning"
	case *ast.SelectorExpr:
		return t.Sel.Name == "Warning"
	case *ast.StarExpr:
		return isWarningType(t.X)
	}
	return false
}

// TestWarningCodes holds the module's warning codes to one style.
func TestWarningCodes(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	found, byValue, err := checkCodes(root, []string{"pkg", "report", "internal"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s: %s", f.pos, f.msg)
	}
	t.Logf("%d warning codes declared", len(byValue))
}

// checkCodes finds each kind of break in a small package written here.
func TestWarningCodesSynthetic(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "pkg", "p")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src := `package p

const (
	CodeA    = "a_code"
	CodeB    = "a_code"
	CodeBad  = "BadCode"
	WarnOld  = "old_code"
	WarnKept = CodeA
)

func f(warn func(string)) []Warning {
	warn("lit_call")
	var w Warning
	w.Code = "lit_assign"
	return []Warning{{Code: "lit_elided"}, Warning{Code: CodeA}, {Code: "lit_in_slice"}}
}
`
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	found, _, err := checkCodes(root, []string{"pkg"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range found {
		got = append(got, f.pos+": "+f.msg)
	}
	want := []string{
		`pkg/p.CodeA: code "a_code" is declared 2 times (pkg/p.CodeA, pkg/p.CodeB)`,
		`pkg/p/p.go:12: warning code "lit_call" passed to warn as a literal`,
		`pkg/p/p.go:14: warning code "lit_assign" assigned as a literal`,
		`pkg/p/p.go:15: warning code "lit_elided" written as a literal`,
		`pkg/p/p.go:15: warning code "lit_in_slice" written as a literal`,
		`pkg/p/p.go:6: CodeBad = "BadCode" is not snake_case`,
		`pkg/p/p.go:7: WarnOld = "old_code": name a warning code CodeXxx`,
	}
	ok := len(got) == len(want)
	for i := 0; ok && i < len(got); i++ {
		ok = strings.HasPrefix(got[i], want[i])
	}
	if !ok {
		t.Errorf("findings:\n  %s\nwant (as prefixes):\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
