package xlsxreport

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/qa"

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

// A grouping of 21 groups (Hindi and Bengali names) drew a chart taller
// than the printed page: the page break cut it and its legend (looked
// at through LibreOffice's PDF). Now the chart lies inside the print
// area and is at most a printed page tall: 8.27 inches of A4 landscape
// less 1.4 inches of margins and header and footer lines, 659 pixels at
// 96 a inch, on rows Excel and LibreOffice draw 20 pixels tall; the
// table is narrower than the page (scale 1), and the legend is at the
// bottom.
func TestTallChartFitsPage(t *testing.T) {
	var csv strings.Builder
	csv.WriteString("id,question,answer,Domain,response,topic\n")
	topics := []string{"इतिहास", "কলা", "भूगोल", "বিজ্ঞান", "भोजन", "খাদ্য", "सहायता"}
	for i := range 21 * 6 {
		g := fmt.Sprintf("%s %d", topics[i%7], i%21/7)
		resp := "yes"
		if i%3 == 0 {
			resp = "no"
		}
		fmt.Fprintf(&csv, "q%d,Q%d?,yes,d,%s,%s\n", i, i, resp, g)
	}
	s, err := qa.Score(context.Background(), strings.NewReader(csv.String()), "topics.csv", qa.Options{By: [][]string{{"topic"}}})
	if err != nil {
		t.Fatal(err)
	}
	_, raw, _ := render(t, s, Options{})
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	part := func(name string) string {
		for _, f := range zr.File {
			if f.Name == name {
				r, _ := f.Open()
				b, _ := io.ReadAll(r)
				return string(b)
			}
		}
		t.Fatalf("no part %s", name)
		return ""
	}
	rowRE := regexp.MustCompile(`<xdr:(from|to)><xdr:col>\d+</xdr:col><xdr:colOff>\d+</xdr:colOff><xdr:row>(\d+)</xdr:row>`)
	anchor := map[string]int{}
	for _, m := range rowRE.FindAllStringSubmatch(part("xl/drawings/drawing1.xml"), -1) {
		anchor[m[1]], _ = strconv.Atoi(m[2])
	}
	area := regexp.MustCompile(`Print_Area">[^<]*!\$A\$1:\$[A-Z]+\$(\d+)<`).FindStringSubmatch(part("xl/workbook.xml"))
	if area == nil {
		t.Fatal("no print area")
	}
	last, _ := strconv.Atoi(area[1])
	// Anchors count rows from 0; the chart's last row is to+1.
	if anchor["to"]+1 > last {
		t.Errorf("the chart ends on row %d, after the print area's last row %d", anchor["to"]+1, last)
	}
	if h := (anchor["to"] - anchor["from"] + 1) * 20; h > 659 {
		t.Errorf("the chart covers %d rows, %d pixels: taller than a printed page (659)", anchor["to"]-anchor["from"]+1, h)
	}
	if !strings.Contains(part("xl/charts/chart1.xml"), `<legendPos val="b">`) {
		t.Error("the chart's legend is not at the bottom")
	}
}
