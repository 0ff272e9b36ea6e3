package xlsxreport

import (
	"bytes"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// A table to read (a results.Review) is a sheet of its own: model text
// as text (a formula stays a string, never a formula), long text
// wrapped in rows tall enough for it, the sheet printed at full size
// (not shrunk onto one page); whole numbers formatted #,##0.
func TestReviewTableSheet(t *testing.T) {
	long := strings.Repeat("a response that runs on and on, ", 12) // 384 characters
	p := results.Page{Title: "Runs compared", Headline: &results.Headline{Verdict: "B is better.",
		Cards: []results.Card{{Label: "pairs", Value: 100000, Unit: results.UnitNumber}}},
		Tables: []results.Table{{Title: "Flipped rows",
			Columns: []results.Column{{Name: "id"}, {Name: "A", Kind: results.KindNumber}, {Name: "B", Kind: results.KindNumber}, {Name: "response"}, {Name: "n", Kind: results.KindNumber}},
			Rows: [][]string{{"q1", "0", "1", `=HYPERLINK("http://evil.example","click")`, "100000"},
				{"q2", "1", "0", long, "12"}},
			Review: &results.Review{Flags: []int{1, 2}, Filters: []results.Filter{{Flag: 1, Label: "better"}, {Flag: 2, Label: "worse"}}}}}}
	var b bytes.Buffer
	if err := WriteReport(&b, p); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	const sheet = "Flipped rows"
	if v := raw(t, f, sheet, "D4"); v != `=HYPERLINK("http://evil.example","click")` {
		t.Errorf("D4 = %q", v)
	}
	if fo, err := f.GetCellFormula(sheet, "D4"); err != nil || fo != "" {
		t.Errorf("D4 holds the formula %q (%v)", fo, err)
	}
	if bytes.Contains(parts(t, b.Bytes())["xl/worksheets/sheet3.xml"], []byte("<f>")) {
		t.Error("the sheet holds a formula")
	}
	// The long response: 384 characters in a 40-wide column are
	// ceil(384 / (40 · 1.1)) = 9 lines of 15 points, plus 3.
	if w, err := f.GetColWidth(sheet, "D"); err != nil || w != 40 {
		t.Errorf("response column %g wide (%v), want 40", w, err)
	}
	if h, err := f.GetRowHeight(sheet, 5); err != nil || h != 9*15+3 {
		t.Errorf("row 5 is %g high (%v), want 138", h, err)
	}
	lay, err := f.GetPageLayout(sheet)
	if err != nil || lay.FitToHeight == nil || *lay.FitToHeight != 0 {
		t.Errorf("the rows sheet fits %v pages tall (%v), want as many as it needs (0)", lay.FitToHeight, err)
	}
	for _, c := range []struct{ sheet, ref, want string }{{sheet, "E4", "100,000"}, {"Summary", "B7", "100,000"}} {
		if got, err := f.GetCellValue(c.sheet, c.ref); err != nil || got != c.want {
			t.Errorf("%s!%s shows %q (%v), want %q", c.sheet, c.ref, got, err, c.want)
		}
	}
}
