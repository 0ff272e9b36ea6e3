package xlsxreport

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// sampleRows is how many rows are read before writing, to size the columns.
const sampleRows = 500

// maxCellChars is the most characters (UTF-16 units) an Excel cell holds.
const maxCellChars = excelize.TotalCellChars

// verdictSheets streams the verdict rows into the Verdicts sheets and the
// rows where metrics disagree into the Disagreements sheets.
func (b *book) verdictSheets() error {
	schema := b.rows.Schema()
	if schema == nil {
		return fmt.Errorf("%s: no rows, the result has %d", b.opt.VerdictsName, b.s.Combined.N)
	}
	vs := &verdictStream{b: b, schema: schema, errs: make(chan error, 2)}
	readErr := vs.read()
	if !vs.started {
		if readErr != nil {
			return readErr
		}
		if err := vs.start(); err != nil {
			return err
		}
	}
	if err := vs.finish(); err != nil {
		return err
	}
	if readErr != nil {
		return readErr
	}
	if vs.n != b.s.Combined.N {
		return fmt.Errorf("%s has %d rows but the result has %d: is it the verdict file of this result?", b.opt.VerdictsName, vs.n, b.s.Combined.N)
	}
	return vs.closeSheets()
}

// verdictStream feeds the verdict rows to the writers of the Verdicts
// and Disagreements sheets. The two are independent streams: each is
// written by its own goroutine, fed in batches, while the reader reads
// the rows, so that two cores share the work.
type verdictStream struct {
	b                  *book
	schema             *results.RowSchema
	verdicts, disagree *rowSheets // disagree nil with fewer than two binary metrics
	failed             atomic.Bool
	errs               chan error // each writer's error (or nil) when its channel closes
	verCh, disCh       chan []numbered
	workers            int

	n      int        // rows sent
	vb, db []numbered // the batches being filled

	// The first rows, read before writing to size the columns, and
	// whether each is a disagreement; started once the writers run.
	sample    [][]string
	sampleDis []bool
	started   bool
}

// verdictBatch is how many rows go to a sheet writer at a time.
const verdictBatch = 512

// read reads every row: the first sampleRows into the sample, then the
// writers are started and the rows sent. It stops early, without an
// error, when a writer has failed.
func (vs *verdictStream) read() error {
	schema := vs.schema
	for r, err := range vs.b.rows.All() {
		if err != nil {
			return err
		}
		rec := schema.AppendCells(make([]string, 0, len(schema.Header)), r)
		if vs.started {
			if vs.failed.Load() {
				return nil
			}
			vs.send(rec, schema.Disagree(r))
			continue
		}
		vs.sample = append(vs.sample, rec)
		vs.sampleDis = append(vs.sampleDis, schema.Disagree(r))
		if len(vs.sample) == sampleRows {
			if err := vs.start(); err != nil {
				return err
			}
		}
	}
	return nil
}

// start lays out the columns from the sample of the first rows, starts
// the sheet writers and sends them the sample. A mutex serialises the
// workbook-level calls (new sheets, tables) of continuation sheets.
func (vs *verdictStream) start() error {
	b := vs.b
	lay := layoutColumns(vs.schema, vs.sample)
	vs.verdicts = &rowSheets{b: b, base: "Verdicts", table: "Verdicts", lay: lay}
	if vs.schema.Binary() >= 2 {
		vs.disagree = &rowSheets{b: b, base: "Disagreements", table: "Disagreements", lay: lay.withRowColumn()}
	}
	// Create both first sheets now, so they keep this order.
	if err := vs.verdicts.open(); err != nil {
		return err
	}
	if vs.disagree != nil {
		if err := vs.disagree.open(); err != nil {
			return err
		}
	}
	// The rows' styles in each Indic font, made here in a fixed
	// order: the sheets are written by two goroutines, which only
	// read this map.
	fonted, err := b.fontedStyles(b.st.text, b.st.wrap, b.st.integer, b.st.general, b.st.lineText, b.st.lineWrap, b.st.lineInteger, b.st.lineGeneral)
	if err != nil {
		return err
	}
	vs.verdicts.fonted = fonted
	if vs.disagree != nil {
		vs.disagree.fonted = fonted
	}
	var mu sync.Mutex
	vs.verdicts.mu = &mu
	vs.verCh = make(chan []numbered, 8)
	go vs.consume(vs.verdicts, vs.verCh)
	vs.workers = 1
	if vs.disagree != nil {
		vs.disagree.mu = &mu
		vs.disCh = make(chan []numbered, 8)
		go vs.consume(vs.disagree, vs.disCh)
		vs.workers++
	}
	vs.started = true
	for i, rec := range vs.sample {
		vs.send(rec, vs.sampleDis[i])
	}
	return nil
}

// consume writes the batches of ch into r until ch closes, then reports
// the first error; after an error it keeps draining, so the reader never
// blocks.
func (vs *verdictStream) consume(r *rowSheets, ch <-chan []numbered) {
	var err error
	for batch := range ch {
		for _, x := range batch {
			if err != nil {
				break // keep draining, so the reader never blocks
			}
			if err = r.write(x.rec, x.n); err != nil {
				vs.failed.Store(true)
			}
		}
	}
	vs.errs <- err
}

// send numbers a row and adds it to the Verdicts batch, and to the
// Disagreements one when it is a disagreement; a full batch is sent.
func (vs *verdictStream) send(rec []string, dis bool) {
	vs.n++
	vs.vb = append(vs.vb, numbered{rec, vs.n})
	if vs.disCh != nil && dis {
		vs.db = append(vs.db, numbered{rec, vs.n})
	}
	if len(vs.vb) == verdictBatch {
		vs.verCh <- vs.vb
		vs.vb = nil
	}
	if len(vs.db) == verdictBatch {
		vs.disCh <- vs.db
		vs.db = nil
	}
}

// finish sends the last batches, closes the writers' channels and waits
// for them; it returns the first writer's error.
func (vs *verdictStream) finish() error {
	vs.verCh <- vs.vb
	close(vs.verCh)
	if vs.disCh != nil {
		vs.disCh <- vs.db
		close(vs.disCh)
	}
	var writeErr error
	for range vs.workers {
		if err := <-vs.errs; err != nil && writeErr == nil {
			writeErr = err
		}
	}
	return writeErr
}

// closeSheets closes the Verdicts and Disagreements sheets and notes on
// the Summary how they continue, what was cut, and why there is no
// Disagreements sheet.
func (vs *verdictStream) closeSheets() error {
	b, verdicts, disagree := vs.b, vs.verdicts, vs.disagree
	if err := verdicts.close(); err != nil {
		return err
	}
	b.info.VerdictRows = verdicts.rows
	b.info.Clipped = verdicts.clipped
	if len(verdicts.sheets) > 1 {
		b.notes = append(b.notes, fmt.Sprintf("The %d verdict rows continue over %d sheets (%s), because an Excel sheet holds at most %d rows including its header.",
			verdicts.rows, len(verdicts.sheets), strings.Join(verdicts.sheets, ", "), b.opt.RowsPerSheet))
	}
	if verdicts.clipped > 0 {
		b.notes = append(b.notes, fmt.Sprintf("%d text cells were longer than the %d characters an Excel cell holds and were cut; the verdict CSV has them in full.", verdicts.clipped, maxCellChars))
	}
	if disagree == nil {
		b.notes = append(b.notes, "No Disagreements sheet: disagreement needs at least two binary metrics.")
		return nil
	}
	if disagree.rows == 0 {
		disagree.note("No row where the metrics disagree: every row passes all binary metrics or fails them all.")
	}
	if err := disagree.close(); err != nil {
		return err
	}
	b.info.Disagreements = disagree.rows
	if len(disagree.sheets) > 1 {
		b.notes = append(b.notes, fmt.Sprintf("The %d disagreement rows continue over %d sheets (%s).", disagree.rows, len(disagree.sheets), strings.Join(disagree.sheets, ", ")))
	}
	return nil
}

// numbered is a verdict row with its place (1-based) in the file.
type numbered struct {
	rec []string
	n   int
}

// layout is the column layout of a verdict sheet.
type layout struct {
	header  []string // unique, non-empty (an Excel table needs that)
	widths  []float64
	wrap    []bool
	numeric []bool
	metric  []int // columns of metric verdicts, with graded[i]
	graded  []bool
	rowCol  bool // a leading "row" column holds the data row number
}

// layoutColumns sizes the columns from the header and a sample of rows:
// text columns as wide as most of their values (up to 40 characters,
// wrapped beyond), figures as wide as their header.
func layoutColumns(s *results.RowSchema, sample [][]string) layout {
	l := layout{header: uniqueHeader(s.Header), numeric: s.Numeric}
	l.metric = s.MetricCol
	l.graded = s.Graded
	for c, h := range l.header {
		hw := float64(displayWidth(h))*1.15 + 2 // bold header text is wider
		if l.numeric[c] {
			l.widths = append(l.widths, min(max(hw, 7), 20))
			l.wrap = append(l.wrap, false)
			continue
		}
		var lens []int
		for _, r := range sample {
			lens = append(lens, displayWidth(r[c]))
		}
		sort.Ints(lens)
		w := 0.0
		if len(lens) > 0 {
			w = float64(lens[len(lens)*9/10]) + 2 // the 90th percentile
		}
		w = min(max(w, hw, 8), 40)
		l.widths = append(l.widths, w)
		wrap := false
		if len(lens) > 0 && float64(lens[len(lens)-1]) > w {
			wrap = true
		}
		l.wrap = append(l.wrap, wrap)
	}
	return l
}

// withRowColumn returns l with a leading "row" column.
func (l layout) withRowColumn() layout {
	out := layout{rowCol: true, graded: l.graded}
	out.header = uniqueHeader(append([]string{"row"}, l.header...))
	out.widths = append([]float64{8}, l.widths...)
	out.wrap = append([]bool{false}, l.wrap...)
	out.numeric = append([]bool{true}, l.numeric...)
	for _, c := range l.metric {
		out.metric = append(out.metric, c+1)
	}
	return out
}

// uniqueHeader makes header names non-empty and unique (case-insensitively,
// as Excel tables require) by numbering repeats.
func uniqueHeader(h []string) []string {
	out := make([]string, len(h))
	seen := map[string]bool{}
	for i, s := range h {
		s = strings.TrimSpace(strings.NewReplacer("\n", " ", "\r", " ").Replace(s))
		if s == "" {
			s = fmt.Sprintf("column %d", i+1)
		}
		base := s
		for n := 2; seen[strings.ToLower(s)]; n++ {
			s = fmt.Sprintf("%s (%d)", base, n)
		}
		seen[strings.ToLower(s)] = true
		out[i] = s
	}
	return out
}

// rowSheets writes rows with the stream writer onto a sheet, continuing on
// "<base> (2)", "<base> (3)", ... when a sheet is full.
type rowSheets struct {
	b       *book
	fonted  map[fontKey]int // the row styles in each Indic font (scriptfont.go)
	base    string
	table   string
	lay     layout
	sheets  []string
	sheet   string
	sw      *excelize.StreamWriter
	row     int // last row written on the current sheet
	rows    int // data rows written in all
	clipped int
	vals    []any
	styles  struct{ text, wrap, num, dec int }
	line    map[int]int // each of styles to its bottom-aligned twin, for rows of one line
	noted   bool
	// mu, if set, is held while a full sheet is closed and the next
	// opened, as another goroutine may be writing another sheet.
	mu *sync.Mutex
}

var boxed = map[string]any{"0": 0, "1": 1}

// printedRows is how many data rows of a Verdicts or Disagreements sheet
// its print area holds: one landscape page. A printed workbook is read as
// a report; all the rows are for filtering on screen.
const printedRows = 25

// open starts the next sheet: print layout, column widths and styles,
// frozen header, and the header row.
func (r *rowSheets) open() error {
	b := r.b
	name := r.base
	if len(r.sheets) > 0 {
		name = b.sheetName(fmt.Sprintf("%s (%d)", r.base, len(r.sheets)+1))
	}
	if err := b.newSheet(name); err != nil {
		return err
	}
	// Keep continuation sheets right after the sheet they continue.
	at := len(b.order)
	for i, s := range b.order {
		for _, mine := range r.sheets {
			if s == mine {
				at = i + 1
			}
		}
	}
	b.order = append(b.order[:at], append([]string{name}, b.order[at:]...)...)
	// Sheet properties go into the stream's first bytes: set them first.
	if err := b.printLayout(name); err != nil {
		return err
	}
	sw, err := b.f.NewStreamWriter(name)
	if err != nil {
		return err
	}
	r.sw, r.sheet, r.row = sw, name, 0
	r.sheets = append(r.sheets, name)
	if r.styles.text == 0 {
		r.styles.text, r.styles.wrap, r.styles.num, r.styles.dec = b.st.text, b.st.wrap, b.st.integer, b.st.general
		r.line = map[int]int{b.st.text: b.st.lineText, b.st.wrap: b.st.lineWrap, b.st.integer: b.st.lineInteger, b.st.general: b.st.lineGeneral}
	}
	for c, w := range r.lay.widths {
		if err := sw.SetColWidth(c+1, c+1, w); err != nil {
			return err
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return err
	}
	head := make([]any, len(r.lay.header))
	for i, h := range r.lay.header {
		st := b.st.header
		if r.lay.numeric[i] {
			st = b.st.headerNum
		}
		head[i] = excelize.Cell{StyleID: st, Value: h}
	}
	r.row = 1
	b.printTitles[name] = 1
	return sw.SetRow("A1", head, excelize.RowOpts{Height: 30})
}

// write appends one verdict row (with its data row number n first when
// the layout has a row column).
func (r *rowSheets) write(rec []string, n int) error {
	if r.row >= r.b.opt.RowsPerSheet {
		if err := r.next(); err != nil {
			return err
		}
	}
	r.vals = r.vals[:0]
	if r.lay.rowCol {
		r.vals = append(r.vals, excelize.Cell{StyleID: r.styles.num, Value: n})
	}
	off := len(r.vals)
	for i, v := range rec {
		c := i + off
		if r.lay.numeric[c] {
			if x, ok := boxed[v]; ok {
				r.vals = append(r.vals, excelize.Cell{StyleID: r.styles.num, Value: x})
				continue
			}
			if x, ok := results.Number(v); ok {
				r.vals = append(r.vals, excelize.Cell{StyleID: r.styles.dec, Value: x})
				continue
			}
		}
		if len(v) > maxCellChars && utf16Len(v) > maxCellChars {
			r.clipped++
		}
		st := r.styles.text
		if r.lay.wrap[c] {
			st = r.styles.wrap
		}
		// A string value is written as an inline string: never a formula.
		r.vals = append(r.vals, excelize.Cell{StyleID: st, Value: v})
	}
	r.row++
	r.rows++
	// Spreadsheet programs do not all grow rows to fit wrapped text when
	// they open a file (LibreOffice 7.4 does not), so give each row the
	// height of its longest wrapped cell, up to maxLines lines.
	lines := 1
	for i, v := range rec {
		c := i + off
		if r.lay.wrap[c] && len(v) > int(r.lay.widths[c]) {
			lines = max(lines, textLines(v, r.lay.widths[c]))
		}
	}
	if lines > 1 {
		fontRow(r.vals, r.fonted)
		return r.sw.SetRow(cell(1, r.row), r.vals, excelize.RowOpts{Height: float64(min(lines, maxLines))*15 + 3})
	}
	// A row of one line is bottom-aligned (see styles.lineText).
	for i := range r.vals {
		if c, ok := r.vals[i].(excelize.Cell); ok {
			if id, ok := r.line[c.StyleID]; ok {
				c.StyleID = id
				r.vals[i] = c
			}
		}
	}
	fontRow(r.vals, r.fonted)
	return r.sw.SetRow(cell(1, r.row), r.vals)
}

// maxLines caps the height of a verdict row; longer texts scroll in the cell.
const maxLines = 8

// next closes the full sheet and opens the following one.
func (r *rowSheets) next() error {
	if r.mu != nil {
		r.mu.Lock()
		defer r.mu.Unlock()
	}
	if err := r.close(); err != nil {
		return err
	}
	return r.open()
}

// note writes a line of text under the header (used when there are no rows).
func (r *rowSheets) note(s string) {
	r.noted = true
	r.row++
	r.sw.SetRow(cell(1, r.row), []any{excelize.Cell{StyleID: r.b.st.muted, Value: s}})
}

// close finishes the current sheet: pass/fail colours on the metric
// columns, an Excel table with a filter over the rows, then Flush.
func (r *rowSheets) close() error {
	b := r.b
	if r.row > 1 && !r.noted {
		for i, c := range r.lay.metric {
			ref := fmt.Sprintf("%s2:%s%d", colName(c+1), colName(c+1), r.row)
			var rules []excelize.ConditionalFormatOptions
			if r.lay.graded[i] {
				rules = []excelize.ConditionalFormatOptions{{
					Type: "3_color_scale", Criteria: "=",
					MinType: "num", MinValue: "0", MinColor: "#F8696B",
					MidType: "num", MidValue: "0.5", MidColor: "#FFEB84",
					MaxType: "num", MaxValue: "1", MaxColor: "#63BE7B",
				}}
			} else {
				pass, fail := b.st.pass, b.st.fail
				rules = []excelize.ConditionalFormatOptions{
					{Type: "cell", Criteria: "==", Value: "1", Format: &pass},
					{Type: "cell", Criteria: "==", Value: "0", Format: &fail},
				}
			}
			if err := b.f.SetConditionalFormat(r.sheet, ref, rules); err != nil {
				return err
			}
		}
		// A sheet autofilter set around streaming is dropped by excelize;
		// a table carries its own filter.
		name := r.table
		if len(r.sheets) > 1 {
			name = fmt.Sprintf("%s%d", r.table, len(r.sheets))
		}
		no := false
		if err := r.sw.AddTable(&excelize.Table{
			Range:          fmt.Sprintf("A1:%s%d", colName(len(r.lay.header)), r.row),
			Name:           name,
			StyleName:      "TableStyleLight1",
			ShowRowStripes: &no,
		}); err != nil {
			return err
		}
		// Printed (and exported to PDF): the header and the first rows,
		// one page; the sheet itself holds every row, for the screen.
		if r.row > printedRows+1 {
			b.printAreas[r.sheet] = fmt.Sprintf("%s!$A$1:$%s$%d", quoteSheet(r.sheet), colName(len(r.lay.header)), printedRows+1)
			b.printedRows[r.sheet] = r.row - 1
		}
	}
	return r.sw.Flush()
}

// utf16Len is the length of s in UTF-16 code units, as Excel counts.
func utf16Len(s string) int {
	n := 0
	for _, c := range s {
		n++
		if c >= 0x10000 {
			n++
		}
	}
	return n
}
