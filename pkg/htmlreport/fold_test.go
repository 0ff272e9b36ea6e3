package htmlreport

import (
	"bytes"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
)

// Issue 27: mc's Overall table (overall, n, then acc, acc low, acc high
// and so on for five metrics: 17 columns) scrolled sideways at 1280 px.
// A table of more than 14 columns shows each rate followed by its bounds
// as one column, the figure with "low – high" under it: 7 columns. A
// table of 14 or fewer keeps its columns.
func TestWideTableFoldsIntervals(t *testing.T) {
	cols := []results.Column{{Name: "overall"}, {Name: "n", Kind: results.KindCount}}
	row := []string{"all", "32"}
	for _, m := range []string{"acc", "acc_norm", "acc_norm_token", "mrr", "recall@2"} {
		cols = append(cols, results.Column{Name: m, Kind: results.KindRate}, results.Column{Name: m + " low", Kind: results.KindRate}, results.Column{Name: m + " high", Kind: results.KindRate})
		row = append(row, "0.469", "0.309", "0.636")
	}
	page := func(cols []results.Column, row []string) string {
		var b bytes.Buffer
		if err := WriteReport(&b, results.Page{Title: "mc", Tables: []results.Table{{Title: "Overall", Columns: cols, Rows: [][]string{row}}}}, false); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	p := page(cols, row)
	if n := strings.Count(p, "<th>") + strings.Count(p, "<th "); n != 7 {
		t.Errorf("%d header cells, want 7 (overall, n and five folded metrics)", n)
	}
	if strings.Contains(p, ">acc low<") || strings.Contains(p, ">acc high<") {
		t.Error("the bounds are still columns")
	}
	for _, want := range []string{
		`<th class="num">acc<br><span class="sub">and interval</span></th>`,
		`<td class="num" data-v="0.469">46.9%<br><span class="sub">30.9% – 63.6%</span></td>`,
	} {
		if !strings.Contains(p, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	// Two metrics: 8 columns, not folded.
	p = page(cols[:8], row[:8])
	if n := strings.Count(p, "<th>") + strings.Count(p, "<th "); n != 8 || !strings.Contains(p, ">acc low</th>") || strings.Contains(p, `class="sub"`) {
		t.Errorf("a table of 8 columns was folded (%d header cells)", n)
	}
}
