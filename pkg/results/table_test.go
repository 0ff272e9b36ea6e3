package results

import (
	"os"
	"strings"
	"testing"
)

func TestColumnDisplay(t *testing.T) {
	check := func(kind, cell, want string) {
		t.Helper()
		if got := (Column{Kind: kind}).Display(cell); got != want {
			t.Errorf("Display(%s, %q) = %q, want %q", kind, cell, got, want)
		}
	}
	check(KindRate, "0.25", "25.0%")
	check(KindRate, Float(26.0/30), "86.7%") // SPEC.md: observed agreement 26/30
	check(KindNumber, "3", "3")
	check(KindNumber, "0.79838", "0.798") // SPEC.md: kappa 0.798
	check(KindNumber, "", "")
	check(KindNumber, "n/a", "n/a")
	check(KindText, "0.25", "0.25")
	check("", "=1+1", "=1+1")
}

func TestTableCheck(t *testing.T) {
	tb := Table{Title: "t", Columns: []Column{{Name: "a"}, {Name: "b"}}, Rows: [][]string{{"1", "2"}, {"3"}}}
	if err := tb.Check(); err == nil || err.Error() != `table "t": row 2 has 1 cells for 2 columns` {
		t.Errorf("Check: %v", err)
	}
	if err := tb.WriteText(&strings.Builder{}); err == nil {
		t.Error("WriteText of a ragged table: no error")
	}
}

func ExampleTable_WriteText() {
	// SPEC.md §3: two annotators on 30 pairs agree on 26 (0.867); chance
	// agreement is 307/900 (0.341); kappa 0.798.
	t := Table{
		Title:   "Cohen's kappa",
		Note:    "30 pairs, labels a, b and tie.",
		Columns: []Column{{Name: "measure"}, {Name: "value", Kind: KindRate}},
		Rows: [][]string{
			{"observed", Float(26.0 / 30)},
			{"expected", Float(307.0 / 900)},
		},
	}
	t.WriteText(os.Stdout)
	// Output:
	// Cohen's kappa
	// 30 pairs, labels a, b and tie.
	// measure   value
	// observed  86.7%
	// expected  34.1%
}
