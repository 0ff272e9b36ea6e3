package xlsxreport

import (
	"fmt"
	"io"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// tableSheet writes a results.Table on a sheet of its own: title, note,
// a header row and the rows, number and rate columns as numbers (rates
// formatted as percentages), text as text.
// Its errors name the table once.
func (b *book) tableSheet(t *results.Table) error {
	if err := t.Check(); err != nil {
		return err // it names the table
	}
	if err := b.tableRows(t); err != nil {
		return fmt.Errorf("table %q: %w", t.Title, err)
	}
	return nil
}

// tableRows writes the sheet of tableSheet.
func (b *book) tableRows(t *results.Table) error {
	name := b.tableSheetName(t.Title)
	if err := b.addSheet(name); err != nil {
		return err
	}
	b.tableTitles[name] = t.Title
	if t.Review != nil {
		if b.rowSheets == nil {
			b.rowSheets = map[string]bool{}
		}
		b.rowSheets[name] = true
	}
	tw := &tableWriter{b: b, g: b.grid(name), t: t, widths: tableWidths(t), verdict: verdictColumns(t)}
	g := tw.g
	g.widths(tw.widths...)
	total := 0.0
	for _, w := range tw.widths {
		total += w
	}
	last := max(len(t.Columns), 1)
	g.set(1, 1, t.Title, b.st.title)
	row := 2
	if t.Note != "" {
		g.text(1, last, row, t.Note, b.st.muted, max(total, 60))
		row++
	}
	row++
	head := row
	tw.header(head)
	for k := range t.Rows {
		row++
		if err := tw.row(k, row); err != nil {
			return err
		}
	}
	if g.err != nil {
		return g.err
	}
	b.printTitles[name] = head
	return b.f.SetPanes(name, &excelize.Panes{Freeze: true, YSplit: head, TopLeftCell: cell(1, head+1), ActivePane: "bottomLeft"})
}

// tableWidths fits each column of t to its header and cells, 8 to 50
// characters; text of a table of rows to review (model text) at most 40,
// as it wraps in its row.
func tableWidths(t *results.Table) []float64 {
	widths := make([]float64, len(t.Columns))
	for i, c := range t.Columns {
		w := float64(displayWidth(c.Name)) + 2
		for k := range t.Rows {
			w = max(w, float64(displayWidth(t.Cell(k, i)))+2)
		}
		widths[i] = min(max(w, 8), 50)
		if t.Review != nil && !results.IsNumeric(c.Kind) {
			widths[i] = min(widths[i], 40) // model text wraps in its row
		}
	}
	return widths
}

// tableWriter writes a table's header and rows on its sheet.
type tableWriter struct {
	b       *book
	g       *grid
	t       *results.Table
	widths  []float64
	verdict []bool      // verdictColumns: the columns centred as verdicts
	us      *unitStyles // the styles of the kinds beyond number and rate, made when needed
}

// header writes the column names on row: verdict columns centred,
// numeric ones right-aligned.
func (tw *tableWriter) header(row int) {
	st := tw.b.st
	for c, col := range tw.t.Columns {
		hs := st.header
		switch {
		case tw.verdict[c]:
			hs = st.headerCenter
		case results.IsNumeric(col.Kind):
			hs = st.headerNum
		}
		tw.g.set(c+1, row, col.Name, hs)
	}
}

// row writes the table's row k on the sheet's row: rows to review are
// tall enough for their wrapped text, a row of one line is
// bottom-aligned (see styles.lineText), numbers are written as numbers in
// their kind's format, anything else as wrapped text.
func (tw *tableWriter) row(k, row int) error {
	b, g, t, widths := tw.b, tw.g, tw.t, tw.widths
	r := t.Rows[k]
	if t.Review != nil { // rows to read: tall enough for their wrapped text
		h := 0.0
		for c, v := range r {
			if !results.IsNumeric(t.Columns[c].Kind) {
				h = max(h, rowHeight(v, widths[c]))
			}
		}
		if h > 18 && g.err == nil {
			g.err = b.f.SetRowHeight(g.sheet, row, h)
		}
	}
	// A row of one line is bottom-aligned (see styles.lineText).
	oneLine := true
	for c := range t.Columns {
		if _, ok := results.Number(r[c]); !ok && textLines(r[c], widths[c]) > 1 {
			oneLine = false
		}
	}
	wrap, percent := b.st.wrap, b.st.percent
	if oneLine {
		wrap, percent = b.st.lineWrap, b.st.linePercent
	}
	for c := range t.Columns {
		v := r[c]
		x, ok := results.Number(v)
		kind := t.Kind(k, c)
		switch {
		case v == "":
		case kind == results.KindRate && ok:
			g.set(c+1, row, x, percent)
		case kind == results.KindNumber && ok && tw.verdict[c]:
			st := b.st.center
			if oneLine {
				st = b.st.lineCenter
			}
			g.set(c+1, row, x, st)
		case results.IsNumeric(kind) && ok:
			// A number as the page shows it (unitFormats: three
			// decimals or a whole number with separators, U+2212).
			if tw.us == nil {
				tw.us = &unitStyles{f: b.f, cache: map[string]int{}}
			}
			st, err := tw.us.style(kind, "", false, x)
			if oneLine {
				st, err = tw.us.lineStyle(kind, "", x)
			}
			if err != nil {
				return err
			}
			g.set(c+1, row, unitValue(kind, x), st)
		default:
			g.set(c+1, row, v, wrap)
		}
	}
	return nil
}

// verdictColumns marks the columns of a table to read (a Review) that
// hold verdicts, numbers that are all 0 or 1: they are centred between
// the id and the text beside them.
func verdictColumns(t *results.Table) []bool {
	v := make([]bool, len(t.Columns))
	if t.Review == nil || len(t.Rows) == 0 {
		return v
	}
	for c, col := range t.Columns {
		v[c] = col.Kind == results.KindNumber
		for _, r := range t.Rows {
			if x := r[c]; x != "0" && x != "1" && x != "" {
				v[c] = false
				break
			}
		}
	}
	return v
}

// WriteTables writes a workbook of tables alone, one sheet each, for
// results that have no dedicated layout (agree, compare, calibrate): a
// first sheet names the workbook and lists the tables.
func WriteTables(w io.Writer, title string, tables []results.Table) error {
	if len(tables) == 0 {
		return fmt.Errorf("xlsxreport: no tables to write")
	}
	b := &book{f: excelize.NewFile(), s: &results.Score{Title: title}, printTitles: map[string]int{}, printAreas: map[string]string{}, printedRows: map[string]int{}, tableTitles: map[string]string{}}
	defer b.f.Close()
	var err error
	if b.st, err = newStyles(b.f); err != nil {
		return err
	}
	if err := b.f.SetSheetName("Sheet1", "Contents"); err != nil {
		return err
	}
	b.order = append(b.order, "Contents")
	if err := b.printLayout("Contents"); err != nil {
		return err
	}
	for i := range tables {
		if err := b.tableSheet(&tables[i]); err != nil {
			return err
		}
	}
	g := b.grid("Contents")
	g.widths(34, 90)
	g.set(1, 1, title, b.st.title)
	g.set(1, 3, "sheet", b.st.header)
	g.set(2, 3, "what it holds", b.st.header)
	for i, name := range b.order[1:] {
		g.set(1, 4+i, name, b.st.label)
		g.text(2, 2, 4+i, strings.TrimSpace(tables[i].Title+". "+tables[i].Note), b.st.wrap, 90)
	}
	if g.err != nil {
		return g.err
	}
	if err := b.finish(); err != nil {
		return err
	}
	return b.save(w)
}
