package agree

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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

// isMissingBytes is isMissing of a cell's bytes, without making a string
// of them: the strings isMissing accepts are ASCII and at most three
// bytes long, and no other text upper-cases to one of them.
func isMissingBytes(v []byte) bool {
	switch len(v) {
	case 0:
		return true
	case 1:
		return v[0] == '.' || v[0] == '-'
	case 2:
		return v[0]|0x20 == 'n' && v[1]|0x20 == 'a'
	case 3:
		return v[0]|0x20 == 'n' && v[1] == '/' && v[2]|0x20 == 'a'
	}
	return false
}

// checkLabel checks a trimmed rating, field i of the record rd just
// read: no line break, no other control character.
func checkLabel(rd *tabular.Reader, i int, v []byte) error {
	for _, b := range v {
		if b < 0x20 || b >= 0x7f { // a control character, or not ASCII: the full checks
			return checkLabelSlow(rd, i, v)
		}
	}
	return nil
}

func checkLabelSlow(rd *tabular.Reader, i int, v []byte) error {
	if bytes.ContainsAny(v, "\r\n") {
		return cellError(rd, i, "a label may not contain a line break")
	}
	if k := bytes.IndexFunc(v, unicode.IsControl); k >= 0 {
		r, _ := utf8.DecodeRune(v[k:])
		return cellError(rd, i, "label %s holds the control character %U, which would garble the tables", tabular.Quote(string(v)), r)
	}
	return nil
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
	t := &LabelTable{File: file, Raters: append([]string(nil), raters...), IDColumn: idColumn}
	ids := map[string]int{}
	fields, err := scanLabels(r, file, raters, idColumn, func(s *labelScan) error {
		row := LabelRow{Line: s.line, ID: string(s.id), Ratings: make([]string, len(raters)), cells: make([][2]int, len(raters))}
		for j := range raters {
			row.Ratings[j] = string(s.ratings[j])
			row.cells[j][0], row.cells[j][1] = s.pos(j)
		}
		if idColumn != "" {
			if first, dup := ids[row.ID]; dup {
				return s.idErr("duplicate %s %s (first on line %d)", idColumn, tabular.Quote(row.ID), first)
			}
			ids[row.ID] = s.line
		}
		t.Rows = append(t.Rows, row)
		return nil
	})
	if err != nil {
		return nil, err
	}
	t.RaterFields = fields
	return t, nil
}

// labelScan is one row of a label table as scanLabels hands it on. Its
// slices, and the bytes they hold (cut from the reader's buffer), are
// valid only until the next row.
type labelScan struct {
	line    int      // line of the file where the record starts
	id      []byte   // the id column's value (checked: not empty, no line break)
	ratings [][]byte // one per rater, trimmed; empty is a missing rating
	rd      *tabular.Reader
	idx     []int // field index of each rater column
	idIdx   int
}

// pos returns the line and character column at which rater j's cell of
// the row starts.
func (s *labelScan) pos(j int) (line, column int) { return s.rd.FieldPos(s.idx[j]) }

// idErr places an error at the row's id cell.
func (s *labelScan) idErr(format string, a ...any) error {
	return cellError(s.rd, s.idIdx, format, a...)
}

// cellError places an error at field i of the record rd just read.
func cellError(rd *tabular.Reader, i int, format string, a ...any) error {
	pe := rd.Errorf(i, format, a...)
	pe.Field = strings.TrimSpace(pe.Field)
	return pe
}

// scanLabels reads a CSV label table as ReadLabels documents, checking
// every cell, and calls each for every row (the duplicate id check is
// each's, so that a caller can keep ids its own way). It returns the
// rater columns' 1-based field numbers.
func scanLabels(r io.Reader, file string, raters []string, idColumn string, each func(*labelScan) error) ([]int, error) {
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
			return nil, &ParseError{File: file, Line: 1, Column: rd.HeaderColumn(i), Field: h, Err: fmt.Errorf("column %s appears twice in the header", tabular.Quote(h))}
		}
		if _, dup := where[h]; !dup {
			where[h] = i
		}
	}
	col := func(name string) (int, error) {
		if i, ok := where[name]; ok {
			return i, nil
		}
		return 0, &ParseError{File: file, Line: 1, Field: name, Err: fmt.Errorf("no column %s; the header has %s", tabular.Quote(name), quoteList(header))}
	}
	s := &labelScan{rd: rd, idx: make([]int, len(raters)), ratings: make([][]byte, len(raters)), idIdx: -1}
	fields := make([]int, len(raters))
	for j, name := range raters {
		if s.idx[j], err = col(name); err != nil {
			return nil, err
		}
		fields[j] = s.idx[j] + 1
	}
	if idColumn != "" {
		if s.idIdx, err = col(idColumn); err != nil {
			return nil, err
		}
	}
	for rd.ScanBytes() {
		s.line = rd.Record().Line
		for j, i := range s.idx {
			v := bytes.TrimSpace(rd.Bytes(i))
			if err := checkLabel(rd, i, v); err != nil {
				return nil, err
			}
			s.ratings[j] = nil
			if !isMissingBytes(v) {
				s.ratings[j] = v
			}
		}
		s.id = nil
		if s.idIdx >= 0 {
			s.id = bytes.TrimSpace(rd.Bytes(s.idIdx))
			if bytes.ContainsAny(s.id, "\r\n") {
				return nil, s.idErr("%s may not contain a line break", idColumn)
			}
			if len(s.id) == 0 {
				return nil, s.idErr("empty %s", idColumn)
			}
		}
		if err := each(s); err != nil {
			return nil, err
		}
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	return fields, nil
}

// ErrInvalidUTF8 is wrapped by the error for a cell that is not UTF-8: a
// label file saved in another encoding, whose labels would otherwise be
// compared, and printed, as raw bytes. It is tabular.ErrInvalidUTF8.
var ErrInvalidUTF8 = tabular.ErrInvalidUTF8

func quoteList(names []string) string { return tabular.QuoteList(names) }
