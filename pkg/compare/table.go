package compare

// Reading the two tables. This file is the one place where compare reads
// CSV, through the shared table reader (pkg/tabular).

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// A ParseError is a problem at a place in one of the two tables: the
// module's one reader error, tabular.ParseError. Line is 1-based (the
// header is line 1); 0 when the problem is with the file as a whole (it
// is empty, it has no rows after the header). Column is the 1-based
// character column, as an editor shows it, of the first bad byte of
// invalid UTF-8 or of the start of a bad or repeated value (an empty or
// duplicate key, a metric that is not 0 or 1); 0 when the message names
// no place within the line. Field names the column concerned, if any.
type ParseError = tabular.ParseError

// Errors of the tables that callers may branch on (with errors.Is); each
// comes with its file and line in a *ParseError where it has a place.
// ErrInvalidUTF8 and ErrEmptyFile are tabular's.
var (
	ErrInvalidUTF8    = tabular.ErrInvalidUTF8
	ErrEmptyFile      = tabular.ErrEmptyFile
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

// table is a CSV file read whole, with the line where each record
// starts and the place (line, character column) of each field, for
// errors about a value.
type table struct {
	file    string
	header  []string
	rows    [][]string
	lines   []int
	places  [][]place
	keyCols []string // Options.Key
}

// standIn is the length from which readTable keeps a stand-in for a
// value it need not show.
const standIn = 1 << 10

var standInSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// standInOf returns the stand-in of a long value: NUL and 128 bits of
// hash (two seeds of hash/maphash, which reads the string in place),
// equal for equal values and, in any table, different for different
// ones (a collision has odds of 2^-128 per pair).
func standInOf(v string) string {
	b := make([]byte, 1, 17)
	for _, seed := range standInSeeds {
		b = binary.LittleEndian.AppendUint64(b, maphash.String(seed, v))
	}
	return string(b)
}

// place is where a field starts: its line (a field after a quoted line
// break is on a later line than its record) and character column.
type place struct{ line, col int }

// errorAt returns the *ParseError about field c of row i.
func (t *table) errorAt(i, c int, err error) *ParseError {
	p := t.places[i][c]
	return &ParseError{File: t.file, Line: p.line, Column: p.col, Field: t.header[c], Err: err}
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

// readTable reads the CSV table r of the named file through
// pkg/tabular: a header, then at least one row, every field valid UTF-8
// (tabular refuses it otherwise) and trimmed of spaces. Every error is
// a *ParseError.
//
// A long value (standIn bytes or more) of a column that compare reads
// only to tell values apart (one that is not a key, the metric or the
// group column of opt) is kept as a stand-in: NUL, then two 64-bit
// hashes of it (standInOf). A
// NUL is in no value read (tabular refuses it) and never parses as 0 or
// 1, so the stand-in is equal where the value is and stays out of the
// metric's candidates; a verdict file's long response then costs 17
// bytes, not its length.
func readTable(r io.Reader, file string, opt Options) (*table, error) {
	rd, err := tabular.Open(r, file, "csv")
	if err != nil {
		return nil, err
	}
	t := &table{file: file, header: slices.Clone(rd.Header())}
	for i := range t.header {
		t.header[i] = strings.TrimSpace(t.header[i])
	}
	opt = opt.WithDefaults()
	read := make([]bool, len(t.header)) // the column's values are shown or used as they are
	for i, h := range t.header {
		read[i] = h == opt.Metric || h == opt.By || slices.Contains(opt.Key, h)
	}
	for rd.Scan() {
		rec := rd.Record()
		pl := make([]place, len(rec.Fields))
		for i := range rec.Fields {
			rec.Fields[i] = strings.TrimSpace(rec.Fields[i])
			if v := rec.Fields[i]; len(v) >= standIn && !read[i] {
				if _, ok := zeroOne(v); !ok {
					rec.Fields[i] = standInOf(v)
				}
			}
			pl[i].line, pl[i].col = rd.FieldPos(i)
		}
		t.rows = append(t.rows, rec.Fields)
		t.lines = append(t.lines, rec.Line)
		t.places = append(t.places, pl)
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	if len(t.rows) == 0 {
		return nil, &ParseError{File: file, Err: ErrNoRows}
	}
	return t, nil
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
				return nil, t.errorAt(i, c, errorf(ErrEmptyKey, "empty %s", kc))
			}
		}
		k := t.keyOf(row)
		if j, dup := idx[k]; dup {
			return nil, t.errorAt(i, t.col(t.keyCols[0]), errorf(ErrDuplicateKey, "duplicate %s %s (first at line %d); %s",
				strings.Join(t.keyCols, ","), tabular.Quote(t.showKey(row)), t.lines[j], t.keyHint(metric)))
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
			return nil, t.errorAt(i, c, errorf(ErrNotBinary, "%s is %s, not 0 or 1", name, tabular.Quote(row[c])))
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
			onlyA = append(onlyA, tabular.Quote(a.showKey(row))+" (line "+strconv.Itoa(a.lines[i])+")")
		}
	}
	for i, row := range b.rows {
		if _, ok := ai[b.keyOf(row)]; !ok {
			onlyB = append(onlyB, tabular.Quote(b.showKey(row))+" (line "+strconv.Itoa(b.lines[i])+")")
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
