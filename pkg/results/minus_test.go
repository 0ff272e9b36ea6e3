package results

import "testing"

// Negative figures show with the minus sign U+2212 in every display
// kind, as the headline's cards do; the cell itself keeps ASCII "-" (CSV
// and JSON read it). Before this rule a rating or number column showed
// "-0.020" beside a card's "−2.0 pp".
func TestDisplayMinusSign(t *testing.T) {
	for _, c := range []struct {
		kind, cell, want string
	}{
		{KindNumber, "-0.02", "−0.020"},
		{KindNumber, "-3", "−3"},
		{KindNumber, "-0.0001", "0.000"}, // rounds to zero: no sign
		{KindRating, "-12.4", "−12"},
		{KindRating, "-0.2", "0"},
		{KindCount, "-1234", "−1,234"},
		{KindPP, "-0.07", "−7.0 pp"},
		{KindRate, "-0.5", "−50.0%"},
		{KindText, "-x", "-x"}, // text is not a figure
	} {
		if got := (Column{Kind: c.kind}).Display(c.cell); got != c.want {
			t.Errorf("Display(%s, %q) = %q, want %q", c.kind, c.cell, got, c.want)
		}
	}
	tb := Table{Columns: []Column{{Name: "d", Kind: KindNumber}}, Rows: [][]string{{"-0.02"}}}
	if tb.Rows[0][0] != "-0.02" || tb.Cell(0, 0) != "−0.020" {
		t.Errorf("cell %q shows %q, want the cell kept and shown as −0.020", tb.Rows[0][0], tb.Cell(0, 0))
	}
	if got := FormatUnit(UnitNumber, -1500); got != "−1,500" {
		t.Errorf("FormatUnit(number, -1500) = %q, want −1,500", got)
	}
}
