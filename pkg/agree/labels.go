package agree

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// ParseError is an error in a label file, with its place: the file, the
// 1-based line, the 1-based character column of the cell (or of the bad
// byte or quote) and the column's name. It is tabular.ParseError, the one
// error type of every evalbook reader.
type ParseError = tabular.ParseError

// LabelTable is what ReadLabels found: one row per item, one rating per
// rater column asked for.
type LabelTable struct {
	File     string
	Raters   []string // rater column names, in the order asked for
	IDColumn string   // "" when items are named by row number
	// RaterFields gives each rater column's 1-based field number in the
	// file (not a character column: see LabelRow.Columns and CellError).
	RaterFields []int
	Rows        []LabelRow
}

// LabelRow is one item.
type LabelRow struct {
	Line    int      // line of the file where the record starts
	ID      string   // the id column's value, or "" without an id column
	Ratings []string // one per rater; "" is a missing rating
	// cells holds, per rater, the line and character column at which the
	// rating's cell starts (see CellError).
	cells [][2]int
}

// CellError returns a *ParseError about rater j's rating of row i: the
// line and character column at which the cell starts (its opening quote,
// if quoted; a line after Line when an earlier cell of the row holds a
// line break) and the rater's column name.
func (t *LabelTable) CellError(i, j int, err error) *ParseError {
	r := t.Rows[i]
	pe := &ParseError{File: t.File, Line: r.Line, Field: t.Raters[j], Err: err}
	if j < len(r.cells) {
		pe.Line, pe.Column = r.cells[j][0], r.cells[j][1]
	}
	return pe
}

// Rater returns rater j's ratings in row order.
func (t *LabelTable) Rater(j int) []string {
	out := make([]string, len(t.Rows))
	for i, r := range t.Rows {
		out[i] = r.Ratings[j]
	}
	return out
}

// Items returns each row's ratings (the rows of the table).
func (t *LabelTable) Items() [][]string {
	out := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		out[i] = r.Ratings
	}
	return out
}

// ItemName names row i: its id if the table has an id column, else its
// 1-based row number (not counting the header).
func (t *LabelTable) ItemName(i int) string {
	if t.IDColumn != "" {
		return t.Rows[i].ID
	}
	return strconv.Itoa(i + 1)
}

// isMissing reports whether a trimmed cell means "no rating".
func isMissing(s string) bool {
	switch strings.ToUpper(s) {
	case "", "NA", "N/A", ".", "-":
		return true
	}
	return false
}

// ReadLabels reads a CSV label table: a header row, then one row per item.
// The columns named in raters (at least one) hold the ratings; idColumn,
// if not empty, names each item and must be unique and non-empty. Other
// columns are ignored. Labels and ids may not contain line breaks, nor
// labels any other control character (a tab would break the tables). Cells
// are trimmed of spaces; an empty cell or NA,
// N/A, "." or "-" (any case) is a missing rating, stored as "". A UTF-8
// byte-order mark and CRLF line ends are accepted; text that is not UTF-8,
// in any column, is an error (ErrInvalidUTF8). Every error is a
// *ParseError naming file, line, character column and column name.
func ReadLabels(r io.Reader, file string, raters []string, idColumn string) (*LabelTable, error) {
	if len(raters) == 0 {
		return nil, errors.New("agree: no rater columns asked for")
	}
	seen := map[string]bool{}
	for _, c := range append([]string{idColumn}, raters...) {
		if c == "" {
			continue
		}
		if seen[c] {
			return nil, fmt.Errorf("agree: column %q asked for twice", c)
		}
		seen[c] = true
	}
	rd, err := tabular.NewReader(r, file, tabular.Options{Format: "csv"})
	if err != nil {
		return nil, err
	}
	header := rd.Header()
	where := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		if _, dup := where[h]; dup && seen[h] {
			return nil, &ParseError{File: file, Line: 1, Column: rd.HeaderColumn(i), Field: h, Err: fmt.Errorf("column %q appears twice in the header", h)}
		}
		if _, dup := where[h]; !dup {
			where[h] = i
		}
	}
	col := func(name string) (int, error) {
		if i, ok := where[name]; ok {
			return i, nil
		}
		return 0, &ParseError{File: file, Line: 1, Field: name, Err: fmt.Errorf("no column %q; the header has %s", name, quoteList(header))}
	}
	t := &LabelTable{File: file, Raters: append([]string(nil), raters...), IDColumn: idColumn}
	idx := make([]int, len(raters))
	for j, name := range raters {
		if idx[j], err = col(name); err != nil {
			return nil, err
		}
		t.RaterFields = append(t.RaterFields, idx[j]+1)
	}
	idIdx := -1
	if idColumn != "" {
		if idIdx, err = col(idColumn); err != nil {
			return nil, err
		}
	}
	// cellErr places an error at field i of the record just read.
	cellErr := func(i int, format string, a ...any) error {
		pe := rd.Errorf(i, format, a...)
		pe.Field = strings.TrimSpace(pe.Field)
		return pe
	}
	ids := map[string]int{}
	for rd.Scan() {
		rec := rd.Record()
		line := rec.Line
		row := LabelRow{Line: line, Ratings: make([]string, len(raters)), cells: make([][2]int, len(raters))}
		for j, i := range idx {
			v := strings.TrimSpace(rec.Fields[i])
			row.cells[j][0], row.cells[j][1] = rd.FieldPos(i)
			if strings.ContainsAny(v, "\r\n") {
				return nil, cellErr(i, "a label may not contain a line break")
			}
			if k := strings.IndexFunc(v, unicode.IsControl); k >= 0 {
				return nil, cellErr(i, "label %q holds the control character %U, which would garble the tables", v, []rune(v[k:])[0])
			}
			if !isMissing(v) {
				row.Ratings[j] = v
			}
		}
		if idIdx >= 0 {
			row.ID = strings.TrimSpace(rec.Fields[idIdx])
			if strings.ContainsAny(row.ID, "\r\n") {
				return nil, cellErr(idIdx, "%s may not contain a line break", idColumn)
			}
			if row.ID == "" {
				return nil, cellErr(idIdx, "empty %s", idColumn)
			}
			if first, dup := ids[row.ID]; dup {
				return nil, cellErr(idIdx, "duplicate %s %q (first on line %d)", idColumn, row.ID, first)
			}
			ids[row.ID] = line
		}
		t.Rows = append(t.Rows, row)
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	return t, nil
}

// ErrInvalidUTF8 is wrapped by the error for a cell that is not UTF-8: a
// label file saved in another encoding, whose labels would otherwise be
// compared, and printed, as raw bytes. It is tabular.ErrInvalidUTF8.
var ErrInvalidUTF8 = tabular.ErrInvalidUTF8

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(strings.TrimSpace(n))
	}
	return strings.Join(q, ", ")
}
