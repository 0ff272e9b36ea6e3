package xlsxreport

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// unitFormats are the number formats of the units of pkg/results: every
// figure of a report workbook is a number formatted for its unit, so that
// a reader sees 62.9% and a formula gets 0.629. A difference of rates is
// written in percentage points (its fraction times 100), the unit its
// format names. A negative figure shows with the minus sign U+2212, as
// results.FormatUnit writes it on the page (a literal in the format's
// negative section: the cell keeps its negative number).
var unitFormats = map[string]string{
	results.UnitRate:   "0.0%",
	results.UnitPP:     `+0.0" pp";"−"0.0" pp";0.0" pp"`,
	results.UnitP:      "0.000", // below 0.001: pFloor's format
	results.UnitRating: `0;"−"0`,
	results.UnitCount:  `#,##0;"−"#,##0`,
	results.UnitNumber: `0.000;"−"0.000`,
}

// intFormat is a whole number of unit number: "100,000", "−3".
const intFormat = `#,##0;"−"#,##0`

// pFloor is the format of a p-value below 0.001: a literal, as a
// section condition ([<0.001]) is read differently by every reader.
const pFloor = `"< 0.001"`

// unitValue is x as a cell of unit holds it.
func unitValue(unit string, x float64) float64 {
	if unit == results.UnitPP {
		// In points, at Excel's 15 digits: 100 × 0.0312 is 3.1199999999999997.
		v, err := strconv.ParseFloat(strconv.FormatFloat(100*x, 'g', 15, 64), 64)
		if err != nil {
			return 100 * x
		}
		return v
	}
	return x
}

// unitStyles makes and caches a cell style per unit, mark and emphasis.
type unitStyles struct {
	f     *excelize.File
	cache map[string]int
}

func (u *unitStyles) style(unit, mark string, bold bool, x float64) (int, error) {
	return u.aligned(unit, mark, bold, x, "top")
}

// lineStyle is style's cell bottom-aligned, for a row of one line (see
// styles.lineText).
func (u *unitStyles) lineStyle(unit, mark string, x float64) (int, error) {
	return u.aligned(unit, mark, false, x, "bottom")
}

func (u *unitStyles) aligned(unit, mark string, bold bool, x float64, vertical string) (int, error) {
	format, ok := unitFormats[unit]
	if !ok {
		format = unitFormats[results.UnitNumber]
	}
	if unit == results.UnitNumber && x == math.Trunc(x) {
		format = intFormat
	}
	if unit == results.UnitP && x < 0.001 {
		format = pFloor // the cell keeps the p-value; it reads "< 0.001"
	}
	if mark != "" {
		q := `" ` + strings.ReplaceAll(mark, `"`, `'`) + `"`
		parts := strings.Split(format, ";")
		for i := range parts {
			parts[i] += q
		}
		format = strings.Join(parts, ";")
	}
	key := fmt.Sprintf("%s|%t|%s", format, bold, vertical)
	if id, ok := u.cache[key]; ok {
		return id, nil
	}
	st := &excelize.Style{CustomNumFmt: &format, Alignment: &excelize.Alignment{Vertical: vertical, Horizontal: "right"}}
	if bold {
		st.Font = &excelize.Font{Family: bodyFont, Bold: true, Size: 14, Color: "1F3864"}
	}
	id, err := u.f.NewStyle(st)
	if err != nil {
		return 0, err
	}
	u.cache[key] = id
	return id, nil
}

// Tone fills of the verdict and the badge.
var toneFill = map[string][2]string{ // fill, font
	results.ToneGood:    {"E8F5E9", "1B5E20"},
	results.ToneBad:     {"FDECEA", "8E0000"},
	results.ToneWarn:    {"FFF8E5", "5C4300"},
	results.ToneNeutral: {"F2F4F7", "1D1D1F"},
}

var badgeFill = map[string]string{results.ToneGood: "2E7D32", results.ToneBad: "C62828", results.ToneWarn: "B37400", results.ToneNeutral: "555555"}

// WriteReport writes a result's workbook: a Summary sheet (the title,
// the badge, the verdict in words, what was compared, the figure cards
// as numbers formatted for their units, and a list of the sheets), a
// Charts sheet holding each chart's figures and a native Excel chart of
// them (bars or points with the intervals as error bars; a heatmap as a
// coloured grid), and a sheet per table. Every sheet prints landscape,
// one page wide.
func WriteReport(w io.Writer, p results.Page) error {
	if len(p.Tables) == 0 && p.Headline == nil {
		return fmt.Errorf("xlsxreport: nothing to write (no tables, no headline)")
	}
	b := &book{f: excelize.NewFile(), s: &results.Score{Title: p.Title}, printTitles: map[string]int{}, printAreas: map[string]string{}, printedRows: map[string]int{}, tableTitles: map[string]string{}}
	defer b.f.Close()
	var err error
	if b.st, err = newStyles(b.f); err != nil {
		return err
	}
	us := &unitStyles{f: b.f, cache: map[string]int{}}
	if err := b.f.SetSheetName("Sheet1", "Summary"); err != nil {
		return err
	}
	b.order = append(b.order, "Summary")
	if err := b.printLayout("Summary"); err != nil {
		return err
	}
	if len(p.Charts) > 0 {
		if err := b.addSheet("Charts"); err != nil {
			return err
		}
		if err := b.chartsSheet(p.Charts, us); err != nil {
			return fmt.Errorf("charts: %w", err)
		}
	}
	sheets := make([]string, len(p.Tables))
	for i := range p.Tables {
		t := p.Tables[i]
		if t.Sheet != "" {
			t.Title, t.Note = t.Sheet, strings.TrimSpace(p.Tables[i].Title+". "+t.Note)
		}
		if err := b.tableSheet(&t); err != nil {
			return err
		}
		sheets[i] = b.order[len(b.order)-1]
	}
	if err := b.summaryPage(p, sheets, us); err != nil {
		return err
	}
	if err := b.finish(); err != nil {
		return err
	}
	return b.save(w)
}

// The Summary sheet's text spans summarySpan columns, summaryWidth
// characters wide.
const (
	summarySpan  = 5
	summaryWidth = 118.0
)

// summaryPage writes the Summary sheet: the title, the headline (if
// any) and what each sheet holds.
func (b *book) summaryPage(p results.Page, sheets []string, us *unitStyles) error {
	g := b.grid("Summary")
	g.widths(30, 16, 14, 14, 44)
	g.set(1, 1, p.Title, b.st.title)
	row := 3
	if h := p.Headline; h != nil {
		var err error
		if row, err = b.headline(g, h, row, us); err != nil {
			return err
		}
	}
	row++
	b.sheetList(g, p, sheets, row)
	return g.err
}

// headline writes the headline from row: badge, subject, verdict in its
// tone, notes and key figures; it returns the row after it.
func (b *book) headline(g *grid, h *results.Headline, row int, us *unitStyles) (int, error) {
	const span, width = summarySpan, summaryWidth
	tone := h.Tone
	if _, ok := toneFill[tone]; !ok {
		tone = results.ToneNeutral
	}
	if h.Badge != "" {
		st, err := b.f.NewStyle(&excelize.Style{Font: &excelize.Font{Family: bodyFont, Bold: true, Size: 18, Color: "FFFFFF"},
			Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{badgeFill[tone]}},
			Alignment: &excelize.Alignment{Horizontal: "center", Vertical: "center"}})
		if err != nil {
			return row, err
		}
		g.set(1, row, h.Badge, st)
		if g.err == nil {
			g.err = b.f.SetRowHeight("Summary", row, 30)
		}
		row += 2
	}
	if h.Subject != "" {
		g.text(1, span, row, h.Subject, b.st.subtitle, width)
		row++
	}
	if h.Verdict != "" {
		st, err := b.f.NewStyle(&excelize.Style{Font: &excelize.Font{Family: bodyFont, Bold: true, Size: 13, Color: toneFill[tone][1]},
			Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{toneFill[tone][0]}},
			Alignment: &excelize.Alignment{WrapText: true, Vertical: "center"}})
		if err != nil {
			return row, err
		}
		g.text(1, span, row, h.Verdict, st, width*0.8)
		row++
	}
	for _, n := range h.Notes {
		g.text(1, span, row, n, b.st.muted, width)
		row++
	}
	if len(h.Cards) > 0 {
		var err error
		if row, err = b.keyFigures(g, h.Cards, row+1, us); err != nil {
			return row, err
		}
	}
	return row + 1, nil
}

// keyFigures writes the Key figures table of cards from row (its
// section title): a figure per row with its value, interval and note;
// it returns the last row written.
func (b *book) keyFigures(g *grid, cards []results.Card, row int, us *unitStyles) (int, error) {
	g.set(1, row, "Key figures", b.st.section)
	row++
	for c, name := range []string{"figure", "value", "low", "high", "note"} {
		st := b.st.header
		if c >= 1 && c <= 3 {
			st = b.st.headerNum
		} else if c == 4 {
			st = b.st.headerIndent
		}
		g.set(c+1, row, name, st)
	}
	for _, c := range cards {
		row++
		g.set(1, row, c.Label, b.st.label)
		if c.Text != "" {
			g.set(2, row, c.Text, b.st.label)
		} else if !math.IsNaN(c.Value) && !math.IsInf(c.Value, 0) {
			st, err := us.style(c.Unit, "", true, c.Value)
			if err != nil {
				return row, err
			}
			g.set(2, row, unitValue(c.Unit, c.Value), st)
		}
		if c.HasCI {
			for k, x := range []float64{c.Low, c.High} {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					continue
				}
				st, err := us.style(c.Unit, "", false, x)
				if err != nil {
					return row, err
				}
				g.set(3+k, row, unitValue(c.Unit, x), st)
			}
		}
		g.set(5, row, c.Note, b.st.indent)
		if g.err == nil {
			g.err = b.f.SetRowHeight("Summary", row, max(20, rowHeight(c.Note, 44)))
		}
	}
	return row, nil
}

// sheetList writes, from row, the Sheets table: the charts' titles, then
// each table's sheet with its title and note.
func (b *book) sheetList(g *grid, p results.Page, sheets []string, row int) {
	const span, width = summarySpan, summaryWidth
	g.set(1, row, "Sheets", b.st.section)
	row++
	g.set(1, row, "sheet", b.st.header)
	g.text(2, span, row, "what it holds", b.st.header, width-30)
	if len(p.Charts) > 0 {
		row++
		g.set(1, row, "Charts", b.st.label)
		var titles []string
		for _, c := range p.Charts {
			titles = append(titles, c.Title)
		}
		g.text(2, span, row, strings.Join(titles, "; "), b.st.wrap, width-30)
	}
	for i, name := range sheets {
		row++
		g.set(1, row, name, b.st.label)
		g.text(2, span, row, strings.TrimSpace(p.Tables[i].Title+". "+p.Tables[i].Note), b.st.wrap, width-30)
	}
}

// chartsSheet writes each chart's figures as a block of cells and draws
// it beside them: categories down column A, then per series its value
// and, when it has intervals, the lengths below and above (what Excel's
// custom error bars read).
func (b *book) chartsSheet(charts []results.ChartSpec, us *unitStyles) error {
	const sheet = "Charts"
	g := b.grid(sheet)
	g.widths(28, 12, 10, 10, 12, 10, 10, 12, 10, 10)
	row := 1
	for _, c := range charts {
		g.set(1, row, c.Title, b.st.section)
		row++
		if c.Note != "" {
			g.text(1, 10, row, c.Note, b.st.muted, 120)
			row++
		}
		if g.err != nil {
			return g.err
		}
		var err error
		if c.Kind == results.ChartHeatmap {
			row, err = b.heatGrid(g, c, row+1, us)
		} else {
			row, err = b.seriesChart(g, c, row+1, us)
		}
		if err != nil {
			return fmt.Errorf("%q: %w", c.Title, err)
		}
		row += 2
	}
	return g.err
}

// seriesChart writes a bars, points or line chart's block from row and
// returns the row after it and its chart.
func (b *book) seriesChart(g *grid, c results.ChartSpec, row int, us *unitStyles) (int, error) {
	head := row
	sc, col := b.seriesHeader(g, c, head)
	if err := b.seriesFigures(g, c, head, sc, us); err != nil {
		return row, err
	}
	last := head + len(c.Categories)
	// A rating or a difference is drawn as dots with error bars, not as
	// bars from an axis far from the figures (ratings from 630); so is a
	// chart of bars with a reference line (calibrate's least share), which
	// bars running sideways cannot carry.
	dots := c.Kind == results.ChartBars && (c.Unit != results.UnitRate && c.Unit != results.UnitCount || c.Reference != nil)
	refCol, col, err := b.referenceColumn(g, c, head, col, us)
	if err != nil {
		return row, err
	}
	if g.err != nil || len(c.Categories) == 0 {
		return last + 1, g.err
	}
	series, refs := chartSeries(c, quoteSheet(g.sheet), head, last, sc, refCol, dots)
	ch := seriesChartStyle(c, series, dots)
	// Beside its figures, or below them when they are wide (so that the
	// sheet printed one page wide keeps the chart legible).
	at, top := cell(max(col+1, 6), head), head
	if col > 8 {
		at, top = cell(1, last+2), last+2
	}
	if err := b.addSeriesChart(g.sheet, at, ch, c, refs, dots); err != nil {
		return row, err
	}
	// The chart is as tall as its rows; the next block starts below it.
	rowsTall := top - head + int(ch.Dimension.Height)/20 + 2
	return max(last+1, head+rowsTall), nil
}

// seriesCols are the columns of one series in a chart's block: its value
// and, when it has intervals, the lengths below and above (0 without).
type seriesCols struct{ val, minus, plus int }

// seriesHeader writes the block's header row at head (a column per
// series, two more for a series with intervals) and returns the series'
// columns and the first free column.
func (b *book) seriesHeader(g *grid, c results.ChartSpec, head int) ([]seriesCols, int) {
	g.set(1, head, "", b.st.header)
	col := 2
	var sc []seriesCols
	for _, s := range c.Series {
		ci := false
		for _, p := range s.Points {
			ci = ci || p.HasCI
		}
		x := seriesCols{val: col}
		name := s.Name
		if name == "" {
			name = "value"
		}
		g.set(col, head, name, b.st.headerNum)
		b.widen(g, col, min(max(12, float64(displayWidth(name))+2), 32))
		col++
		if ci {
			x.minus, x.plus = col, col+1
			g.set(col, head, "below", b.st.headerNum)
			g.set(col+1, head, "above", b.st.headerNum)
			col += 2
		}
		sc = append(sc, x)
	}
	return sc, col
}

// widen sets column col at least width wide: never narrower, as an
// earlier chart's column may be wider.
func (b *book) widen(g *grid, col int, width float64) {
	if g.err != nil {
		return
	}
	cn := colName(col)
	var w float64
	if w, g.err = b.f.GetColWidth(g.sheet, cn); g.err == nil {
		g.err = b.f.SetColWidth(g.sheet, cn, cn, max(w, width))
	}
}

// seriesFigures writes a row per category below head: its name, then
// each series' value and interval lengths (a missing point left blank).
func (b *book) seriesFigures(g *grid, c results.ChartSpec, head int, sc []seriesCols, us *unitStyles) error {
	for i, cat := range c.Categories {
		r := head + 1 + i
		g.set(1, r, cat, b.st.lineText)
		for k, s := range c.Series {
			if i >= len(s.Points) || s.Points[i].Missing {
				continue
			}
			p := s.Points[i]
			st, err := us.lineStyle(c.Unit, p.Mark, p.Value)
			if err != nil {
				return err
			}
			g.set(sc[k].val, r, unitValue(c.Unit, p.Value), st)
			if sc[k].minus > 0 && p.HasCI {
				st, err := us.lineStyle(c.Unit, "", 0.5)
				if err != nil {
					return err
				}
				g.set(sc[k].minus, r, unitValue(c.Unit, p.Value-p.Low), st)
				g.set(sc[k].plus, r, unitValue(c.Unit, p.High-p.Value), st)
			}
		}
	}
	return nil
}

// referenceColumn writes the reference line of a line or points chart
// (the wanted power) as a series of its own at column col, one value per
// category, drawn dashed; it returns that column (0 without) and the next
// free one. A dots chart's reference (no change, the gate's margin) is
// instead its category axis, moved to cross there and dashed
// (crossAxisAt), which also spans a chart of one category; bars running
// sideways carry none.
func (b *book) referenceColumn(g *grid, c results.ChartSpec, head, col int, us *unitStyles) (refCol, next int, err error) {
	if c.Reference == nil || c.Kind == results.ChartBars || len(c.Categories) == 0 {
		return 0, col, nil
	}
	refCol = col
	g.set(refCol, head, referenceName, b.st.headerNum)
	b.widen(g, refCol, float64(displayWidth(referenceName))+2)
	st, err := us.lineStyle(c.Unit, "", *c.Reference)
	if err != nil {
		return 0, col, err
	}
	for i := range c.Categories {
		g.set(refCol, head+1+i, unitValue(c.Unit, *c.Reference), st)
	}
	return refCol, col + 1, nil
}

// chartSeries is the chart's series over the block's rows head+1..last
// of sheet q (quoted): a value column each, marked with dots unless bars,
// and the reference line's column; refs holds each series' ranges of
// lengths below and above (empty without intervals).
func chartSeries(c results.ChartSpec, q string, head, last int, sc []seriesCols, refCol int, dots bool) ([]excelize.ChartSeries, [][2]string) {
	var series []excelize.ChartSeries
	var refs [][2]string
	for k := range c.Series {
		v := colName(sc[k].val)
		cs := excelize.ChartSeries{
			Name:       fmt.Sprintf("%s!$%s$%d", q, v, head),
			Categories: fmt.Sprintf("%s!$A$%d:$A$%d", q, head+1, last),
			Values:     fmt.Sprintf("%s!$%s$%d:$%s$%d", q, v, head+1, v, last),
			Fill:       excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{seriesColors[k%len(seriesColors)]}},
		}
		if c.Kind != results.ChartBars || dots {
			cs.Marker = excelize.ChartMarker{Symbol: "circle", Size: 7, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{seriesColors[k%len(seriesColors)]}}}
			cs.Line = excelize.LineOptions{Width: 1.25}
			switch {
			case c.Kind == results.ChartLine:
				cs.Line.Width = 2.25
			case dots:
				cs.Line = excelize.LineOptions{Type: excelize.LineNone}
			}
		}
		series = append(series, cs)
		if sc[k].minus > 0 {
			mi, pl := colName(sc[k].minus), colName(sc[k].plus)
			refs = append(refs, [2]string{fmt.Sprintf("%s!$%s$%d:$%s$%d", q, mi, head+1, mi, last), fmt.Sprintf("%s!$%s$%d:$%s$%d", q, pl, head+1, pl, last)})
		} else {
			refs = append(refs, [2]string{})
		}
	}
	if refCol > 0 {
		r := colName(refCol)
		series = append(series, excelize.ChartSeries{
			Name:       fmt.Sprintf("%s!$%s$%d", q, r, head),
			Categories: fmt.Sprintf("%s!$A$%d:$A$%d", q, head+1, last),
			Values:     fmt.Sprintf("%s!$%s$%d:$%s$%d", q, r, head+1, r, last),
			Fill:       excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"7F7F7F"}}, // the line's colour
			Marker:     excelize.ChartMarker{Symbol: "none"},
			Line:       excelize.LineOptions{Type: excelize.LineSolid, Dash: excelize.LineDashDash, Width: 1.5},
		})
		refs = append(refs, [2]string{})
	}
	return series, refs
}

// seriesChartStyle is the chart of series: title, legend (none for one
// series), the value axis's number format and range by unit, dots kept
// with labels at the bottom, or bars running sideways.
func seriesChartStyle(c results.ChartSpec, series []excelize.ChartSeries, dots bool) *excelize.Chart {
	dark := "262626"
	format := unitFormats[c.Unit]
	switch c.Unit {
	case results.UnitRate:
		format = "0%"
	case results.UnitPP:
		format = `+0" pp";-0" pp";0" pp"`
	case results.UnitNumber, "":
		format = "0.0##"
	}
	ch := &excelize.Chart{
		Type:      excelize.Line,
		Series:    series,
		Format:    excelize.GraphicOptions{OffsetX: 4, OffsetY: 4},
		Title:     excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: c.Title, Font: &excelize.Font{Bold: true, Size: 12, Color: dark}}}},
		Legend:    excelize.ChartLegend{Position: "bottom", Font: &excelize.Font{Size: 9, Color: dark}},
		XAxis:     excelize.ChartAxis{Font: excelize.Font{Size: 9, Color: dark}},
		YAxis:     excelize.ChartAxis{MajorGridLines: true, NumFmt: excelize.ChartNumFmt{CustomNumFmt: format}, Font: excelize.Font{Size: 9, Color: dark}},
		Dimension: excelize.ChartDimension{Width: 560, Height: 300},
	}
	if c.Unit == results.UnitRate {
		zero, one := 0.0, 1.0
		ch.YAxis.Minimum, ch.YAxis.Maximum = &zero, &one
	}
	if dots {
		// Category labels at the bottom even where values are negative.
		ch.XAxis.TickLabelPosition = excelize.ChartTickLabelLow
		if a, z, step, ok := dotsAxis(c); ok && c.Unit != results.UnitRate { // a rate's axis stays 0 to 1
			ch.YAxis.Minimum, ch.YAxis.Maximum, ch.YAxis.MajorUnit = &a, &z, step
		}
	}
	if c.Kind == results.ChartBars && !dots {
		ch.Type = excelize.Bar
		ch.XAxis.ReverseOrder = true
		gap := uint(50)
		ch.GapWidth = &gap
		no := false
		ch.VaryColors = &no
		ch.Dimension.Height = uint(min(110+len(c.Categories)*(len(c.Series)*16+10), 1400))
	}
	if len(c.Series) < 2 {
		ch.Legend.Position = "none"
	}
	return ch
}

// addSeriesChart draws ch on sheet at cell at, then edits the chart part
// it added: custom error bars from refs when a series has intervals, and
// a dots chart's category axis crossing at the reference.
func (b *book) addSeriesChart(sheet, at string, ch *excelize.Chart, c results.ChartSpec, refs [][2]string, dots bool) error {
	before := chartParts(b.f)
	if err := b.f.AddChart(sheet, at, ch); err != nil {
		return err
	}
	var added []string
	for p := range chartParts(b.f) {
		if !before[p] {
			added = append(added, p)
		}
	}
	withCI := false
	for _, r := range refs {
		withCI = withCI || r[0] != ""
	}
	if withCI && len(added) == 1 {
		if err := addSeriesErrorBars(b.f, added[0], refs); err != nil {
			return err
		}
	}
	if dots && c.Reference != nil && len(added) == 1 {
		if err := crossAxisAt(b.f, added[0], unitValue(c.Unit, *c.Reference)); err != nil {
			return err
		}
	}
	return nil
}

// referenceName heads the column of a chart's reference line, and names
// the dashed line in its legend.
const referenceName = "reference line"

// dotsAxis fits the value axis of a dots chart (a rating or a
// difference) to its intervals and its reference, at round steps: the
// range padded by 8% each side, then out to whole steps of 1, 2 or
// 5 times a power of ten, about six of them. ok is false when there is
// nothing to fit.
func dotsAxis(c results.ChartSpec) (lo, hi, step float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range c.Series {
		for _, p := range s.Points {
			if p.Missing {
				continue
			}
			lo, hi = min(lo, p.Value), max(hi, p.Value)
			if p.HasCI {
				lo, hi = min(lo, p.Low), max(hi, p.High)
			}
		}
	}
	if c.Reference != nil {
		lo, hi = min(lo, *c.Reference), max(hi, *c.Reference)
	}
	if math.IsInf(lo, 0) || !(hi > lo) {
		return 0, 0, 0, false
	}
	pad := (hi - lo) * 0.08
	a, z := unitValue(c.Unit, lo-pad), unitValue(c.Unit, hi+pad)
	raw := (z - a) / 6
	pow := math.Pow(10, math.Floor(math.Log10(raw)))
	step = 10 * pow
	for _, m := range []float64{1, 2, 5} {
		if m*pow >= raw {
			step = m * pow
			break
		}
	}
	return math.Floor(a/step) * step, math.Ceil(z/step) * step, step, true
}

// crossAxisAt draws the category axis of a chart part as a dashed grey
// line where the value axis reads v: the chart's reference line.
// excelize (v2.11) sets neither where an axis crosses nor its dash, so
// the chart's XML is edited: in catAx, crosses (autoZero) becomes
// crossesAt v (ECMA-376 Part 1, 21.2.2.34 crossesAt, one of the
// crosses/crossesAt choice), and the axis's spPr line gets a preset dash.
func crossAxisAt(f *excelize.File, part string, v float64) error {
	x, ok := f.Pkg.Load(part)
	if !ok {
		return fmt.Errorf("chart part %s not found", part)
	}
	src, ok := x.([]byte)
	if !ok {
		return fmt.Errorf("chart part %s is not bytes", part)
	}
	start := bytes.Index(src, []byte("<catAx>"))
	end := bytes.Index(src, []byte("</catAx>"))
	if start < 0 || end < start {
		return fmt.Errorf("chart part %s has no category axis", part)
	}
	ax := src[start:end]
	sp0, sp1 := bytes.Index(ax, []byte("<spPr>")), bytes.Index(ax, []byte("</spPr>"))
	cr := bytes.Index(ax, []byte(`<crosses val="autoZero"></crosses>`))
	if sp0 < 0 || sp1 < sp0 || cr < sp1 {
		return fmt.Errorf("chart part %s: its category axis is not as excelize v2.11 writes it", part)
	}
	var out bytes.Buffer
	out.Write(src[:start])
	out.Write(ax[:sp0])
	out.WriteString(`<spPr><a:ln w="15875"><a:solidFill><a:srgbClr val="595959"/></a:solidFill><a:prstDash val="dash"/></a:ln></spPr>`)
	out.Write(ax[sp1+len("</spPr>") : cr])
	out.WriteString(`<crossesAt val="` + strconv.FormatFloat(v, 'g', -1, 64) + `"/>`)
	out.Write(ax[cr+len(`<crosses val="autoZero"></crosses>`):])
	out.Write(src[end:])
	f.Pkg.Store(part, out.Bytes())
	return nil
}

// addSeriesErrorBars is addErrorBars for series of which some have no
// interval (an empty pair): those are passed over.
func addSeriesErrorBars(f *excelize.File, part string, refs [][2]string) error {
	all := true
	for _, r := range refs {
		all = all && r[0] != ""
	}
	if all {
		return addErrorBars(f, part, refs)
	}
	// Only a prefix of series with intervals can be given to addErrorBars,
	// which edits series in order; the charts here give all or none.
	var prefix [][2]string
	for _, r := range refs {
		if r[0] == "" {
			break
		}
		prefix = append(prefix, r)
	}
	if len(prefix) == 0 {
		return nil
	}
	return addErrorBars(f, part, prefix)
}

// heatGrid writes a heatmap as a grid of numbers formatted for its unit
// (a mark beside a value is part of that cell's format) under a colour
// scale: Excel and LibreOffice colour the cells themselves.
func (b *book) heatGrid(g *grid, c results.ChartSpec, row int, us *unitStyles) (int, error) {
	head := row
	g.set(1, head, "", b.st.header)
	for j, col := range c.Columns {
		g.set(2+j, head, col, b.st.headerNum)
	}
	for i, name := range c.Rows {
		r := head + 1 + i
		g.set(1, r, name, b.st.lineLabel)
		for j := range c.Columns {
			if i >= len(c.Cells) || j >= len(c.Cells[i]) || math.IsNaN(c.Cells[i][j]) {
				continue
			}
			mark := ""
			if i < len(c.Marks) && j < len(c.Marks[i]) {
				mark = c.Marks[i][j]
			}
			v := c.Cells[i][j]
			st, err := us.lineStyle(c.Unit, mark, v)
			if err != nil {
				return row, err
			}
			g.set(2+j, r, unitValue(c.Unit, v), st)
		}
	}
	if g.err != nil {
		return row, g.err
	}
	last := head + len(c.Rows)
	if len(c.Rows) > 0 && len(c.Columns) > 0 {
		lo, hi := "F8696B", "63BE7B"
		scale := excelize.ConditionalFormatOptions{Type: "3_color_scale", Criteria: "=", MinType: "min", MidType: "percentile", MidValue: "50", MaxType: "max",
			MinColor: "#" + lo, MidColor: "#FFEB84", MaxColor: "#" + hi}
		if !c.Diverging {
			scale = excelize.ConditionalFormatOptions{Type: "2_color_scale", Criteria: "=", MinType: "min", MaxType: "max", MinColor: "#EFF3FF", MaxColor: "#6BAED6"}
		}
		ref := cell(2, head+1) + ":" + cell(1+len(c.Columns), last)
		if err := b.f.SetConditionalFormat(g.sheet, ref, []excelize.ConditionalFormatOptions{scale}); err != nil {
			return row, err
		}
		for j := range c.Columns {
			w := max(9, float64(displayWidth(c.Columns[j]))+2)
			cn := colName(2 + j)
			if err := b.f.SetColWidth(g.sheet, cn, cn, min(w, 18)); err != nil {
				return row, err
			}
		}
	}
	return last + 1, nil
}
