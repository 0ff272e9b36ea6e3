package agree

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"io"
	"math"
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

// itemName names row i as LabelTable.ItemName does.
func (c *codedTable) itemName(i int) string {
	if c.ids != nil {
		return c.ids.get(i)
	}
	return strconv.Itoa(i + 1)
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
	last     []string
	lastCode []uint32
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
	_, err := scanLabels(r, file, raters, idColumn, func(s *labelScan) error {
		if t.ids != nil {
			first, dup, full := t.ids.add(s.id)
			if full {
				return s.idErr("the ids of the file come to more than %d bytes, the most this reader keeps; give fewer rows or shorter ids", maxIDBytes)
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

// idSet keeps the ids of a table in one block of bytes and finds
// duplicates with an open-addressing hash table (at most half full) whose
// slots hold a row number and 32 bits of the id's hash, so that a probe
// reads the id's bytes only when the hashes match: 16 bytes a row or
// less, far smaller than a map of strings.
type idSet struct {
	buf  []byte
	ends []uint32 // ends[i] is where id i ends in buf
	slot []uint64 // hash<<32 | row+1; 0 is empty
	used int
	seed maphash.Seed
}

// maxIDBytes bounds the ids an idSet keeps (its offsets are 32 bits).
const maxIDBytes = math.MaxUint32

func newIDSet() *idSet { return &idSet{seed: maphash.MakeSeed(), slot: make([]uint64, 1024)} }

// len returns the length of id i.
func (s *idSet) len(i int) int { return len(s.bytes(i)) }

// idCursor reads the ids of an idSet in ascending order.
type idCursor struct{ s *idSet }

// cursor returns a cursor at the first id.
func (s *idSet) cursor() *idCursor { return &idCursor{s: s} }

// at returns id i, at or after the last one asked for; the bytes are
// valid until the next call.
func (c *idCursor) at(i int) []byte { return c.s.bytes(i) }

// get returns id i.
func (s *idSet) get(i int) string { return string(s.bytes(i)) }

func (s *idSet) bytes(i int) []byte {
	var start uint32
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.buf[start:s.ends[i]]
}

// push appends id without the duplicate check; false when the ids would
// pass maxIDBytes.
func (s *idSet) push(id []byte) bool {
	if len(s.buf)+len(id) > maxIDBytes {
		return false
	}
	s.buf = append(s.buf, id...)
	s.ends = append(s.ends, uint32(len(s.buf)))
	return true
}

// add appends id and reports whether it was there already, and then the
// row it first appeared in (and does not append it); full when the ids
// would pass maxIDBytes.
func (s *idSet) add(id []byte) (first int, dup, full bool) {
	h := maphash.Bytes(s.seed, id)
	tag := h >> 32 << 32
	mask := uint64(len(s.slot) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		v := s.slot[i]
		if v == 0 {
			if !s.push(id) {
				return 0, false, true
			}
			s.slot[i] = tag | uint64(len(s.ends))
			s.used++
			if 2*s.used > len(s.slot) {
				s.grow()
			}
			return 0, false, false
		}
		if v&^0xffffffff == tag {
			if row := int(uint32(v)) - 1; bytes.Equal(s.bytes(row), id) {
				return row, true, false
			}
		}
	}
}

func (s *idSet) grow() {
	old := s.slot
	s.slot = make([]uint64, 2*len(old))
	mask := uint64(len(s.slot) - 1)
	for _, v := range old {
		if v == 0 {
			continue
		}
		h := maphash.Bytes(s.seed, s.bytes(int(uint32(v))-1))
		i := h & mask
		for s.slot[i] != 0 {
			i = (i + 1) & mask
		}
		s.slot[i] = v
	}
}
