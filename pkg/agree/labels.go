package agree

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evalbook/evalbook/internal/rawpos"
)

// ParseError is an error in a label file, with its place.
type ParseError struct {
	File string
	// Line is 1-based. Column is 1-based: the field number for an error in
	// a value or header, the byte position in the line for a CSV syntax
	// error, and 0 when the error concerns the whole line or file.
	Line, Column int
	Err          error
}

func (e *ParseError) Error() string {
	if e.Column > 0 {
		return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Column, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// LabelTable is what ReadLabels found: one row per item, one rating per
// rater column asked for.
type LabelTable struct {
	File     string
	Raters   []string // rater column names, in the order asked for
	IDColumn string   // "" when items are named by row number
	// RaterFields gives each rater column's 1-based field number in the
	// file, for error messages that point at a cell.
	RaterFields []int
	Rows        []LabelRow
}

// LabelRow is one item.
type LabelRow struct {
	Line    int      // line of the file where the record starts
	ID      string   // the id column's value, or "" without an id column
	Ratings []string // one per rater; "" is a missing rating
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
// *ParseError naming file, line and column.
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
	br := bufio.NewReader(r)
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte("\xef\xbb\xbf")) {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.ReuseRecord = false
	perr := func(line, col int, err error) error {
		return &ParseError{File: file, Line: line, Column: col, Err: err}
	}
	wrap := func(err error) error {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return perr(pe.Line, pe.Column, pe.Err)
		}
		return fmt.Errorf("%s: %w", file, err)
	}
	header, err := cr.Read()
	if err == io.EOF {
		return nil, perr(1, 0, errors.New("empty file: no header row"))
	}
	if err != nil {
		return nil, wrap(err)
	}
	if err := checkUTF8(cr, file, header, header); err != nil {
		return nil, err
	}
	where := map[string]int{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		if _, dup := where[h]; dup && seen[h] {
			return nil, perr(1, i+1, fmt.Errorf("column %q appears twice in the header", h))
		}
		if _, dup := where[h]; !dup {
			where[h] = i
		}
	}
	col := func(name string) (int, error) {
		if i, ok := where[name]; ok {
			return i, nil
		}
		return 0, perr(1, 0, fmt.Errorf("no column %q; the header has %s", name, quoteList(header)))
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
	ids := map[string]int{}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, wrap(err)
		}
		if err := checkUTF8(cr, file, header, rec); err != nil {
			return nil, err
		}
		line, _ := cr.FieldPos(0)
		row := LabelRow{Line: line, Ratings: make([]string, len(raters))}
		for j, i := range idx {
			v := strings.TrimSpace(rec[i])
			if strings.ContainsAny(v, "\r\n") {
				return nil, perr(line, i+1, fmt.Errorf("%s: a label may not contain a line break", raters[j]))
			}
			if k := strings.IndexFunc(v, unicode.IsControl); k >= 0 {
				return nil, perr(line, i+1, fmt.Errorf("%s: label %q holds the control character %U, which would garble the tables", raters[j], v, []rune(v[k:])[0]))
			}
			if !isMissing(v) {
				row.Ratings[j] = v
			}
		}
		if idIdx >= 0 {
			row.ID = strings.TrimSpace(rec[idIdx])
			if strings.ContainsAny(row.ID, "\r\n") {
				return nil, perr(line, idIdx+1, fmt.Errorf("%s may not contain a line break", idColumn))
			}
			if row.ID == "" {
				return nil, perr(line, idIdx+1, fmt.Errorf("empty %s", idColumn))
			}
			if first, dup := ids[row.ID]; dup {
				return nil, perr(line, idIdx+1, fmt.Errorf("duplicate %s %q (first on line %d)", idColumn, row.ID, first))
			}
			ids[row.ID] = line
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// ErrInvalidUTF8 is wrapped by the error for a cell that is not UTF-8: a
// label file saved in another encoding, whose labels would otherwise be
// compared, and printed, as raw bytes.
var ErrInvalidUTF8 = errors.New("invalid UTF-8")

// checkUTF8 returns a *ParseError for the first cell of rec, the record
// just read, that is not UTF-8: its line, its field number as the column,
// the column's name and the character at which the bad byte sits.
func checkUTF8(cr *csv.Reader, file string, header, rec []string) error {
	for i, f := range rec {
		if utf8.ValidString(f) {
			continue
		}
		off := rawpos.InvalidUTF8String(f)
		line, _ := cr.FieldPos(i)
		name := fmt.Sprintf("column %d", i+1)
		if i < len(header) && utf8.ValidString(header[i]) {
			name = fmt.Sprintf("column %q", strings.TrimSpace(header[i]))
		}
		return &ParseError{File: file, Line: line + strings.Count(f[:off], "\n"), Column: i + 1,
			Err: fmt.Errorf("%s: %w: byte 0x%02X at character %d of the cell is not part of a UTF-8 character (re-save the file as UTF-8)",
				name, ErrInvalidUTF8, f[off], utf8.RuneCountInString(f[:off])+1)}
	}
	return nil
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(strings.TrimSpace(n))
	}
	return strings.Join(q, ", ")
}
