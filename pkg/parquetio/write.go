package parquetio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"iter"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/evalbook/evalbook/pkg/results"
)

// DefaultRowGroupRows is the number of rows per row group when
// WriteOptions.RowGroupRows is 0.
const DefaultRowGroupRows = 16 << 10

// maxRowGroups is one more than the most row groups a file should have:
// a RowGroup's ordinal is an i16, and arrow-rs refuses a file of more.
// (A variable for the tests.)
var maxRowGroups = 32768

// WriteOptions configures a Writer.
type WriteOptions struct {
	// RowGroupRows is the number of rows buffered, then written as one
	// row group; 0 means DefaultRowGroupRows. A group ends sooner when its
	// text reaches 64 MiB. Memory is about two groups' compressed text
	// (one filled while the other is written) and a page of each free-text
	// column. A file keeps under 32,768 row groups, which arrow-rs
	// (DataFusion, delta-rs, parquet-wasm) reads no file beyond: after
	// 16,384 groups the Writer doubles the rows of its groups, and again
	// each time it has used half of the groups left.
	RowGroupRows int
	// Omit names input columns not to write (a partitioned folder keeps
	// its partition columns in the directory names, as Hive does).
	Omit []string
	// Compression is the pages' codec: "snappy" (also ""), "zstd" or
	// "none". Snappy is the default of pyarrow, Spark and DuckDB, and the
	// cheapest codec to write here; zstd makes files about a third smaller
	// for about 40% more writing CPU; none skips the codec, the cheapest
	// in CPU, for files 3 times as large (measured on verdict rows: see
	// docs/speed.md, Reports and Parquet).
	Compression string

	// part: the Writer writes one partition of a DirWriter, whose row
	// groups end when the folder's rows do, not at RowGroupRows: its
	// first group is not grown to RowGroupRows ahead (see reserve).
	part bool
}

// codec returns the arrow-go codec Compression names.
func (o WriteOptions) codec() (compress.Compression, error) {
	switch strings.ToLower(o.Compression) {
	case "", "snappy":
		return compress.Codecs.Snappy, nil
	case "zstd":
		return compress.Codecs.Zstd, nil
	case "none", "uncompressed":
		return compress.Codecs.Uncompressed, nil
	}
	return 0, fmt.Errorf("parquetio: no Parquet compression %q (snappy, zstd or none)", o.Compression)
}

// A Writer writes verdict rows (results.Row, as pkg/qa scores them) to one
// Parquet file, with the columns of the verdict file `score --out`
// writes, typed:
//
//   - each input column (question, answer, Domain, response, ...): string;
//   - each metric (exact_substring, word_overlap, ...): double, 1 or 0
//     for a binary metric, the score for a graded one, null where the row
//     has no verdict (NaN);
//   - matching_words, total_golden_words (with word_overlap): int64;
//   - blank_response, empty_golden: boolean;
//   - a verdict file's extra columns (a judge's reasons): string.
//
// Pages are Snappy-compressed (WriteOptions.Compression); strings that
// repeat and the numbers are dictionary-encoded. The file's key-value
// metadata records evalbook's metric ids ("evalbook.metrics",
// "evalbook.graded"). Rows are buffered and written a row group at a
// time; Close writes the last one and the footer (it does not close the
// io.Writer).
//
// Each row's values are appended to column buffers of the Writer's own,
// reused from one row group to the next, in the layout of Parquet's
// pages: a free-text column is its values in the plain encoding (each a
// 4-byte length and its bytes), a column that repeats (model, language)
// its distinct values so and the rows' indices into them, a column of
// many repeating values (golden answers: see lateValues) its values plain,
// made a dictionary when the group is written (the first group holds
// every column plain, up to decideBytes, to choose from). The file is then written from
// those buffers by this package (pqfile.go), not through arrow-go's
// generic column writers.
type Writer struct {
	schema  *results.RowSchema
	fields  []int    // indices in Row.Fields that are written
	cols    []column // the file's columns
	pf      *pqFile  // started by the first row group
	out     io.Writer
	cur     *group      // the row group being filled
	free    chan *group // groups written, to fill again
	bg      chan *group // row groups to the encoding goroutine
	bgDone  chan error
	bgErr   atomic.Pointer[error]
	dict    []bool // per string column, decided from the first rows (see decide)
	late    []bool // per dictionary column: held plain (see lateBytes)
	room    []int  // per free-text column: the room its pages start in (the first group's text, up to a page)
	nstr    int    // string columns: kept input columns, then extra
	codec   compress.Compression
	pcodec  compress.Codec // codec's encoder for the pages of free text (nil: none)
	cbuf    []byte         // a page of free text compressed
	spare   [][]byte       // per column, the page buffer going from one group to the next (Flush)
	part    bool           // WriteOptions.part
	n, max  int
	groups  int // row groups flushed
	grow    int // the number of groups after which max doubles (see WriteOptions.RowGroupRows)
	written int64
	closed  bool
}

// group is one row group's values, column by column.
type group struct {
	n     int
	strs  []strCol
	vals  [][]uint64 // per metric, a value for every row (0 where null), as math.Float64bits
	valid [][]byte   // per metric, the validity bitmap
	nulls []int      // per metric, the number of nulls
	words [2][]uint64
	flags [2][]byte // bitmaps
	bytes int       // text bytes held
	// Per string column streamed (see strCol.stream): the pages already
	// compressed (Writer.compressPage), their bytes one after another.
	pages [][]cpage
	arena [][]byte
}

// cpage is a compressed page of a streamed column: raw bytes before
// compression, n values, its body at arena[off:off+size].
type cpage struct{ raw, n, off, size int }

// strCol is a string column of a row group in Parquet's plain encoding:
// data holds each value as its 4-byte little-endian length and its bytes,
// offs where each starts (and len(data) last). A dictionary column (dict)
// holds its distinct values so, the rows' indices into them in idx, and
// a hash table of the values (slots: see lookup).
type strCol struct {
	data   []byte
	offs   []int32
	dict   bool
	idx    []int32
	slots  []uint64
	hashed bool // the dictionary has outgrown the scan: slots index it
	// guess: before hashed, the index plus one of the value last found
	// under each labelKey slot, compared first; keys: each value's labelKey,
	// compared instead of the bytes.
	guess [256]uint8
	keys  [smallDict]labelKey
	// stream: a free-text column once the encodings are decided, which holds
	// only its current page (data, offs); each full page is compressed
	// as soon as it is full (Writer.compressPage), so a row group is held
	// compressed, not as its raw text.
	stream bool
	seed   maphash.Seed
}

func (c *strCol) reset(dict, stream bool) {
	if stream && cap(c.data) > 2*pageMaxBytes {
		c.data = nil // grown by a huge value: a page at a time from now on (Flush gives it room)
	}
	c.data, c.offs, c.idx = c.data[:0], append(c.offs[:0], 0), c.idx[:0]
	c.dict, c.hashed, c.stream = dict, false, stream
	c.guess = [256]uint8{}
}

// len is the number of values held (distinct values for a dictionary).
func (c *strCol) len() int { return len(c.offs) - 1 }

// value returns value i's bytes.
func (c *strCol) value(i int) []byte { return c.data[c.offs[i]+4 : c.offs[i+1]] }

func (c *strCol) push(s string) { push(c, s) }

// push appends v to c, in the plain encoding.
func push[T string | []byte](c *strCol, v T) {
	c.data = binary.LittleEndian.AppendUint32(c.data, uint32(len(v)))
	c.data = append(c.data, v...)
	c.offs = append(c.offs, int32(len(c.data)))
}

func (c *strCol) add(s string) {
	if !c.dict {
		c.push(s)
		return
	}
	// A few distinct values (a model, a language) are found faster by
	// comparing than by hashing: first with the value last found under
	// s's key, then with each.
	if !c.hashed {
		key := keyOf(s)
		g := &c.guess[key.slot()]
		if i := int(*g) - 1; i >= 0 && c.keys[i] == key && (key.n <= 16 || string(c.value(i)) == s) {
			c.idx = append(c.idx, int32(i))
			return
		}
		k := c.len()
		for i := range k {
			if c.keys[i] == key && (key.n <= 16 || string(c.value(i)) == s) {
				c.idx = append(c.idx, int32(i))
				*g = uint8(i + 1)
				return
			}
		}
		if k < smallDict {
			c.push(s)
			c.idx = append(c.idx, int32(k))
			c.keys[k] = key
			*g = uint8(k + 1)
			return
		}
		c.rehash(max(len(c.slots), 1024))
	}
	c.idx = append(c.idx, c.lookup(s))
}

// lookup returns the index of s in the hashed dictionary c, adding it if
// new; lookupBytes the same for bytes (the encoder's, from a column held
// plain), without making them a string.
func (c *strCol) lookup(s string) int32 { return lookup(c, s, maphash.String(c.seed, s)) }

func (c *strCol) lookupBytes(v []byte) int32 { return lookup(c, v, maphash.Bytes(c.seed, v)) }

// lookup finds v, whose hash is h, in c's table. A slot holds a value's
// index plus one in its low 32 bits and the high 32 bits of its hash
// above them, so that a probe past another value rarely reads that
// value's bytes.
func lookup[T string | []byte](c *strCol, v T, h uint64) int32 {
	mask := len(c.slots) - 1
	tag := h >> 32
	for p := int(h) & mask; ; p = (p + 1) & mask {
		k := c.slots[p]
		if k == 0 {
			i := int32(c.len())
			push(c, v)
			c.slots[p] = tag<<32 | uint64(i+1)
			if 2*int(i+1) > len(c.slots) {
				c.rehash(2 * len(c.slots))
			}
			return i
		}
		if k>>32 == tag {
			if i := int(uint32(k)) - 1; string(c.value(i)) == string(v) {
				return int32(i)
			}
		}
	}
}

// rehash makes the hash table n slots (a power of two) and puts every
// value in it.
func (c *strCol) rehash(n int) {
	if c.slots == nil {
		c.seed = maphash.MakeSeed()
	}
	if cap(c.slots) >= n {
		c.slots = c.slots[:n]
		clear(c.slots)
	} else {
		c.slots = make([]uint64, n)
	}
	mask := n - 1
	for i := range c.len() {
		h := maphash.Bytes(c.seed, c.value(i))
		p := int(h) & mask
		for c.slots[p] != 0 {
			p = (p + 1) & mask
		}
		c.slots[p] = h>>32<<32 | uint64(i+1)
	}
	c.hashed = true
}

// smallDict is the most distinct values a dictionary column keeps
// without a hash table (and below 256, an index in a uint8 of guess).
const smallDict = 16

// A labelKey stands for a short string (a model, a language, a domain)
// in a dictionary of a few: its length and its first and last eight
// bytes (when shorter than eight: its first and last four, or its first,
// middle and last byte, which with the length are all of it). Equal strings
// have equal keys, and strings of at most 16 bytes equal keys only when
// they are equal, so such values are compared as three integers instead
// of as bytes; a longer value is compared as bytes once its key matches.
type labelKey struct {
	n     int
	first uint64
	last  uint64
}

func keyOf(s string) labelKey {
	n := len(s)
	var a uint64
	switch {
	case n >= 8:
		return labelKey{n, load64(s), load64(s[n-8:])}
	case n >= 4: // two loads that overlap cover every byte
		a = uint64(load32(s)) | uint64(load32(s[n-4:]))<<32
	case n > 0: // the first, middle and last byte are all of it
		a = uint64(s[0]) | uint64(s[n>>1])<<8 | uint64(s[n-1])<<16
	}
	return labelKey{n, a, a}
}

// load32 returns s's first four bytes, little-endian (one load).
func load32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// load64 returns s's first eight bytes, little-endian (one load).
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// slot is the key's slot in strCol.guess: its bits mixed by two
// multiplications, so that a few labels rarely share one.
func (k labelKey) slot() int {
	h := (k.first ^ k.last*0x9e3779b97f4a7c15 ^ uint64(k.n)) * 0xd6e8feb86659fd93
	return int(h >> 56)
}

// distinct returns the number of distinct values of the plain column c
// (the first row group's), counting no further than limit. The hash
// table (slots, grown and returned for the next call) holds a value's
// row index plus one and the high bits of its hash, as lookup's does,
// and no value is copied: a column of free text stops at limit having
// only hashed that many values.
func (c *strCol) distinct(limit int, slots []uint64) (int, []uint64) {
	size := 1024
	for size < 2*limit {
		size *= 2
	}
	if cap(slots) >= size {
		slots = slots[:size]
		clear(slots)
	} else {
		slots = make([]uint64, size)
	}
	seed := maphash.MakeSeed()
	mask := size - 1
	k := 0
	for i := range c.len() {
		v := c.value(i)
		h := maphash.Bytes(seed, v)
		tag := h >> 32
		for p := int(h) & mask; ; p = (p + 1) & mask {
			e := slots[p]
			if e == 0 {
				slots[p] = tag<<32 | uint64(i+1)
				if k++; k >= limit {
					return k, slots
				}
				break
			}
			if e>>32 == tag && string(c.value(int(uint32(e))-1)) == string(v) {
				break
			}
		}
	}
	return k, slots
}

// columns returns the columns of the Parquet file a Writer writes for
// rows of s, without the omitted input columns, and the indices of the
// kept input columns.
func columns(s *results.RowSchema, omit []string) ([]column, []int, error) {
	if s == nil {
		return nil, nil, errors.New("parquetio: the row schema is nil")
	}
	var cs []column
	var keep []int
	seen := map[string]bool{}
	add := func(c column) error {
		if seen[c.name] {
			return fmt.Errorf("parquetio: the verdict table would have two columns named %q (rename the input column)", c.name)
		}
		seen[c.name] = true
		cs = append(cs, c)
		return nil
	}
	omitted := map[string]bool{}
	for _, o := range omit {
		omitted[o] = true
	}
	for i, c := range s.Columns {
		if omitted[c] {
			delete(omitted, c)
			continue
		}
		keep = append(keep, i)
		if err := add(column{name: c, typ: ptByteArray, text: true}); err != nil {
			return nil, nil, err
		}
	}
	for _, o := range slices.Sorted(maps.Keys(omitted)) {
		return nil, nil, fmt.Errorf("parquetio: no input column %q to leave out (the columns are %s)", o, strings.Join(s.Columns, ", "))
	}
	for _, m := range s.Metrics {
		if err := add(column{name: m, typ: ptDouble, optional: true}); err != nil {
			return nil, nil, err
		}
	}
	if s.Words {
		for _, n := range []string{"matching_words", "total_golden_words"} {
			if err := add(column{name: n, typ: ptInt64}); err != nil {
				return nil, nil, err
			}
		}
	}
	if s.Flags {
		for _, n := range []string{"blank_response", "empty_golden"} {
			if err := add(column{name: n, typ: ptBoolean}); err != nil {
				return nil, nil, err
			}
		}
	}
	for _, e := range s.Extra {
		if err := add(column{name: e, typ: ptByteArray, text: true}); err != nil {
			return nil, nil, err
		}
	}
	return cs, keep, nil
}

// NewWriter starts a Parquet file on w for rows of schema s.
func NewWriter(w io.Writer, s *results.RowSchema, opt WriteOptions) (*Writer, error) {
	cols, keep, err := columns(s, opt.Omit)
	if err != nil {
		return nil, err
	}
	if opt.RowGroupRows <= 0 {
		opt.RowGroupRows = DefaultRowGroupRows
	}
	codec, err := opt.codec()
	if err != nil {
		return nil, err
	}
	nstr := len(keep) + len(s.Extra)
	wr := &Writer{grow: maxRowGroups / 2, codec: codec, part: opt.part, schema: s, fields: keep, cols: cols, max: opt.RowGroupRows, out: w, nstr: nstr, spare: make([][]byte, nstr)}
	if codec != compress.Codecs.Uncompressed {
		if wr.pcodec, err = compress.GetCodec(codec); err != nil {
			return nil, fmt.Errorf("parquetio: %w", err)
		}
	}
	wr.cur = wr.newGroup()
	return wr, nil
}

func (w *Writer) newGroup() *group {
	m := len(w.schema.Metrics)
	g := &group{strs: make([]strCol, w.nstr), vals: make([][]uint64, m), valid: make([][]byte, m), nulls: make([]int, m),
		pages: make([][]cpage, w.nstr), arena: make([][]byte, w.nstr)}
	g.reset(w.dict, w.late)
	return g
}

// reserveAfter is the number of rows of the first group after which its
// buffers are grown to the size the whole group will take, estimated
// from those rows: one allocation each instead of a dozen doublings,
// whose garbage set off a garbage collection each.
const reserveAfter = 1024

// reserve grows g's buffers for a group of max rows, estimated from the
// rows it holds, in the layout its columns are held in: before the
// encodings are decided (the first group), for text up to decideBytes in
// all; once they are, a free-text column's page is not grown, nor a
// dictionary's values, and the rows are as many as maxGroupBytes of text
// allows.
func (g *group) reserve(max int, decided bool) {
	scale := float64(max) / float64(g.n) * 1.05
	text := 0
	for j := range g.strs {
		text += len(g.strs[j].data)
	}
	limit := maxGroupBytes
	if !decided {
		limit = min(limit, decideBytes)
	}
	if t := float64(text) * scale; t > float64(limit) {
		scale *= float64(limit) / t
	}
	rows := int(float64(g.n) * scale)
	for j := range g.strs {
		switch c := &g.strs[j]; {
		case c.stream: // a page at a time
		case c.dict: // an index for each row; its distinct values grow as they come
			c.idx = grow(c.idx, rows-len(c.idx))
		default: // plain: a late column up to lateBytes and a page (see add)
			want := int(float64(len(c.data)) * scale)
			if decided {
				want = min(want, lateBytes+pageMaxBytes)
			}
			c.data = grow(c.data, want-len(c.data))
			c.offs = grow(c.offs, rows+1-len(c.offs))
		}
	}
	for j := range g.vals {
		g.vals[j] = grow(g.vals[j], rows-len(g.vals[j]))
		g.valid[j] = grow(g.valid[j], rows/8+1-len(g.valid[j]))
	}
	for k := range 2 {
		g.words[k] = grow(g.words[k], rows-len(g.words[k]))
		g.flags[k] = grow(g.flags[k], rows/8+1-len(g.flags[k]))
	}
}

// grow returns s with room for n more elements, as slices.Grow does,
// but without writing to that room: slices.Grow zeroes it, and zeroing a
// new allocation touches each of its pages at once, so that a group
// reserved for more rows than come (a file of 10,000 rows, room for
// 16,384) pays for pages it never uses. make leaves memory fresh from
// the system untouched until it is written.
func grow[S ~[]E, E any](s S, n int) S {
	if n <= cap(s)-len(s) {
		return s
	}
	t := make(S, len(s), len(s)+n)
	copy(t, s)
	return t
}

// newGroupLike returns a new group whose buffers have the capacity of
// g's, so that the second group does not grow its buffers value by value
// as the first did.
func (w *Writer) newGroupLike(g *group) *group {
	h := w.newGroup()
	for j := range h.strs {
		c, d := &h.strs[j], &g.strs[j]
		if c.stream {
			continue // a page at a time, in room for one (see Flush)
		}
		if w.late[j] { // held plain, up to lateBytes
			c.data = make([]byte, 0, min(cap(d.data), lateBytes+pageMaxBytes))
			c.offs = make([]int32, 1, cap(d.offs))
			continue
		}
		if w.dict[j] { // an index for each row; its distinct values grow as they come
			c.idx = make([]int32, 0, max(cap(d.offs), cap(d.idx)))
			continue
		}
		c.data = make([]byte, 0, cap(d.data))
		c.offs = make([]int32, 1, max(1, cap(d.offs)))
	}
	for j := range h.vals {
		h.vals[j] = make([]uint64, 0, cap(g.vals[j]))
		h.valid[j] = make([]byte, 0, cap(g.valid[j]))
	}
	for k := range 2 {
		h.words[k] = make([]uint64, 0, cap(g.words[k]))
		h.flags[k] = make([]byte, 0, cap(g.flags[k]))
	}
	return h
}

func (g *group) reset(dict, late []bool) {
	g.n, g.bytes = 0, 0
	for j := range g.strs {
		// Before the first row group is written (dict nil), every
		// column is held whole, to choose its encoding from.
		g.strs[j].reset(j < len(dict) && dict[j] && !late[j], j < len(dict) && !dict[j])
		g.pages[j], g.arena[j] = g.pages[j][:0], g.arena[j][:0]
	}
	for j := range g.vals {
		g.vals[j], g.valid[j], g.nulls[j] = g.vals[j][:0], g.valid[j][:0], 0
	}
	for k := range 2 {
		g.words[k], g.flags[k] = g.words[k][:0], g.flags[k][:0]
	}
}

// setBit sets (or leaves clear) bit i of the bitmap *b, which holds i bits.
func setBit(b *[]byte, i int, v bool) {
	if i%8 == 0 {
		*b = append(*b, 0)
	}
	if v {
		(*b)[i/8] |= 1 << (i % 8)
	}
}

// maxGroupBytes bounds the text of a row group of more than one row: a
// row that would take it past this starts the next group, so that rows
// of long text make smaller groups, not more memory (a Writer holds two
// groups). A page's size is a 32-bit number, so a value holds less
// than 2 GiB.
var maxGroupBytes = 64 << 20 // a variable for the tests

// Write adds one row. The row is copied: it may be reused after Write
// returns (as pkg/qa reuses its rows).
func (w *Writer) Write(r *results.Row) error {
	if w.closed {
		return errors.New("parquetio: Write after Close")
	}
	if r.Schema != w.schema && (len(r.Fields) != len(w.schema.Columns) || len(r.Values) != len(w.schema.Metrics)) {
		return fmt.Errorf("parquetio: row %d has %d fields and %d verdicts; the writer's schema has %d and %d",
			r.Line, len(r.Fields), len(r.Values), len(w.schema.Columns), len(w.schema.Metrics))
	}
	g := w.cur
	size := 0
	for _, i := range w.fields {
		size += len(r.Fields[i])
	}
	for _, e := range r.Extra {
		size += len(e)
	}
	if g.n > 0 && g.bytes+size > maxGroupBytes {
		if err := w.Flush(); err != nil {
			return err
		}
		g = w.cur
	}
	if size >= math.MaxInt32-4*w.nstr {
		return fmt.Errorf("parquetio: row %d holds %d MiB of text; a Parquet row group's column holds at most 2 GiB", r.Line, size>>20)
	}
	g.bytes += size
	for j, i := range w.fields {
		w.add(g, j, r.Fields[i])
	}
	for j, v := range r.Values {
		var b uint64
		nan := math.IsNaN(v)
		if nan {
			g.nulls[j]++
		} else {
			b = math.Float64bits(v)
		}
		g.vals[j] = append(g.vals[j], b)
		setBit(&g.valid[j], g.n, !nan)
	}
	if w.schema.Words {
		g.words[0] = append(g.words[0], uint64(int64(r.Matching)))
		g.words[1] = append(g.words[1], uint64(int64(r.TotalGolden)))
	}
	if w.schema.Flags {
		setBit(&g.flags[0], g.n, r.Blank)
		setBit(&g.flags[1], g.n, r.EmptyGolden)
	}
	if len(w.schema.Extra) > 0 {
		base := len(w.fields)
		for j := range w.schema.Extra {
			v := ""
			if j < len(r.Extra) {
				v = r.Extra[j]
			}
			w.add(g, base+j, v)
		}
	}
	g.n++
	w.n++
	if w.pf == nil && !w.part {
		switch {
		case g.n == reserveAfter && w.max > 2*reserveAfter:
			g.reserve(w.max, false)
		case g.bytes >= decideBytes && g.n < w.max:
			if err := w.decide(g); err != nil {
				return err
			}
		}
	}
	if w.n >= w.max {
		return w.Flush()
	}
	return nil
}

// Flush writes the buffered rows as a row group (nothing when none are
// buffered).
func (w *Writer) Flush() error {
	if w.n == 0 {
		return nil
	}
	g := w.cur
	if err := w.start(g, g.n); err != nil {
		return err
	}
	w.written += int64(w.n)
	w.n = 0
	if w.groups++; w.groups == w.grow && w.max <= math.MaxInt32 {
		w.max *= 2
		w.grow += (maxRowGroups - w.grow) / 2
	}
	// Row groups are encoded and written on a goroutine of their own
	// while the next one is filled: with two cores, filling and
	// encoding overlap. Two groups take turns; the pages of free text
	// are compressed as they fill, the last one here.
	if w.groups == 1 { // the first group: the second is made like it
		w.startEncoding()
		w.free <- w.newGroupLike(g)
	}
	if e := w.bgErr.Load(); e != nil {
		return *e
	}
	// The last page of each free-text column is compressed here, and
	// its buffer goes on to the next group: one buffer a column, not one
	// in each group.
	for j := range g.strs {
		if c := &g.strs[j]; c.stream {
			if c.len() > 0 {
				w.compressPage(g, j)
			}
			w.spare[j], c.data = c.data[:0], nil
		}
	}
	w.bg <- g
	w.cur = <-w.free
	w.cur.reset(w.dict, w.late)
	for j := range w.cur.strs {
		// The first group's free text was let go when it was written,
		// a page grown by a huge value by reset: the next page starts in
		// room for one (Writer.room), not grown from nothing.
		c := &w.cur.strs[j]
		if !c.stream {
			continue
		}
		if c.data, w.spare[j] = w.spare[j], nil; cap(c.data) < w.room[j] {
			c.data = make([]byte, 0, w.room[j])
		}
	}
	return nil
}

// startEncoding starts the encoding goroutine (once the file is started).
func (w *Writer) startEncoding() {
	if w.bg != nil {
		return
	}
	w.bg = make(chan *group, 1)
	w.bgDone = make(chan error, 1)
	w.free = make(chan *group, 2)
	enc := &encoder{f: w.pf, nf: len(w.fields), words: w.schema.Words, flags: w.schema.Flags, dict: w.dict, late: w.late}
	go w.encode(enc, w.bg, w.free, w.bgDone)
}

// decideBytes is the text the first group holds whole, to choose each
// string column's encoding from (see start): a group whose text passes it
// before the group is full has its encodings chosen from the rows so far
// (decide), and the rest of it is filled as later groups are (a free-text
// column a page at a time, compressed as each page fills; a column
// of few values as a dictionary), instead of being held whole up to
// maxGroupBytes. A group of 16,384 rows of the benchmark file holds 3.5 MB
// and is chosen from whole; one of rows of long responses, or of many rows
// (WriteOptions.RowGroupRows), is chosen from its first 8 MiB. (A variable
// for the tests.)
var decideBytes = 8 << 20

// decide chooses the encodings from the rows g holds (the first group's,
// before it is full) and puts g's columns in the layout later groups are
// filled in: a free-text column's values are cut into pages as streaming
// would have cut them (the file's bytes are those of a Writer that
// decided at the group's end, when it decides the same), all but the
// last compressed; a dictionary column of few values becomes
// its dictionary and indices; a column of many values stays plain (see
// lateValues).
func (w *Writer) decide(g *group) error {
	if err := w.start(g, w.max); err != nil {
		return err
	}
	w.startEncoding()
	for j := range g.strs {
		c := &g.strs[j]
		switch {
		case !w.dict[j]:
			// Its pages start in room for the group's text of it, up to a
			// page, estimated from the rows so far.
			w.room[j] = int(min(float64(len(c.data))*float64(w.max)/float64(g.n)*1.05, pageMaxBytes))
			old, offs := c.data, c.offs
			n := len(offs) - 1
			c.stream = true
			for a := 0; a < n; {
				b := a + 1
				for b < n && int(offs[b+1]-offs[a]) <= pageMaxBytes {
					b++
				}
				if b < n {
					w.addPage(g, j, old[offs[a]:offs[b]], b-a)
					a = b
					continue
				}
				page := append(make([]byte, 0, max(w.room[j], int(offs[b]-offs[a]))), old[offs[a]:offs[b]]...)
				base, m := offs[a], 0
				for i := a; i <= n; i++ { // m <= i: each offset is read before it is overwritten
					offs[m] = offs[i] - base
					m++
				}
				c.data, c.offs = page, offs[:m]
				a = b
			}
		case !w.late[j]:
			c.toDict()
		}
	}
	g.reserve(w.max, true)
	return nil
}

// encode is the encoding goroutine: it writes the row groups that come
// in, handing them back on free, and sends its first error (or nil) on
// done when in is closed. After an error it only hands groups back.
func (w *Writer) encode(enc *encoder, in <-chan *group, free chan<- *group, done chan<- error) {
	var err error
	for g := range in {
		if err == nil {
			if werr := enc.group(g); werr != nil {
				err = fmt.Errorf("parquetio: writing a row group: %w", werr)
				w.bgErr.Store(&err)
			}
		}
		free <- g
	}
	done <- err
}

// add appends v to string column j of g; a streamed column whose page
// would pass pageMaxBytes has that page compressed first.
func (w *Writer) add(g *group, j int, v string) {
	c := &g.strs[j]
	switch {
	case c.dict:
		c.add(v)
	case c.stream:
		if len(c.data)+4+len(v) > pageMaxBytes && len(c.offs) > 1 {
			w.compressPage(g, j)
		}
		c.push(v)
	default:
		c.push(v)
		if len(c.data) > lateBytes && w.late != nil {
			c.toDict()
		}
	}
}

// A dictionary column of more than lateValues distinct values in the
// first row group (golden answers: 13,103 of 65,536 in the benchmark
// file) is held plain and made each group's dictionary by the encoding
// goroutine, where its hash table and values stay in the cache: looked up
// here, among the other columns' text, each value took about three times
// as long. Fewer values (models, subjects, a few hundred answers) are
// found quickly here. Past lateBytes of a group's text, the column is
// made a dictionary here (toDict) and the rest of the group looked up as
// it comes, so that a group holds little more than before. (Variables
// for the tests.)
var (
	lateValues = 4096
	lateBytes  = 2 << 20
)

// toDict makes the plain column c a dictionary column of its values: the
// index of each and the distinct values, in order of first appearance.
func (c *strCol) toDict() {
	d := strCol{seed: c.seed, slots: c.slots, idx: c.idx[:0]}
	d.reset(true, false)
	d.rehash(max(len(d.slots), 1024))
	for i := range c.len() {
		d.idx = append(d.idx, d.lookupBytes(c.value(i)))
	}
	*c = d
}

// compressPage compresses the page of streamed column j of g into the
// group's pages and starts the next page in the same buffer (in a new
// one when a huge value grew it).
//
// A page is compressed here, by the goroutine that filled it, while its
// bytes are still in this core's cache, rather than on the encoding
// goroutine: on the two cores of the benchmark machine that took 1.4% off
// the Parquet run's CPU (about 0.02 CPU-s per million rows), with pages of
// 256 KiB (see pageMaxBytes; docs/speed.md, An eighth look).
func (w *Writer) compressPage(g *group, j int) {
	c := &g.strs[j]
	w.addPage(g, j, c.data, c.len())
	if cap(c.data) > 2*pageMaxBytes {
		c.data = make([]byte, 0, pageMaxBytes)
	}
	c.data, c.offs = c.data[:0], c.offs[:1]
}

// addPage appends raw, n values of streamed column j in the plain
// encoding, compressed, to g's pages of that column.
func (w *Writer) addPage(g *group, j int, raw []byte, n int) {
	body := encodeWith(w.pcodec, &w.cbuf, raw, 2*pageMaxBytes)
	g.pages[j] = append(g.pages[j], cpage{raw: len(raw), n: n, off: len(g.arena[j]), size: len(body)})
	g.arena[j] = append(g.arena[j], body...)
}

// wait ends the encoding goroutine and returns its error.
func (w *Writer) wait() error {
	if w.bg == nil {
		return nil
	}
	close(w.bg)
	err := <-w.bgDone
	w.bg = nil
	return err
}

// Rows returns the number of rows written or buffered.
func (w *Writer) Rows() int64 { return w.written + int64(w.n) }

// Buffered returns the number of rows buffered for the next row group.
func (w *Writer) Buffered() int { return w.n }

// Close writes the buffered rows and the file's footer.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	err := w.Flush()
	if werr := w.wait(); err == nil {
		err = werr
	}
	w.closed = true
	if err == nil && w.pf == nil { // no rows: an empty file with the schema
		err = w.start(w.cur, 0)
	}
	if w.pf == nil {
		return err
	}
	if cerr := w.pf.close(); err == nil && cerr != nil {
		err = fmt.Errorf("parquetio: closing the file: %w", cerr)
	}
	return err
}

// WriteRows writes the rows of seq (as qa.Rows yields them) to w as one
// Parquet file and returns how many it wrote. The schema is the first
// row's; a sequence without rows writes nothing and returns 0 and an
// error, as a Parquet file needs a schema (use NewWriter with a schema to
// write an empty file). An error from seq stops the writing and is
// returned as it is (a *tabular.ParseError for bad input).
func WriteRows(w io.Writer, seq iter.Seq2[*results.Row, error], opt WriteOptions) (int64, error) {
	var wr *Writer
	for r, err := range seq {
		if err != nil {
			if wr != nil {
				wr.Close()
			}
			return rowsOf(wr), err
		}
		if wr == nil {
			var nerr error
			if wr, nerr = NewWriter(w, r.Schema, opt); nerr != nil {
				return 0, nerr
			}
		}
		if err := wr.Write(r); err != nil {
			wr.Close()
			return wr.Rows(), err
		}
	}
	if wr == nil {
		return 0, errors.New("parquetio: no rows to write")
	}
	return wr.Rows(), wr.Close()
}

func rowsOf(w *Writer) int64 {
	if w == nil {
		return 0
	}
	return w.Rows()
}

// start begins the file, choosing each string column's encoding from
// the first row group g: a column whose values repeat (model, language,
// Domain, a golden answer: fewer distinct values than half the rows) is
// dictionary-encoded and keeps min/max statistics; free text (questions,
// responses) is written plain, without statistics (min/max of free text
// prunes nothing). The distinct values are only counted here (no further
// than half the rows, without copying them); g's dictionaries are built
// by the encoding goroutine, and later groups are filled as such.
func (w *Writer) start(g *group, rows int) error {
	if w.pf != nil {
		return nil
	}
	w.dict, w.late, w.room = make([]bool, w.nstr), make([]bool, w.nstr), make([]int, w.nstr)
	var slots []uint64
	for j := range g.strs {
		if g.n == 0 {
			continue
		}
		var k int
		limit := (g.n + 1) / 2
		k, slots = g.strs[j].distinct(limit, slots)
		// A group decided on before it is full (see decide) counts as
		// many values more as it will have rows more.
		w.dict[j], w.late[j] = k < limit, k < limit && float64(k)*float64(rows) > float64(lateValues)*float64(g.n)
		if !w.dict[j] {
			w.room[j] = min(len(g.strs[j].data), pageMaxBytes)
		}
	}
	graded := make([]string, len(w.schema.Graded))
	for i, b := range w.schema.Graded {
		graded[i] = strconv.FormatBool(b)
	}
	kv := [][2]string{
		{"evalbook.metrics", strings.Join(w.schema.Metrics, ",")},
		{"evalbook.graded", strings.Join(graded, ",")},
	}
	pf, err := newPQFile(w.out, w.cols, w.codec, kv)
	if err != nil {
		return fmt.Errorf("parquetio: %w", err)
	}
	w.pf = pf
	return nil
}
