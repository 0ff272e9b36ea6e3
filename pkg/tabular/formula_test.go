package tabular

import (
	"strings"
	"testing"
)

func TestNeedsFormulaGuard(t *testing.T) {
	for _, c := range []struct {
		cell string
		want bool
	}{
		{`=HYPERLINK("http://x","y")`, true},
		{"+1+2", true},
		{"-2+3", true},
		{"@SUM(A1)", true},
		{"\tx", true},
		{"\rx", true},
		{"=1", true},
		{"-", true},
		{"+", true},
		{"-Inf", true},
		{"-NaN", true},
		{"-0x10", true},
		{"-1_000", true},
		{"- 2", true},
		{"-2.5", false},
		{"+3", false},
		{"-1e3", false},
		{"-1E+3", false},
		{"-.5", false},
		{"-1e999", false},
		{"", false},
		{"plain", false},
		{"2+3", false},
		{"a=b", false},
		{" =x", false},
	} {
		if got := NeedsFormulaGuard(c.cell); got != c.want {
			t.Errorf("NeedsFormulaGuard(%q) = %v, want %v", c.cell, got, c.want)
		}
		want := c.cell
		if c.want {
			want = "'" + c.cell
		}
		if got := GuardFormula(c.cell); got != want {
			t.Errorf("GuardFormula(%q) = %q, want %q", c.cell, got, want)
		}
	}
}

func TestGuardRecord(t *testing.T) {
	rec := []string{"=1", "ok", "-2.5", "@x"}
	if n := GuardRecord(rec); n != 2 {
		t.Fatalf("GuardRecord counted %d, want 2", n)
	}
	if got := strings.Join(rec, "|"); got != "'=1|ok|-2.5|'@x" {
		t.Fatalf("GuardRecord gave %q", got)
	}
}

// FuzzGuardFormula: a guarded cell never starts with a formula character
// unless it is a plain number, which is then unchanged; and a cell is
// changed only by one leading quote.
func FuzzGuardFormula(f *testing.F) {
	for _, s := range []string{"=1", "+1+2", "-2+3", "@SUM(A1)", "-2.5", "+3", "-1e3", "", "x", "\t", "\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g := GuardFormula(s)
		if g != s && g != "'"+s {
			t.Fatalf("GuardFormula(%q) = %q: not s nor 's", s, g)
		}
		if g != "" && IsFormulaStart(g[0]) && !isPlainNumber(g) {
			t.Fatalf("GuardFormula(%q) = %q starts with a formula character", s, g)
		}
		if u := UnguardFormula(g); u != s && !(s != "" && s[0] == FormulaGuard) {
			t.Fatalf("UnguardFormula(GuardFormula(%q)) = %q", s, u)
		}
		if isPlainNumber(s) && g != s {
			t.Fatalf("plain number %q was guarded", s)
		}
	})
}
