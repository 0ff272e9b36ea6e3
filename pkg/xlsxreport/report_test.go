package xlsxreport

import (
	"archive/zip"
	"bytes"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

func reportPage() results.Page {
	zero := 0.0
	return results.Page{
		Title: "Comparison: old.csv → new.csv",
		Headline: &results.Headline{Badge: "RELEASE", Tone: results.ToneGood, Verdict: "=HYPERLINK(\"x\") is not a formula", Subject: "old.csv → new.csv",
			Cards: []results.Card{
				{Label: "new pass rate", Value: 0.871, Unit: results.UnitRate, HasCI: true, Low: 0.711, High: 0.949},
				{Label: "change", Value: 0.0645, Unit: results.UnitPP, HasCI: true, Low: 0, High: 0.161},
				{Label: "tier", Text: "1"},
			}},
		Charts: []results.ChartSpec{
			{Kind: results.ChartBars, Title: "Pass rate", Unit: results.UnitRate, Categories: []string{"all", "lookup"},
				Series: []results.Series{{Name: "old", Points: []results.Point{{Value: 0.8, HasCI: true, Low: 0.6, High: 0.9}, {Value: 0.9, HasCI: true, Low: 0.7, High: 0.98}}},
					{Name: "new", Points: []results.Point{{Value: 0.87, HasCI: true, Low: 0.7, High: 0.95}, {Value: 1, HasCI: true, Low: 0.75, High: 1}}}}},
			{Kind: results.ChartPoints, Title: "Trend", Unit: results.UnitRate, Categories: []string{"run 1", "run 2"},
				Series: []results.Series{{Name: "all", Points: []results.Point{{Value: 0.6, HasCI: true, Low: 0.5, High: 0.7}, {Value: 0.65, HasCI: true, Low: 0.55, High: 0.75}}}}},
			{Kind: results.ChartHeatmap, Title: "Grid", Unit: results.UnitRate, Rows: []string{"m1", "m2"}, Columns: []string{"hi", "bn"}, Reference: &zero,
				Cells: [][]float64{{0.5, math.NaN()}, {0.9, 0.1}}, Marks: [][]string{{"", ""}, {" *", ""}}},
		},
		Tables: []results.Table{{Title: "Comparison: a very long title of old.csv → new.csv", Sheet: "Comparison",
			Columns:  []results.Column{{Name: "figure"}, {Name: "value", Kind: results.KindNumber, PerRow: true}},
			Rows:     [][]string{{"pass rate", "0.629"}, {"change", "0.0312"}, {"p", "0.0002"}, {"elo", "1094.30983"}},
			RowKinds: []string{results.KindRate, results.KindPP, results.KindP, results.KindRating}}},
	}
}

// The workbook of a report: Summary (badge, verdict, cards as formatted
// numbers), Charts (a native chart per series chart, with error bars; a
// colour-scaled grid for the heatmap), then the tables, each unit with
// its number format.
func TestWriteReportWorkbook(t *testing.T) {
	var b bytes.Buffer
	if err := WriteReport(&b, reportPage()); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := strings.Join(f.GetSheetList(), "|"); got != "Summary|Charts|Comparison" {
		t.Errorf("sheets %s", got)
	}
	rows, err := f.GetRows("Summary", excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	text := ""
	for _, r := range rows {
		text += strings.Join(r, "|") + "\n"
	}
	for _, want := range []string{"RELEASE\n", "=HYPERLINK(\"x\") is not a formula", "new pass rate|0.871|0.711|0.949", "change|6.45|0|16.1", "tier|1"} {
		if !strings.Contains(text, want) {
			t.Errorf("Summary lacks %q:\n%s", want, text)
		}
	}
	// The verdict is text, never a formula.
	for r := 1; r <= len(rows); r++ {
		for c := 1; c <= 5; c++ {
			if fm, _ := f.GetCellFormula("Summary", cell(c, r)); fm != "" {
				t.Errorf("Summary %s holds the formula %q", cell(c, r), fm)
			}
		}
	}
	formats := map[string]string{}
	for _, x := range []struct{ sheet, cell string }{{"Summary", ""}, {"Comparison", "B5"}, {"Comparison", "B6"}, {"Comparison", "B7"}, {"Comparison", "B8"}} {
		if x.cell == "" {
			continue
		}
		formats[x.cell] = numFmt(t, f, x.sheet, x.cell)
	}
	want := map[string]string{"B5": "0.0%", "B6": `+0.0" pp";"−"0.0" pp";0.0" pp"`, "B7": `"< 0.001"`, "B8": `0;"−"0`}
	for c, w := range want {
		if formats[c] != w {
			t.Errorf("Comparison!%s format %q, want %q", c, formats[c], w)
		}
	}
	if v, _ := f.GetCellValue("Comparison", "B6", excelize.Options{RawCellValue: true}); v != "3.12" {
		t.Errorf("a difference is stored in points: %s, want 3.12", v)
	}
	parts := zipParts(t, b.Bytes())
	charts := 0
	for name, body := range parts {
		if strings.HasPrefix(name, "xl/charts/chart") {
			charts++
			if !strings.Contains(body, "<errBars>") {
				t.Errorf("%s has no error bars", name)
			}
		}
	}
	if charts != 2 {
		t.Errorf("%d native charts, want 2 (the heatmap is a grid)", charts)
	}
	if !strings.Contains(parts["xl/worksheets/sheet2.xml"], "colorScale") {
		t.Error("the grid has no colour scale")
	}
}

// styleOf is the style of a cell.
func styleOf(t *testing.T, f *excelize.File, sheet, ref string) *excelize.Style {
	t.Helper()
	id, err := f.GetCellStyle(sheet, ref)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func numFmt(t *testing.T, f *excelize.File, sheet, c string) string {
	t.Helper()
	st := styleOf(t, f, sheet, c)
	if st.CustomNumFmt != nil {
		return *st.CustomNumFmt
	}
	return ""
}

func zipParts(t *testing.T, data []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(rc)
		rc.Close()
		out[zf.Name] = string(body)
	}
	return out
}

// A long sheet name is cut at the end of a word.
func TestCutWords(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Comparison- v1-verdicts.csv -> v2-verdicts.csv", "Comparison- v1-verdicts.csv"},
		{"Short", "Short"},
		{"abcdefghijklmnopqrstuvwxyzabcdefghij", "abcdefghijklmnopqrstuvwxyzabcde"},
	} {
		if got := cutWords(c.in, 31); got != c.want {
			t.Errorf("cutWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
