package agree

import (
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// codedTable is a label table with every rating kept as a small integer
// code, which is what the statistics need: a million rows of three
// raters take 12 MB of codes instead of a string header per rating. It
// is what AnalyzeCSV reads and what Analyze turns a LabelTable into.
type codedTable struct {
	file     string
	raters   []string
	idColumn string
	// labels lists the distinct labels in the order they first appear;
	// code c + 1 is labels[c], and code 0 a missing rating.
	labels []string
	// first is, per label, the place where it first appears (row-major
	// order), for errors about its value.
	first []cellPlace
	// codes16 holds the ratings row by row, len(raters) per row, while
	// every code fits 16 bits; codes32 holds them from the first code that
	// does not (and codes16 is then nil).
	codes16 []uint16
	codes32 []uint32
	n       int // rows
	// jumps records the rows whose line is not the one after the
	// previous row's (a record spanning lines by a quoted line break
	// shifts every later row): line(i) is the line of the last jump at
	// or before i, plus the rows since. Row 0 is always a jump.
	jumps []lineJump
	ids   *idSet // nil without an id column
}

type cellPlace struct{ row, rater, line, column int }

type lineJump struct{ row, line int }

// row returns the codes of row i, in buf (len(raters) long) unless they
// are kept as 32-bit codes.
func (c *codedTable) row(i int, buf []uint32) []uint32 {
	r := len(c.raters)
	if c.codes32 != nil {
		return c.codes32[i*r : (i+1)*r : (i+1)*r]
	}
	buf = buf[:r]
	for j, v := range c.codes16[i*r : (i+1)*r] {
		buf[j] = uint32(v)
	}
	return buf
}

// push appends a code.
func (c *codedTable) push(code uint32) {
	if c.codes32 == nil && code > math.MaxUint16 {
		c.codes32 = make([]uint32, len(c.codes16), 2*len(c.codes16)+1)
		for i, v := range c.codes16 {
			c.codes32[i] = uint32(v)
		}
		c.codes16 = nil
	}
	if c.codes32 != nil {
		c.codes32 = append(c.codes32, code)
	} else {
		c.codes16 = append(c.codes16, uint16(code))
	}
}

// line returns the line on which row i starts.
func (c *codedTable) line(i int) int {
	k := sort.Search(len(c.jumps), func(k int) bool { return c.jumps[k].row > i }) - 1
	return c.jumps[k].line + i - c.jumps[k].row
}

// label returns the label of a code ("" for a missing rating).
func (c *codedTable) label(code uint32) string {
	if code == 0 {
		return ""
	}
	return c.labels[code-1]
}

// cellError returns a *ParseError at the first place the label of code
// appears, as LabelTable.CellError does for that cell.
func (c *codedTable) cellError(code uint32, err error) *ParseError {
	p := c.first[code-1]
	return &ParseError{File: c.file, Line: p.line, Column: p.column, Field: c.raters[p.rater], Err: err}
}

// coder gives labels their codes as rows arrive.
type coder struct {
	t     *codedTable
	index map[string]uint32
	// last remembers each rater's previous label and code: runs of one
	// label skip the map.
	last       []string
	lastCode   []uint32
	labelBytes int // the labels' total length
}

func newCoder(t *codedTable) *coder {
	return &coder{t: t, index: map[string]uint32{}, last: make([]string, len(t.raters)), lastCode: make([]uint32, len(t.raters))}
}

// add appends a row of ratings (empty: missing); pos gives the line and
// column of rater j's cell, asked for only when its label is new.
func (c *coder) add(line int, ratings [][]byte, pos func(j int) (int, int)) {
	addRow(c, line, ratings, pos)
}

// addString is add of ratings held as strings ("" missing).
func (c *coder) addString(line int, ratings []string, pos func(j int) (int, int)) {
	addRow(c, line, ratings, pos)
}

func addRow[T string | []byte](c *coder, line int, ratings []T, pos func(j int) (int, int)) {
	t := c.t
	row := t.n
	if len(t.jumps) == 0 || t.jumps[len(t.jumps)-1].line+row-t.jumps[len(t.jumps)-1].row != line {
		t.jumps = append(t.jumps, lineJump{row, line})
	}
	for j, v := range ratings {
		var code uint32
		switch {
		case len(v) == 0:
		case c.lastCode[j] != 0 && string(v) == c.last[j]:
			code = c.lastCode[j]
		default:
			var ok bool
			if code, ok = c.index[string(v)]; !ok {
				releaseBefore(len(v), c.labelBytes)
				c.labelBytes += len(v)
				l := string(v)
				t.labels = append(t.labels, l)
				code = uint32(len(t.labels))
				c.index[l] = code
				p := cellPlace{row: row, rater: j, line: line}
				if pos != nil {
					p.line, p.column = pos(j)
				}
				t.first = append(t.first, p)
			}
			c.last[j], c.lastCode[j] = t.labels[code-1], code
		}
		t.push(code)
	}
	t.n++
}

// readCoded reads a CSV label table as ReadLabels does, with the same
// checks and errors, but keeps every rating as a code and the ids in one
// block of bytes.
func readCoded(r io.Reader, file string, raters []string, idColumn string) (*codedTable, error) {
	t := &codedTable{file: file, raters: append([]string(nil), raters...), idColumn: idColumn}
	if idColumn != "" {
		t.ids = newIDSet()
	}
	c := newCoder(t)
	// When the size of the input is known, the rows of its first MiB
	// tell how many to expect, and the codes and ids make room for them
	// once instead of growing (which holds the old and the new copy at
	// once).
	size := inputSize(r)
	var counted *countingReader
	if size > 1<<20 {
		counted = &countingReader{r: r}
		r = counted
	}
	_, err := scanLabels(r, file, raters, idColumn, func(s *labelScan) error {
		if counted != nil && counted.n >= 1<<20 {
			t.reserve(int(float64(t.n)*float64(size)/float64(counted.n)*1.05)+1024, size-counted.n)
			counted = nil
		}
		if t.ids != nil {
			first, dup, full := t.ids.add(s.id)
			if full {
				return s.idErr("the ids of the file come to more than %d bytes or %d rows, the most this reader keeps; give fewer rows or shorter ids", maxIDBytes, maxIDRows)
			}
			if dup {
				return s.idErr("duplicate %s %s (first on line %d)", idColumn, tabular.Quote(string(s.id)), t.line(first))
			}
		}
		c.add(s.line, s.ratings, s.pos)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// reserve makes room for rows rows in all, of which the rest will come
// from at most left more bytes of input.
func (c *codedTable) reserve(rows int, left int64) {
	if rows <= c.n {
		return
	}
	r := len(c.raters)
	if c.codes32 != nil {
		c.codes32 = slices.Grow(c.codes32, (rows-c.n)*r)
	} else {
		c.codes16 = slices.Grow(c.codes16, (rows-c.n)*r)
	}
	if s := c.ids; s != nil && s.n > 0 {
		s.reserve(rows)
		more := float64(len(s.data)) / float64(s.n) * float64(rows-s.n) * 1.05
		s.data = slices.Grow(s.data, int(min(more, float64(left))))
		s.blocks = slices.Grow(s.blocks, (rows-s.n)/idBlock+1)
	}
}

// inputSize returns the number of bytes left in r when r tells it (a
// regular file, a bytes.Reader or strings.Reader), else 0.
func inputSize(r io.Reader) int64 {
	switch v := r.(type) {
	case interface{ Len() int }:
		return int64(v.Len())
	case *os.File:
		fi, err := v.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			return 0
		}
		at, err := v.Seek(0, io.SeekCurrent)
		if err != nil {
			return 0
		}
		return fi.Size() - at
	}
	return 0
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// coded turns a LabelTable into its coded form.
func (t *LabelTable) coded() (*codedTable, error) {
	ct := &codedTable{file: t.File, raters: t.Raters, idColumn: t.IDColumn}
	if t.IDColumn != "" {
		ct.ids = &idSet{}
		for _, r := range t.Rows {
			if !ct.ids.push([]byte(r.ID)) {
				return nil, fmt.Errorf("%s: the ids come to more than %d bytes, the most the analysis keeps", t.File, maxIDBytes)
			}
		}
	}
	c := newCoder(ct)
	for _, r := range t.Rows {
		pos := func(j int) (int, int) {
			if j < len(r.cells) {
				return r.cells[j][0], r.cells[j][1]
			}
			return r.Line, 0
		}
		c.addString(r.Line, r.Ratings, pos)
	}
	return ct, nil
}

// codeRatings codes ratings[u] (units of a statistic's arguments, with
// no file behind them).
func codeRatings(ratings [][]string) *codedTable {
	width := 0
	for _, r := range ratings {
		width = max(width, len(r))
	}
	ct := &codedTable{raters: make([]string, width)}
	for j := range ct.raters {
		ct.raters[j] = "rater " + strconv.Itoa(j+1)
	}
	c := newCoder(ct)
	row := make([]string, width)
	for u, r := range ratings {
		clear(row)
		copy(row, r)
		c.addString(u+1, row, nil)
	}
	return ct
}
