package compare

// Reading the two tables. This file is the one place where compare reads
// CSV; it moves to the shared table reader (pkg/tabular) as a whole.

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalbook/evalbook/internal/rawpos"
)

// A ParseError is a problem at a place in one of the two tables.
//
// Line is 1-based (the header is line 1); 0 when the problem is with the
// file as a whole (no rows after the header). Column is 1-based and 0
// when the message names no place within the line: for invalid UTF-8 it
// is the character column of the first bad byte, as an editor shows it;
// for a bad or repeated value (an empty or duplicate key, a metric that
// is not 0 or 1) it is the number of the field, counted from 1; for a
// CSV syntax error it is encoding/csv's. Field names the column
// concerned, if any; Header is true for a problem in the header row.
type ParseError struct {
	File   string
	Line   int
	Column int
	Field  string
	Header bool
	Err    error
}

func (e *ParseError) Error() string {
	s := e.File
	if e.Line > 0 {
		s += ":" + strconv.Itoa(e.Line)
		if e.Column > 0 {
			s += ":" + strconv.Itoa(e.Column)
		}
	}
	// Only an encoding error's message does not say which column it is in.
	if e.Header {
		s += " (header)"
	} else if e.Field != "" && errors.Is(e.Err, ErrInvalidUTF8) {
		s += fmt.Sprintf(" (column %q)", e.Field)
	}
	return s + ": " + e.Err.Error()
}

func (e *ParseError) Unwrap() error { return e.Err }

// Errors of the tables that callers may branch on (with errors.Is); each
// comes with its file and line in a *ParseError where it has a place.
var (
	ErrInvalidUTF8    = errors.New("invalid UTF-8")
	ErrEmptyFile      = errors.New("empty file: no header row")
	ErrNoRows         = errors.New("no rows after the header")
	ErrNoColumn       = errors.New("no such column")
	ErrEmptyKey       = errors.New("empty key")
	ErrDuplicateKey   = errors.New("duplicate key")
	ErrNotBinary      = errors.New("not 0 or 1")
	ErrNoMetric       = errors.New("no 0/1 column")
	ErrSeveralMetrics = errors.New("several 0/1 columns")
	ErrKeysDiffer     = errors.New("the files do not hold the same keys")
	ErrGroupChanged   = errors.New("a case's group differs between the files")
)

// wrapped is an error with its own message that matches a sentinel.
type wrapped struct {
	msg string
	err error
}

func (e *wrapped) Error() string { return e.msg }
func (e *wrapped) Unwrap() error { return e.err }

func errorf(sentinel error, format string, args ...any) error {
	return &wrapped{msg: fmt.Sprintf(format, args...), err: sentinel}
}

// table is a CSV file read whole, with the line where each record starts.
type table struct {
	file    string
	header  []string
	rows    [][]string
	lines   []int
	keyCols []string // Options.Key
}

// keyOf returns the key of a row, its key columns' values joined by NUL
// (a character no value holds in practice, so distinct keys stay distinct).
func (t *table) keyOf(row []string) string {
	if len(t.keyCols) == 1 {
		return row[t.col(t.keyCols[0])]
	}
	vals := make([]string, len(t.keyCols))
	for i, c := range t.keyCols {
		vals[i] = row[t.col(c)]
	}
	return strings.Join(vals, "\x00")
}

// showKey returns the key of a row as messages and results show it: the
// values joined by "/".
func (t *table) showKey(row []string) string {
	return strings.ReplaceAll(t.keyOf(row), "\x00", "/")
}

// readTable reads the CSV data of the named file: a header, then at least
// one row, every field valid UTF-8 and trimmed of spaces.
func readTable(data []byte, file string) (*table, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	r := csv.NewReader(bytes.NewReader(data))
	place := func(err error) error {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return &ParseError{File: file, Line: pe.Line, Column: pe.Column, Err: pe.Err}
		}
		return fmt.Errorf("%s: %w", file, err)
	}
	t := &table{file: file}
	var err error
	if t.header, err = r.Read(); err == io.EOF {
		return nil, &ParseError{File: file, Line: 1, Err: ErrEmptyFile}
	} else if err != nil {
		return nil, place(err)
	}
	for i := range t.header {
		line, col := r.FieldPos(i)
		if err := checkUTF8(data, file, line, col, "", t.header[i]); err != nil {
			return nil, err
		}
		t.header[i] = strings.TrimSpace(t.header[i])
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, place(err)
		}
		line, _ := r.FieldPos(0)
		for i := range rec {
			l, c := r.FieldPos(i)
			if err := checkUTF8(data, file, l, c, t.header[i], rec[i]); err != nil {
				return nil, err
			}
			rec[i] = strings.TrimSpace(rec[i])
		}
		t.rows = append(t.rows, rec)
		t.lines = append(t.lines, line)
	}
	if len(t.rows) == 0 {
		return nil, &ParseError{File: file, Err: ErrNoRows}
	}
	return t, nil
}

// checkUTF8 returns the error of a field s, named field (the header when
// ""), that starts at line and byte column col of data (as
// csv.Reader.FieldPos gives them), or nil when s is valid UTF-8. The
// error names the line and the character column of the first bad byte,
// as an editor shows them (see rawpos.CSVBadByte); when data does not
// hold the field where line and col say, the line only.
func checkUTF8(data []byte, file string, line, col int, field, s string) error {
	if utf8.ValidString(s) {
		return nil
	}
	off := rawpos.InvalidUTF8String(s)
	e := &ParseError{File: file, Line: line + strings.Count(s[:off], "\n"), Field: field, Header: field == ""}
	if l, c, ok := rawpos.CSVBadByte(data, line, col, s[off]); ok && l == e.Line {
		e.Column = c
	}
	e.Err = fmt.Errorf("%w: first bad byte 0x%02X at character %d of the field; re-save the file as UTF-8",
		ErrInvalidUTF8, s[off], utf8.RuneCountInString(s[:off])+1)
	return e
}

func (t *table) col(name string) int { return slices.Index(t.header, name) }

// index maps each key to its row, rejecting empty and duplicate keys. A
// duplicate's message suggests a key column that would tell the rows
// apart (metric is not a candidate).
func (t *table) index(metric string) (map[string]int, error) {
	idx := make(map[string]int, len(t.rows))
	for i, row := range t.rows {
		for _, kc := range t.keyCols {
			if c := t.col(kc); row[c] == "" {
				return nil, &ParseError{File: t.file, Line: t.lines[i], Column: c + 1, Field: kc,
					Err: errorf(ErrEmptyKey, "empty %s", kc)}
			}
		}
		k := t.keyOf(row)
		if j, dup := idx[k]; dup {
			c := t.col(t.keyCols[0])
			return nil, &ParseError{File: t.file, Line: t.lines[i], Column: c + 1, Field: t.keyCols[0],
				Err: errorf(ErrDuplicateKey, "duplicate %s %q (first at line %d); %s",
					strings.Join(t.keyCols, ","), t.showKey(row), t.lines[j], t.keyHint(metric))}
		}
		idx[k] = i
	}
	return idx, nil
}

// keyHint suggests a key that would make the rows unique: the key
// columns and one more, the column with the fewest distinct values that
// tells every duplicate apart (a model or language column rather than a
// free-text one), preferring columns that are not 0/1 and, on a tie, the
// one further left. It is worded for evalbook compare's --key flag,
// which Options.Key mirrors.
func (t *table) keyHint(metric string) string {
	key := strings.Join(t.keyCols, ",")
	best, bestN, bestBinary := "", 0, true
	for c, name := range t.header {
		if name == "" || name == metric || slices.Contains(t.keyCols, name) || t.col(name) != c {
			continue
		}
		seen := make(map[string]bool, len(t.rows))
		values := map[string]bool{}
		unique := true
		for _, row := range t.rows {
			k := t.keyOf(row) + "\x00" + row[c]
			if seen[k] {
				unique = false
				break
			}
			seen[k] = true
			values[row[c]] = true
		}
		if !unique {
			continue
		}
		binary := allZeroOne(t, name)
		if best == "" || bestBinary && !binary || binary == bestBinary && len(values) < bestN {
			best, bestN, bestBinary = name, len(values), binary
		}
	}
	if best == "" {
		return fmt.Sprintf("if rows are unique only with other columns, name them all: --key %s,COLUMN,...", key)
	}
	return fmt.Sprintf("if rows are unique only with another column, pass --key %s,%s", key, best)
}

// binary reads a 0/1 column.
func (t *table) binary(name string) ([]float64, error) {
	c := t.col(name)
	out := make([]float64, len(t.rows))
	for i, row := range t.rows {
		v, ok := zeroOne(row[c])
		if !ok {
			return nil, &ParseError{File: t.file, Line: t.lines[i], Column: c + 1, Field: name,
				Err: errorf(ErrNotBinary, "%s is %q, not 0 or 1", name, row[c])}
		}
		out[i] = v
	}
	return out, nil
}

func zeroOne(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || (v != 0 && v != 1) {
		return 0, false
	}
	return v, true
}

// pickMetric finds the one column besides the key columns and by that is
// 0/1 in every row of both files. Its messages are worded for evalbook
// compare's --metric flag, which Options.Metric mirrors.
func pickMetric(a, b *table, keyCols []string, by string) (string, error) {
	var cands []string
	for _, name := range a.header {
		if slices.Contains(keyCols, name) || name == by || name == "" || b.col(name) < 0 || slices.Contains(cands, name) {
			continue
		}
		if allZeroOne(a, name) && allZeroOne(b, name) {
			cands = append(cands, name)
		}
	}
	switch len(cands) {
	case 1:
		return cands[0], nil
	case 0:
		return "", errorf(ErrNoMetric, "no column besides %s holds only 0 and 1 in both %s and %s; name the metric with --metric (columns: %s)", strings.Join(keyCols, ","), a.file, b.file, strings.Join(a.header, ", "))
	}
	return "", errorf(ErrSeveralMetrics, "several 0/1 columns could be the metric: %s; choose one with --metric", strings.Join(cands, ", "))
}

func allZeroOne(t *table, name string) bool {
	c := t.col(name)
	for _, row := range t.rows {
		if _, ok := zeroOne(row[c]); !ok {
			return false
		}
	}
	return true
}

// sameKeys reports keys present in only one file, the first few of each.
func sameKeys(a, b *table, ai, bi map[string]int) error {
	var onlyA, onlyB []string
	for i, row := range a.rows {
		if _, ok := bi[a.keyOf(row)]; !ok {
			onlyA = append(onlyA, strconv.Quote(a.showKey(row))+" (line "+strconv.Itoa(a.lines[i])+")")
		}
	}
	for i, row := range b.rows {
		if _, ok := ai[b.keyOf(row)]; !ok {
			onlyB = append(onlyB, strconv.Quote(b.showKey(row))+" (line "+strconv.Itoa(b.lines[i])+")")
		}
	}
	key := strings.Join(a.keyCols, ",")
	if len(onlyA) == 0 && len(onlyB) == 0 {
		return nil
	}
	var parts []string
	if len(onlyA) > 0 {
		parts = append(parts, fmt.Sprintf("%d only in %s: %s", len(onlyA), a.file, firstFew(onlyA, 5)))
	}
	if len(onlyB) > 0 {
		parts = append(parts, fmt.Sprintf("%d only in %s: %s", len(onlyB), b.file, firstFew(onlyB, 5)))
	}
	return errorf(ErrKeysDiffer, "the files do not hold the same %s values; %s", key, strings.Join(parts, "; "))
}

// firstFew joins the first n items and says how many more there are.
func firstFew(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
}
