package xlsxreport

import (
	"math"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// styles holds the cell style ids of a workbook.
type styles struct {
	title, subtitle, section, header, label, text, wrap, muted int
	center, indent, pctCenter, headerNum, headerCenter         int
	headerIndent, intLeft, words                               int
	integer, decimal, percent, general                         int
	totalLabel, totalInt, totalPct, totalDec                   int
	pass, fail                                                 int // conditional formats
	// The same cells bottom-aligned, for rows of one line. LibreOffice
	// sets a cell's line by the ascent (top-aligned) or descent (bottom-
	// aligned) of the font that draws it, not by a shared baseline; Noto
	// Sans Bengali and Devanagari have a smaller ascent (0.92, 0.90 em)
	// and a larger descent (0.41 em) than Noto Sans (1.07, 0.29), so a
	// Hindi or Bengali cell sits above the numbers beside it: about 2.0 pt
	// at 11 pt top-aligned, 1.2 pt bottom-aligned (measured in its PDF;
	// issue 27). A cell mixing Latin and Indic text sat on the baseline
	// top-aligned and sits 1.2 pt high bottom-aligned, so this lowers the
	// worst offset, it does not remove it. Rows whose text wraps stay
	// top-aligned, so that a reader finds the start of every cell.
	lineText, lineWrap, lineLabel, lineInteger, lineGeneral, linePercent, lineDecimal, lineCenter int
}

const (
	// bodyFont is named in every cell font, as the workbook's default
	// font is: a font without a name is drawn in the reader's default
	// (LibreOffice: a serif), so the headings looked unlike the body.
	bodyFont   = "Calibri"
	headerFill = "DCE6F1"
	lineColor  = "8EA9C8"
)

func newStyles(f *excelize.File) (styles, error) {
	var st styles
	var err error
	add := func(dst *int, s *excelize.Style) {
		if err != nil {
			return
		}
		*dst, err = f.NewStyle(s)
	}
	top := &excelize.Alignment{Vertical: "top"}
	wrapTop := &excelize.Alignment{Vertical: "top", WrapText: true}
	pctFmt, decFmt := "0.0%", "0.000"
	totalBorder := []excelize.Border{{Type: "top", Color: "404040", Style: 1}}
	add(&st.title, &excelize.Style{Font: &excelize.Font{Family: bodyFont, Bold: true, Size: 16, Color: "1F3864"}})
	add(&st.subtitle, &excelize.Style{Font: &excelize.Font{Family: bodyFont, Italic: true, Color: "595959"}, Alignment: top})
	add(&st.section, &excelize.Style{Font: &excelize.Font{Family: bodyFont, Bold: true, Size: 13, Color: "1F3864"},
		Border: []excelize.Border{{Type: "bottom", Color: lineColor, Style: 1}}})
	add(&st.header, &excelize.Style{
		Font:      &excelize.Font{Family: bodyFont, Bold: true},
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{headerFill}},
		Alignment: &excelize.Alignment{Vertical: "center", WrapText: true},
		Border:    []excelize.Border{{Type: "bottom", Color: lineColor, Style: 1}},
	})
	for _, h := range []struct {
		dst   *int
		align string
	}{{&st.headerNum, "right"}, {&st.headerCenter, "center"}} {
		add(h.dst, &excelize.Style{
			Font:      &excelize.Font{Family: bodyFont, Bold: true},
			Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{headerFill}},
			Alignment: &excelize.Alignment{Vertical: "center", Horizontal: h.align, WrapText: true},
			Border:    []excelize.Border{{Type: "bottom", Color: lineColor, Style: 1}},
		})
	}
	add(&st.headerIndent, &excelize.Style{
		Font:      &excelize.Font{Family: bodyFont, Bold: true},
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{headerFill}},
		Alignment: &excelize.Alignment{Vertical: "center", Horizontal: "left", WrapText: true, Indent: 2},
		Border:    []excelize.Border{{Type: "bottom", Color: lineColor, Style: 1}},
	})
	add(&st.intLeft, &excelize.Style{NumFmt: 1, Alignment: &excelize.Alignment{Vertical: "top", Horizontal: "left"}})
	add(&st.label, &excelize.Style{Font: &excelize.Font{Family: bodyFont, Bold: true}, Alignment: top})
	add(&st.text, &excelize.Style{Alignment: top})
	add(&st.wrap, &excelize.Style{Alignment: wrapTop})
	add(&st.muted, &excelize.Style{Font: &excelize.Font{Family: bodyFont, Color: "595959"}, Alignment: wrapTop})
	add(&st.integer, &excelize.Style{NumFmt: 3, Alignment: top}) // #,##0: 100,000
	add(&st.center, &excelize.Style{NumFmt: 1, Alignment: &excelize.Alignment{Vertical: "top", Horizontal: "center"}})
	add(&st.indent, &excelize.Style{Alignment: &excelize.Alignment{Vertical: "top", WrapText: true, Indent: 1}})
	add(&st.words, &excelize.Style{Alignment: &excelize.Alignment{Vertical: "top", Horizontal: "left", WrapText: true, Indent: 2}})
	add(&st.decimal, &excelize.Style{CustomNumFmt: &decFmt, Alignment: top})
	add(&st.general, &excelize.Style{Alignment: top})
	add(&st.percent, &excelize.Style{CustomNumFmt: &pctFmt, Alignment: top})
	add(&st.pctCenter, &excelize.Style{CustomNumFmt: &pctFmt, Alignment: &excelize.Alignment{Vertical: "top", Horizontal: "center"}})
	bottom := &excelize.Alignment{Vertical: "bottom"}
	add(&st.lineText, &excelize.Style{Alignment: bottom})
	add(&st.lineWrap, &excelize.Style{Alignment: &excelize.Alignment{Vertical: "bottom", WrapText: true}})
	add(&st.lineLabel, &excelize.Style{Font: &excelize.Font{Family: bodyFont, Bold: true}, Alignment: bottom})
	add(&st.lineInteger, &excelize.Style{NumFmt: 3, Alignment: bottom})
	add(&st.lineGeneral, &excelize.Style{Alignment: bottom})
	add(&st.linePercent, &excelize.Style{CustomNumFmt: &pctFmt, Alignment: bottom})
	add(&st.lineDecimal, &excelize.Style{CustomNumFmt: &decFmt, Alignment: bottom})
	add(&st.lineCenter, &excelize.Style{NumFmt: 1, Alignment: &excelize.Alignment{Vertical: "bottom", Horizontal: "center"}})
	add(&st.totalLabel, &excelize.Style{Font: &excelize.Font{Family: bodyFont, Bold: true}, Border: totalBorder})
	add(&st.totalInt, &excelize.Style{Font: &excelize.Font{Family: bodyFont, Bold: true}, NumFmt: 3, Border: totalBorder})
	add(&st.totalPct, &excelize.Style{Font: &excelize.Font{Family: bodyFont, Bold: true}, CustomNumFmt: &pctFmt, Border: totalBorder})
	add(&st.totalDec, &excelize.Style{Font: &excelize.Font{Family: bodyFont, Bold: true}, CustomNumFmt: &decFmt, Border: totalBorder})
	if err != nil {
		return st, err
	}
	st.pass, err = f.NewConditionalStyle(&excelize.Style{
		Font: &excelize.Font{Color: "006100"},
		Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"C6EFCE"}},
	})
	if err != nil {
		return st, err
	}
	st.fail, err = f.NewConditionalStyle(&excelize.Style{
		Font: &excelize.Font{Color: "9C0006"},
		Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FFC7CE"}},
	})
	return st, err
}

// grid writes cells in normal mode, keeping the first error, so that
// layout code reads as a list of cells.
type grid struct {
	f     *excelize.File
	sheet string
	err   error
	// fonts, when set, writes a row that holds Indic text in that
	// script's font (scriptfont.go); row, family and cells follow the row
	// being written.
	fonts  *fontStyles
	row    int
	family string
	cells  []cellStyle
}

// cellStyle is a cell of the row being written and its style.
type cellStyle struct{ col, style int }

// set writes v (a string is always stored as text) with a style.
func (g *grid) set(col, row int, v any, style int) {
	if g.err != nil {
		return
	}
	style = g.rowFont(col, row, v, style)
	if g.err != nil {
		return
	}
	ref := cell(col, row)
	switch x := v.(type) {
	case string:
		g.err = g.f.SetCellStr(g.sheet, ref, x)
	case float64:
		// Full precision: excelize's default rounds to Excel's 15
		// significant digits, and the workbook should hold the same
		// figures as the JSON result.
		g.err = g.f.SetCellFloat(g.sheet, ref, x, decimals(x), 64)
	case nil:
	default:
		g.err = g.f.SetCellValue(g.sheet, ref, v)
	}
	if g.err == nil && style != 0 {
		g.err = g.f.SetCellStyle(g.sheet, ref, ref, style)
	}
}

// text writes a long text into columns from..to of row, merged and
// wrapped, and sets the row's height so that every line shows (Excel
// does not grow merged rows by itself). width is the merged width in
// characters.
func (g *grid) text(from, to, row int, s string, style int, width float64) {
	g.set(from, row, s, style)
	if g.err != nil {
		return
	}
	if to > from {
		if g.family != "" {
			style, g.err = g.fonts.in(style, g.family)
		}
		if g.err == nil {
			g.err = g.f.MergeCell(g.sheet, cell(from, row), cell(to, row))
		}
		if g.err == nil && style != 0 {
			g.err = g.f.SetCellStyle(g.sheet, cell(from, row), cell(to, row), style)
		}
	}
	if g.err == nil {
		g.err = g.f.SetRowHeight(g.sheet, row, rowHeight(s, width))
	}
}

// decimals returns the number of decimals that print x exactly (the
// shortest representation that reads back as x).
func decimals(x float64) int {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

// widths sets column widths in characters, from column 1.
func (g *grid) widths(w ...float64) {
	for i, x := range w {
		if g.err == nil {
			c := colName(i + 1)
			g.err = g.f.SetColWidth(g.sheet, c, c, x)
		}
	}
}

// rowHeight estimates the height in points of a wrapped cell of the given
// width (in characters) holding s: 15 points a line, at least one line.
func rowHeight(s string, width float64) float64 {
	return math.Min(409, float64(textLines(s, width))*15+3)
}

// textLines estimates the lines s takes when wrapped in a cell of the
// given width in characters (proportional text runs about 10% narrower
// than the width unit, the digit 0).
func textLines(s string, width float64) int {
	perLine := math.Max(8, width*1.1)
	lines := 0
	for p := range strings.SplitSeq(s, "\n") {
		lines += max(1, int(math.Ceil(float64(displayWidth(p))/perLine)))
	}
	return lines
}
