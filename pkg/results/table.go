package results

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Table is a titled grid of figures, for results that have no dedicated
// renderer yet (agree, compare, calibrate): a command fills one or more
// Tables and every renderer (text here, XLSX, HTML) can show them.
// Cells are strings so that JSON round-trips them exactly; a column's
// Kind says how to show them.
type Table struct {
	Title string `json:"title"`
	// Note is a sentence shown under the title (what the table means,
	// how to read it).
	Note    string     `json:"note,omitempty"`
	Columns []Column   `json:"columns"`
	Rows    [][]string `json:"rows"`
	// RowKinds, when set, gives row i's unit (a Kind) for its cells in
	// the PerRow columns: a table of figures whose "value", "low" and
	// "high" columns hold a rate, a difference and a p-value.
	RowKinds []string `json:"row_kinds,omitempty"`
	// Sheet is a short name for the table's sheet in a workbook (at most
	// 31 characters), when the title is longer.
	Sheet string `json:"sheet,omitempty"`
	// Review, when set, makes the table a list of rows to read (model
	// text: questions, answers, responses): the page lists every row a
	// page at a time, with a filter by Review.Filters, a search and
	// sorting, its long text wrapped; the workbook writes it as any
	// table, text as text.
	Review *Review `json:"review,omitempty"`
}

// Review is how a table of rows to read is filtered: each row's flags
// and the filters offered. A filter shows the rows whose flags hold its
// bit; "all rows" is always offered first.
type Review struct {
	// Flags holds each row's flags (a sum of Filters' Flag bits), one
	// per row of the table.
	Flags   []int    `json:"flags"`
	Filters []Filter `json:"filters"`
}

// Filter is one choice of a Review's filter: a bit of the rows' flags
// and what the rows with it are ("got worse").
type Filter struct {
	Flag  int    `json:"flag"`
	Label string `json:"label"`
}

// Kind returns the kind of row i's cell in column j: RowKinds[i] for a
// PerRow column when set, else the column's.
func (t *Table) Kind(i, j int) string {
	k := t.Columns[j].Kind
	if t.Columns[j].PerRow && i < len(t.RowKinds) && t.RowKinds[i] != "" {
		return t.RowKinds[i]
	}
	return k
}

// Cell returns row i's cell in column j as a human reads it (Display
// under the cell's Kind).
func (t *Table) Cell(i, j int) string {
	return Column{Kind: t.Kind(i, j)}.Display(t.Rows[i][j])
}

// IsNumeric reports whether a column of kind holds numbers.
func IsNumeric(kind string) bool {
	switch kind {
	case KindNumber, KindRate, KindPP, KindP, KindRating, KindCount:
		return true
	}
	return false
}

// Column is one column of a Table.
type Column struct {
	Name string `json:"name"`
	// Kind is "text" (the default), "number" (a count or a measure), or
	// "rate" (a proportion in [0,1], shown as a percentage by human
	// formats), "pp" (a difference of two rates, as a fraction, shown in
	// percentage points), "p" (a p-value: three decimals, "< 0.001"
	// below), "rating" (a whole number) or "count" (an integer). Number and rate cells hold full-precision decimals
	// (strconv.FormatFloat(x, 'g', -1, 64)); an empty cell is a missing value.
	Kind string `json:"kind,omitempty"`
	// PerRow says the column's unit is each row's (Table.RowKinds),
	// Kind being the unit of rows that give none.
	PerRow bool `json:"per_row,omitempty"`
}

// Column kinds.
const (
	KindText   = "text"
	KindNumber = "number"
	KindRate   = "rate"
	KindPP     = "pp"
	KindP      = "p"
	KindRating = "rating"
	KindCount  = "count"
)

// YesNo is a flag as a table cell a person reads: "yes" or "no" (not
// Go's "true"/"false").
func YesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// Float formats x for a number or rate cell at full precision.
func Float(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Display returns cell as a human reads it: rates as percentages with one
// decimal, numbers rounded to at most three decimals, negative figures
// with the minus sign U+2212 (Minus), text unchanged. Page, workbook
// text and terminal tables all show cells through it.
func (c Column) Display(cell string) string {
	if !IsNumeric(c.Kind) {
		return cell
	}
	x, ok := Number(cell)
	if !ok {
		return cell
	}
	switch c.Kind {
	case KindRate:
		return Minus(pct(x)) + "%"
	case KindPP, KindP, KindRating, KindCount:
		return FormatUnit(c.Kind, x)
	}
	if x == float64(int64(x)) {
		return Minus(strconv.FormatInt(int64(x), 10))
	}
	return Minus(noNegZero(strconv.FormatFloat(x, 'f', 3, 64)))
}

// Check returns an error when a row's length differs from the number of
// columns, naming the table and the row.
func (t *Table) Check() error {
	for i, r := range t.Rows {
		if len(r) != len(t.Columns) {
			return fmt.Errorf("table %q: row %d has %d cells for %d columns", t.Title, i+1, len(r), len(t.Columns))
		}
	}
	if t.Review != nil && len(t.Review.Flags) != len(t.Rows) {
		return fmt.Errorf("table %q: %d row flags for %d rows", t.Title, len(t.Review.Flags), len(t.Rows))
	}
	return nil
}

// WriteText writes the table as aligned text under its title and note.
func (t *Table) WriteText(w io.Writer) error {
	if err := t.Check(); err != nil {
		return err
	}
	ew := &errWriter{w: w}
	fmt.Fprintln(ew, t.Title)
	if t.Note != "" {
		fmt.Fprintln(ew, t.Note)
	}
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	head := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		head[i] = c.Name
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	cells := make([]string, len(t.Columns))
	for k := range t.Rows {
		for i := range t.Columns {
			// Keep each row on one line: a line break inside a cell would
			// break the alignment.
			cells[i] = strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(t.Cell(k, i))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	tw.Flush()
	return ew.err
}

// GroupTable returns the figures of one grouping of s (by, as in
// Group.By; "" for the first grouping) and the combined line as a Table:
// group, n, blank, then each metric's accuracy and interval bounds.
func GroupTable(s *Score, by string) Table {
	if by == "" && len(s.Groups) > 0 {
		by = s.Groups[0].By
	}
	name := by
	if name == "" {
		name = "group"
	}
	t := Table{Title: "Accuracy by " + name, Columns: []Column{{Name: name}, {Name: "n", Kind: KindNumber}, {Name: "blank", Kind: KindNumber}}}
	if s.Settings.CI != "" && s.Settings.CI != "none" {
		t.Note = fmt.Sprintf("%s%% %s intervals", strconv.FormatFloat(100*s.Settings.Confidence, 'f', -1, 64), s.Settings.CI)
	}
	for _, m := range s.Settings.Metrics {
		t.Columns = append(t.Columns, Column{Name: m, Kind: KindRate}, Column{Name: m + " low", Kind: KindRate}, Column{Name: m + " high", Kind: KindRate})
	}
	row := func(g Group, label string) {
		r := []string{label, strconv.Itoa(g.N), strconv.Itoa(g.Blank)}
		for _, m := range s.Settings.Metrics {
			ms := g.Metrics[m]
			r = append(r, Float(ms.Accuracy), Float(ms.CILow), Float(ms.CIHigh))
		}
		t.Rows = append(t.Rows, r)
	}
	for _, g := range s.Groups {
		if g.By == by {
			row(g, g.Group)
		}
	}
	row(s.Combined, "combined")
	return t
}
