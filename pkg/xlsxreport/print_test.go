package xlsxreport

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// Every sheet with a header keeps it in view (frozen panes, read back
// with excelize), prints one page wide with its header repeated (print
// titles), and the row sheets print their first page only; short sheets
// (a grouping's table and chart) fit on one page.
func TestFrozenPanesAndPageSetup(t *testing.T) {
	s, verdicts := sample(t)
	f, _, _ := render(t, s, Options{Verdicts: bytes.NewReader(verdicts), VerdictsName: "verdicts.csv"})
	names := map[string]string{}
	for _, dn := range f.GetDefinedName() {
		names[dn.Scope+" "+dn.Name] = dn.RefersTo
	}
	sheets := f.GetSheetList()
	for _, want := range []string{"Summary", "Agreement", "Verdicts", "Disagreements", "Warnings", "By Domain"} {
		found := false
		for _, sh := range sheets {
			found = found || sh == want
		}
		if !found {
			t.Errorf("no sheet %q in %v", want, sheets)
		}
	}
	for _, sh := range sheets {
		p, err := f.GetPanes(sh)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Freeze || p.YSplit < 1 {
			t.Errorf("%s: panes %+v, want rows frozen above the data", sh, p)
		}
		lay, err := f.GetPageLayout(sh)
		if err != nil {
			t.Fatal(err)
		}
		if lay.FitToWidth == nil || *lay.FitToWidth != 1 {
			t.Errorf("%s: fit to width %v, want 1 page", sh, lay.FitToWidth)
		}
		props, err := f.GetSheetProps(sh)
		if err != nil {
			t.Fatal(err)
		}
		if props.FitToPage == nil || !*props.FitToPage {
			t.Errorf("%s: fit to page is off", sh)
		}
		if sh != "Warnings" && !strings.HasPrefix(sh, "By ") {
			if _, ok := names[sh+" _xlnm.Print_Titles"]; !ok {
				t.Errorf("%s: no print titles (have %v)", sh, names)
			}
		}
		tall := 0
		if lay.FitToHeight != nil {
			tall = *lay.FitToHeight
		}
		switch {
		case strings.HasPrefix(sh, "By "):
			if tall != 1 {
				t.Errorf("%s: fit to height %d, want 1 (the table and its chart on one page)", sh, tall)
			}
		case sh == "Summary":
			if tall != 0 {
				t.Errorf("Summary: fit to height %d, want 0 (its paragraphs at full size)", tall)
			}
		}
	}
	// 284 verdict rows: the print area is the header and the first 25.
	if got, want := names["Verdicts _xlnm.Print_Area"], fmt.Sprintf("'Verdicts'!$A$1:$%s$%d", lastCol(t, f, "Verdicts"), printedRows+1); got != want {
		t.Errorf("Verdicts print area %q, want %q", got, want)
	}
	// The Summary says so.
	rows, err := f.GetRows("Summary")
	if err != nil {
		t.Fatal(err)
	}
	said := false
	for _, r := range rows {
		if len(r) > 1 && r[0] == "Verdicts" && strings.Contains(r[1], "Printed: the first 25 of its 284 rows") {
			said = true
		}
	}
	if !said {
		t.Error("the Summary does not say that only the first Verdicts rows print")
	}
}

func lastCol(t *testing.T, f *excelize.File, sheet string) string {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil || len(rows) == 0 {
		t.Fatalf("%s: %v", sheet, err)
	}
	name, _ := excelize.ColumnNumberToName(len(rows[0]))
	return name
}

// The Summary's key figures: "in words" is indented clear of the
// right-aligned "CI high" beside it, the row count is left-aligned like
// the settings, and column widths follow the content (column A fits
// "Empty golden answers", column G the longest sentence in words).
func TestSummaryLayout(t *testing.T) {
	s, _ := sample(t)
	f, _, _ := render(t, s, Options{})
	style := func(ref string) *excelize.Style {
		t.Helper()
		id, err := f.GetCellStyle("Summary", ref)
		if err != nil {
			t.Fatal(err)
		}
		st, err := f.GetStyle(id)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	find := func(text string) (col, row int) {
		t.Helper()
		rows, _ := f.GetRows("Summary")
		for r, cells := range rows {
			for c, v := range cells {
				if v == text {
					return c + 1, r + 1
				}
			}
		}
		t.Fatalf("no cell %q on the Summary", text)
		return 0, 0
	}
	c, r := find("in words")
	ref, _ := excelize.CoordinatesToCellName(c, r)
	if st := style(ref); st.Alignment == nil || st.Alignment.Indent < 1 || st.Alignment.Horizontal != "left" || !st.Alignment.WrapText {
		t.Errorf("the in-words header is not left-aligned, indented and wrapped: %+v", st.Alignment)
	}
	_, r = find("Rows")
	ref, _ = excelize.CoordinatesToCellName(2, r)
	if st := style(ref); st.Alignment == nil || st.Alignment.Horizontal != "left" {
		t.Errorf("the row count is not left-aligned: %+v", st.Alignment)
	}
	wa, _ := f.GetColWidth("Summary", "A")
	if wa < float64(len("Empty golden answers")) || wa > 32 {
		t.Errorf("column A is %v wide, want room for \"Empty golden answers\" and at most 32", wa)
	}
	wg, _ := f.GetColWidth("Summary", "G")
	if want := float64(len(keyWords(s, s.Settings.Metrics[0]))); wg < want {
		t.Errorf("column G is %v wide, less than its text (%v)", wg, want)
	}
}
