package xlsxreport

import (
	"bytes"
	"fmt"
	"html"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// seriesColors are the fill colours of chart series, one per metric; they
// stay distinguishable for readers with the common colour-vision deficiencies.
var seriesColors = []string{"4472C4", "ED7D31", "6E6E6E", "FFC000", "70AD47", "9E480E", "E377C2", "17BECF"}

// groupSheet writes one grouping: a table of the figures per group with a
// combined row, and a native bar chart of accuracy per group and metric.
func (b *book) groupSheet(by string) error {
	s := b.s
	name := b.sheetName("By " + by)
	if err := b.addSheet(name); err != nil {
		return err
	}
	var groups []results.Group
	for _, g := range s.Groups {
		if g.By == by {
			groups = append(groups, g)
		}
	}
	metrics := s.Settings.Metrics
	g := b.grid(name)
	widths, total, px := groupWidths(by, groups, len(metrics))
	g.widths(widths...)
	lastCol := 4 + 4*len(metrics)

	g.set(1, 1, "Accuracy by "+by, b.st.title)
	g.text(1, lastCol, 2, fmt.Sprintf("%d groups. Accuracy is correct / n for each group; the interval is the %s; the combined row covers all %d rows. Blank counts responses that are empty after trimming; empty golden counts rows whose golden answer is empty (they score as correct).",
		len(groups), ciText(s), s.Combined.N), b.st.muted, total)
	b.groupHeader(g, by, metrics)
	row := groupHead2
	for _, gr := range groups {
		row++
		b.groupRow(g, row, gr, gr.Group, false, metrics)
	}
	row++
	b.groupRow(g, row, s.Combined, "combined", true, metrics)
	if g.err != nil {
		return g.err
	}
	if err := b.f.SetPanes(name, &excelize.Panes{Freeze: true, XSplit: 1, YSplit: groupHead2, TopLeftCell: cell(2, groupHead2+1), ActivePane: "bottomRight"}); err != nil {
		return err
	}
	if len(groups) == 0 {
		return nil
	}
	firstRow, lastRow := groupHead2+1, groupHead2+len(groups)
	errCols := 0
	if hasIntervals(s) {
		errCols = lastCol + 2
		b.errorBarCells(g, errCols, groups, metrics)
	}
	if g.err != nil {
		return g.err
	}
	// The chart starts a printed page of its own, below the table.
	at := row + 2
	if err := b.f.InsertPageBreak(name, cell(1, at)); err != nil {
		return err
	}
	height, err := b.accuracyChart(name, by, groups, groupHead1, firstRow, lastRow, errCols, cell(1, at), px)
	if err != nil {
		return err
	}
	// Print the table and the chart, not the error bar lengths: the
	// chart covers height/18 rows (excelizeRow).
	chartRows := int(float64(height)/excelizeRow) + 2
	b.printAreas[name] = fmt.Sprintf("%s!$A$1:$%s$%d", quoteSheet(name), colName(lastCol), at+chartRows)
	return nil
}

// The two header rows of a grouping's sheet: the metric over its four
// columns, then the figures.
const groupHead1, groupHead2 = 4, 5

// groupWidths is the column widths of a grouping's sheet with m metrics
// (the first fits the group names), their sum, and the same in pixels.
func groupWidths(by string, groups []results.Group, m int) (widths []float64, total, px float64) {
	nameWidth := float64(len(by))
	for _, gr := range groups {
		nameWidth = max(nameWidth, float64(displayWidth(gr.Group)))
	}
	nameWidth = min(max(nameWidth+2, 14), 40)
	widths = []float64{nameWidth, 8, 8, 13}
	for range m {
		widths = append(widths, 9, 10, 9, 9)
	}
	for _, w := range widths {
		total += w
		px += w*7 + 5 // Excel's column width in pixels for the default font
	}
	return widths, total, px
}

// groupHeader writes the two header rows: the grouping, n, blank and
// empty golden, then each metric merged over its correct, accuracy and
// interval columns.
func (b *book) groupHeader(g *grid, by string, metrics []string) {
	for c, h := range []string{by, "n", "blank", "empty golden"} {
		st := b.st.headerNum
		if c == 0 {
			st = b.st.header
		}
		g.set(c+1, groupHead1, "", st)
		g.set(c+1, groupHead2, h, st)
	}
	for i, id := range metrics {
		c := 5 + 4*i
		g.set(c, groupHead1, id, b.st.headerCenter)
		if g.err == nil {
			g.err = b.f.MergeCell(g.sheet, cell(c, groupHead1), cell(c+3, groupHead1))
		}
		for j, h := range []string{"correct", "accuracy", "CI low", "CI high"} {
			g.set(c+j, groupHead2, h, b.st.headerNum)
		}
	}
}

// groupRow writes one group's figures on row under label, styled as the
// combined row when total; a metric no row of the group has is left
// empty.
func (b *book) groupRow(g *grid, row int, gr results.Group, label string, total bool, metrics []string) {
	lab, in, pc, dec := b.st.lineText, b.st.lineInteger, b.st.linePercent, b.st.lineDecimal // one line a group
	if total {
		lab, in, pc, dec = b.st.totalLabel, b.st.totalInt, b.st.totalPct, b.st.totalDec
	}
	g.set(1, row, label, lab)
	g.set(2, row, gr.N, in)
	g.set(3, row, gr.Blank, in)
	g.set(4, row, gr.EmptyGolden, in)
	for i, id := range metrics {
		ms, ok := gr.Metrics[id]
		c := 5 + 4*i
		if !ok && gr.N > 0 { // no row of the group has a value of this metric: empty cells
			continue
		}
		correctStyle := in
		if ms.Correct != float64(int64(ms.Correct)) {
			correctStyle = dec
		}
		g.set(c, row, ms.Correct, correctStyle)
		g.set(c+1, row, ms.Accuracy, pc)
		g.set(c+2, row, ms.CILow, pc)
		g.set(c+3, row, ms.CIHigh, pc)
	}
}

// errorBarCells writes the lengths of the chart's error bars from column
// errCols: the chart's error bars read them from cells (LibreOffice
// ignores literal lengths), so they stand beside the table, after a
// spacer column, under a header that says what they are for.
func (b *book) errorBarCells(g *grid, errCols int, groups []results.Group, metrics []string) {
	firstRow := groupHead2 + 1
	g.text(errCols, errCols+2*len(metrics)-1, groupHead1-1, "Error bar lengths for the chart: accuracy − CI low, CI high − accuracy.", b.st.muted, float64(2*len(metrics)*10))
	for i, id := range metrics {
		c := errCols + 2*i
		g.set(c, groupHead1, id, b.st.header)
		if g.err == nil {
			g.err = b.f.MergeCell(g.sheet, cell(c, groupHead1), cell(c+1, groupHead1))
		}
		g.set(c, groupHead2, "below", b.st.header)
		g.set(c+1, groupHead2, "above", b.st.header)
		for j, gr := range groups {
			ms := gr.Metrics[id]
			g.set(c, firstRow+j, max(0, ms.Accuracy-ms.CILow), b.st.decimal)
			g.set(c+1, firstRow+j, max(0, ms.CIHigh-ms.Accuracy), b.st.decimal)
		}
	}
	for c := errCols; c < errCols+2*len(metrics); c++ {
		if g.err == nil {
			g.err = b.f.SetColWidth(g.sheet, colName(c), colName(c), 10)
		}
	}
}

// The printable part of the A4 landscape page printLayout sets, in
// pixels at 96 per inch: 11.69 inches wide less the half-inch margins,
// 8.27 tall less 0.7 inch above and below (the margin and the header or
// footer line LibreOffice sets in it, measured on its PDF).
const (
	printableWidth  = (11.69 - 1) * 96
	printableHeight = (8.27 - 1.4) * 96
	// A 15-point row is 20 pixels tall in Excel and LibreOffice, and 18
	// in excelize's anchoring of charts (4/3.4 pixels a point).
	drawnRow, excelizeRow = 20.0, 18.0
)

func hasIntervals(s *results.Score) bool { return s.Settings.CI != "none" && s.Settings.CI != "" }

// accuracyChart adds a horizontal clustered bar chart (groups down the
// side, so that 20 or more group names stay legible) with one series per
// metric, and the intervals as error bars whose lengths are in the two
// columns per metric from errCol (0: no error bars). It returns the
// chart's height in pixels.
func (b *book) accuracyChart(sheet, by string, groups []results.Group, nameRow, firstRow, lastRow, errCol int, at string, tablePixels float64) (uint, error) {
	s := b.s
	q := quoteSheet(sheet)
	var series []excelize.ChartSeries
	for i := range s.Settings.Metrics {
		acc := colName(6 + 4*i)
		series = append(series, excelize.ChartSeries{
			Name:       fmt.Sprintf("%s!$%s$%d", q, colName(5+4*i), nameRow),
			Categories: fmt.Sprintf("%s!$A$%d:$A$%d", q, firstRow, lastRow),
			Values:     fmt.Sprintf("%s!$%s$%d:$%s$%d", q, acc, firstRow, acc, lastRow),
			Fill:       excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{seriesColors[i%len(seriesColors)]}},
		})
	}
	zero, one, no := 0.0, 1.0, false
	m := len(s.Settings.Metrics)
	height := uint(110 + len(groups)*(m*14+10))
	width := uint(max(tablePixels-12, 480))
	// The chart prints on a page of its own (a page break is above it),
	// scaled with the sheet to the page's width: it must not be taller
	// than a page at that scale, or the page break cuts it and its
	// legend is lost. Bars get thinner down to 16 pixels per group; a
	// chart of more groups than that allows runs on, its legend at the
	// top with its title.
	// excelize anchors the chart on rows of 18 pixels (15 points) where
	// Excel and LibreOffice draw them 20 pixels tall: the chart is drawn
	// 20/18 of the height asked for.
	scale := min(1, printableWidth/max(tablePixels, float64(width)+12))
	legend := "bottom"
	if page := uint((printableHeight/scale - 40) * excelizeRow / drawnRow); height > page {
		if page >= 110+16*uint(len(groups)) {
			height = page
		} else {
			legend = "top"
		}
	}
	gap := uint(50)
	sub := "bars: accuracy"
	if errCol > 0 {
		sub += "; whiskers: " + ciText(s)
	}
	dark := "262626"
	chart := &excelize.Chart{
		Type:   excelize.Bar,
		Series: series,
		Format: excelize.GraphicOptions{OffsetX: 4, OffsetY: 4},
		Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{
			{Text: "Accuracy by " + by, Font: &excelize.Font{Bold: true, Size: 13, Color: dark}},
			{Text: " (" + sub + ")", Font: &excelize.Font{Size: 10, Color: dark}},
		}},
		Legend:    excelize.ChartLegend{Position: legend, Font: &excelize.Font{Size: 10, Color: dark}},
		Dimension: excelize.ChartDimension{Width: width, Height: height},
		// Category axis: the first group at the top, as in the table.
		XAxis: excelize.ChartAxis{ReverseOrder: true, Font: excelize.Font{Size: 10, Color: dark}},
		YAxis: excelize.ChartAxis{
			Minimum: &zero, Maximum: &one, MajorUnit: 0.1, MajorGridLines: true,
			NumFmt: excelize.ChartNumFmt{CustomNumFmt: "0%"}, Font: excelize.Font{Size: 9, Color: dark},
		},
		GapWidth:   &gap,
		VaryColors: &no,
	}
	before := chartParts(b.f)
	if err := b.f.AddChart(sheet, at, chart); err != nil {
		return 0, err
	}
	if errCol == 0 {
		return height, nil
	}
	var added []string
	for p := range chartParts(b.f) {
		if !before[p] {
			added = append(added, p)
		}
	}
	if len(added) != 1 {
		return 0, fmt.Errorf("found %d new chart parts after adding a chart, want 1", len(added))
	}
	var refs [][2]string // per series: below, above
	for i := range s.Settings.Metrics {
		c := errCol + 2*i
		refs = append(refs, [2]string{
			fmt.Sprintf("%s!$%s$%d:$%s$%d", q, colName(c), firstRow, colName(c), lastRow),
			fmt.Sprintf("%s!$%s$%d:$%s$%d", q, colName(c+1), firstRow, colName(c+1), lastRow),
		})
	}
	return height, addErrorBars(b.f, added[0], refs)
}

// chartParts returns the package paths of the workbook's chart parts.
func chartParts(f *excelize.File) map[string]bool {
	out := map[string]bool{}
	f.Pkg.Range(func(k, _ any) bool {
		if p, ok := k.(string); ok && strings.HasPrefix(p, "xl/charts/chart") && strings.HasSuffix(p, ".xml") {
			out[p] = true
		}
		return true
	})
	return out
}

// addErrorBars adds custom error bars to the series of a bar chart part.
// excelize (v2.11) has no error-bar option, so the chart's XML is edited:
// DrawingML allows one errBars element in each ser of a bar chart, before
// cat (ECMA-376 Part 1, 21.2.2.58 errBars, CT_BarSer). The lengths below
// and above each bar are cell references: LibreOffice 7.4 drops literal
// (numLit) lengths, Excel reads both. excelize keeps the part with the
// chart namespace as the default namespace (no c: prefix), a: bound to
// DrawingML.
func addErrorBars(f *excelize.File, part string, refs [][2]string) error {
	v, ok := f.Pkg.Load(part)
	if !ok {
		return fmt.Errorf("chart part %s not found", part)
	}
	src, ok := v.([]byte)
	if !ok {
		return fmt.Errorf("chart part %s is not bytes", part)
	}
	var out bytes.Buffer
	rest := src
	for i, r := range refs {
		ser := bytes.Index(rest, []byte("<ser>"))
		if ser < 0 {
			return fmt.Errorf("chart part %s: series %d not found", part, i+1)
		}
		cat := bytes.Index(rest[ser:], []byte("<cat>"))
		if cat < 0 {
			return fmt.Errorf("chart part %s: series %d has no categories", part, i+1)
		}
		cut := ser + cat
		out.Write(rest[:cut])
		out.WriteString(`<errBars><errBarType val="both"/><errValType val="cust"/><noEndCap val="0"/>`)
		out.WriteString(`<plus><numRef><f>` + html.EscapeString(r[1]) + `</f></numRef></plus>`)
		out.WriteString(`<minus><numRef><f>` + html.EscapeString(r[0]) + `</f></numRef></minus>`)
		out.WriteString(`<spPr><a:ln w="12700"><a:solidFill><a:srgbClr val="262626"/></a:solidFill></a:ln></spPr></errBars>`)
		rest = rest[cut:]
	}
	out.Write(rest)
	f.Pkg.Store(part, out.Bytes())
	return nil
}

// displayWidth approximates the width of s in characters of the default font.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x1100 && (r <= 0x115F || (r >= 0x2E80 && r <= 0xA4CF) || (r >= 0xAC00 && r <= 0xD7A3) || (r >= 0xF900 && r <= 0xFAFF) || (r >= 0xFF00 && r <= 0xFF60)) {
			n += 2
		} else {
			n++
		}
	}
	return n
}
