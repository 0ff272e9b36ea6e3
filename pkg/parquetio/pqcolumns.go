package parquetio

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/bits"
)

// encoder writes the Writer's row groups to its file, on the encoding
// goroutine: its buffers are that goroutine's.
type encoder struct {
	f            *pqFile
	nf           int // kept input columns (the extra columns follow the flags)
	words, flags bool
	raw          []byte  // a page before compression
	idx          []int32 // a numeric column's dictionary indices
	nd           numDict
	dict, late   []bool // per string column: dictionary-encoded, held plain (Writer.dict, late)
	first        strCol // a dictionary of a column held plain, built here
}

// numRows is a numeric column's rows in one data page: a multiple of 8,
// so that each page's definition levels start on a byte of the validity
// bitmap.
const numRows = 64 << 10

// group writes g as one row group, column by column in the schema's
// order: the kept input columns, the metrics, the word counts and flags
// when the schema has them, the extra columns.
func (e *encoder) group(g *group) error {
	rg := rowGroup{rows: int64(g.n), start: e.f.off}
	for j := range e.nf {
		rg.chunks = append(rg.chunks, e.strChunk(g, j))
	}
	for j, v := range g.vals {
		var valid []byte
		if g.nulls[j] > 0 {
			valid = g.valid[j]
		}
		rg.chunks = append(rg.chunks, e.numChunk(v, valid, g.nulls[j], true))
	}
	if e.words {
		for _, v := range g.words {
			rg.chunks = append(rg.chunks, e.numChunk(v, nil, 0, false))
		}
	}
	if e.flags {
		for _, b := range g.flags {
			rg.chunks = append(rg.chunks, e.boolChunk(b, g.n))
		}
	}
	for j := e.nf; j < len(g.strs); j++ {
		rg.chunks = append(rg.chunks, e.strChunk(g, j))
	}
	e.f.groups = append(e.f.groups, rg)
	return e.f.err
}

// strChunk writes a string column: free text as plain pages of about
// pageMaxBytes each, straight from the column's buffer; a dictionary
// column as its dictionary page and pages of indices, with the smallest
// and largest value as statistics.
func (e *encoder) strChunk(g *group, j int) chunk {
	c := &g.strs[j]
	ch := chunk{dataOff: -1, dictOff: -1}
	if c.stream { // every page compressed as it filled (Writer.compressPage)
		ch.encodings = []int32{encPlain, encRLE}
		for _, p := range g.pages[j] {
			e.f.putPage(&ch, pageData, p.raw, g.arena[j][p.off:p.off+p.size], p.n, encPlain)
			ch.numValues += int64(p.n)
		}
		return ch
	}
	if !c.dict && e.dict[j] {
		// Held plain (the first group's, to choose its encoding, or a
		// column of many values: see lateBytes): made the group's
		// dictionary here. The first group's plain values of a column of
		// few are let go (the group's later use holds a dictionary).
		d := &e.first
		d.reset(true, false)
		d.rehash(max(len(d.slots), 1024))
		for i := range c.len() {
			d.idx = append(d.idx, d.lookupBytes(c.value(i)))
		}
		if !e.late[j] || cap(c.data) > 2*lateBytes {
			c.data, c.offs = nil, nil
		}
		c = d
	}
	if !c.dict {
		n := c.len()
		ch.numValues = int64(n)
		ch.encodings = []int32{encPlain, encRLE}
		for a := 0; a < n; {
			b := a + 1
			for b < n && int(c.offs[b+1]-c.offs[a]) <= pageMaxBytes {
				b++
			}
			e.f.page(&ch, pageData, c.data[c.offs[a]:c.offs[b]], b-a, encPlain)
			a = b
		}
		// The first group's whole column of free text, let go now: later
		// groups stream it a page at a time.
		c.data = nil
		return ch
	}
	ch.numValues = int64(len(c.idx))
	ch.encodings = []int32{encPlain, encRLE, encRLEDict}
	e.f.page(&ch, pageDict, c.data, c.len(), encPlain)
	lo, hi := c.value(0), c.value(0)
	for i := 1; i < c.len(); i++ {
		v := c.value(i)
		if bytes.Compare(v, lo) < 0 {
			lo = v
		}
		if bytes.Compare(v, hi) > 0 {
			hi = v
		}
	}
	ch.st = &stats{min: bytes.Clone(lo), max: bytes.Clone(hi)}
	e.dictPages(&ch, c.idx, c.len())
	return ch
}

// dictPages writes the data pages of a string dictionary column: its
// rows' indices into a dictionary of entries values, bit-packed, in pages
// of about pageMaxBytes.
func (e *encoder) dictPages(ch *chunk, idx []int32, entries int) {
	w := bitWidth(entries)
	per := max(8, pageMaxBytes*8/w/8*8)
	for a := 0; a < len(idx); a += per {
		b := min(len(idx), a+per)
		e.raw = append(e.raw[:0], byte(w))
		e.raw = appendBitPacked(e.raw, idx[a:b], w)
		e.f.page(ch, pageData, e.raw, b-a, encRLEDict)
	}
}

// countBits counts the set bits of rows [a, b) of bitmap v (a a multiple
// of 8).
func countBits(v []byte, a, b int) int {
	n := 0
	for i := a / 8; i < b/8; i++ {
		n += bits.OnesCount8(v[i])
	}
	if r := b % 8; r != 0 {
		n += bits.OnesCount8(v[b/8] & (byte(1)<<r - 1))
	}
	return n
}

// numChunk writes a numeric column: a metric (double, optional: null
// where valid's bit is clear) or a word count (int64, required),
// dictionary-encoded when its values repeat (a binary metric's 0 and 1),
// else plain; its statistics are the null count and the smallest and
// largest value.
func (e *encoder) numChunk(v []uint64, valid []byte, nulls int, double bool) chunk {
	n := len(v)
	ch := chunk{dataOff: -1, dictOff: -1, numValues: int64(n), st: &stats{nulls: int64(nulls)}}
	d := &e.nd
	d.reset()
	idx := e.idx[:0]
	plain := false
	skip := valid != nil && nulls > 0 // the validity bitmap is read only when it has a gap
	for i, x := range v {
		if skip && valid[i>>3]&(1<<(i&7)) == 0 {
			continue
		}
		// The value last found under x's key is a guess held however
		// many values there are (values never move): most rows end here.
		k := uint(d.guess[numKey(x)]) - 1 // no guess (0) wraps past len
		if k >= uint(len(d.vals)) || d.vals[k] != x {
			k = uint(d.index(x))
			if len(d.vals) > 16 && 2*len(d.vals) > n {
				plain = true // no saving: most values differ
				break
			}
		}
		idx = append(idx, int32(k))
	}
	e.idx = idx
	var lo, hi uint64
	have := false
	less := func(a, b uint64) bool {
		if double {
			return math.Float64frombits(a) < math.Float64frombits(b)
		}
		return int64(a) < int64(b)
	}
	span := d.vals
	if plain {
		span = v
	}
	for i, x := range span {
		if plain && valid != nil && valid[i>>3]&(1<<(i&7)) == 0 {
			continue
		}
		if !have || less(x, lo) {
			lo = x
		}
		if !have || less(hi, x) {
			hi = x
		}
		have = true
	}
	if have {
		if double { // parquet.thrift: a zero minimum is written as -0.0, a zero maximum as +0.0
			if lo<<1 == 0 {
				lo = 1 << 63
			}
			if hi<<1 == 0 {
				hi = 0
			}
		}
		ch.st.min = binary.LittleEndian.AppendUint64(nil, lo)
		ch.st.max = binary.LittleEndian.AppendUint64(nil, hi)
	}
	if !plain {
		ch.encodings = []int32{encPlain, encRLE, encRLEDict}
		e.raw = e.raw[:0]
		for _, x := range d.vals {
			e.raw = binary.LittleEndian.AppendUint64(e.raw, x)
		}
		e.f.page(&ch, pageDict, e.raw, len(d.vals), encPlain)
	} else {
		ch.encodings = []int32{encPlain, encRLE}
	}
	k := 0
	for a := 0; a < n; a += numRows {
		b := min(n, a+numRows)
		e.raw = e.raw[:0]
		cnt := b - a
		if double {
			e.raw = appendLevels(e.raw, valid, a, b)
			if valid != nil {
				cnt = countBits(valid, a, b)
			}
		}
		if plain {
			for i := a; i < b; i++ {
				if valid == nil || valid[i>>3]&(1<<(i&7)) != 0 {
					e.raw = binary.LittleEndian.AppendUint64(e.raw, v[i])
				}
			}
			e.f.page(&ch, pageData, e.raw, b-a, encPlain)
			continue
		}
		w := bitWidth(len(d.vals))
		e.raw = append(e.raw, byte(w))
		e.raw = appendBitPacked(e.raw, e.idx[k:k+cnt], w)
		k += cnt
		e.f.page(&ch, pageData, e.raw, b-a, encRLEDict)
	}
	return ch
}

// boolChunk writes a flag column (required): plain booleans are the
// bitmap itself.
func (e *encoder) boolChunk(v []byte, n int) chunk {
	ch := chunk{dataOff: -1, dictOff: -1, numValues: int64(n), encodings: []int32{encPlain, encRLE}}
	ones := countBits(v, 0, n)
	lo, hi := byte(0), byte(0)
	if ones == n {
		lo = 1
	}
	if ones > 0 {
		hi = 1
	}
	ch.st = &stats{min: []byte{lo}, max: []byte{hi}}
	const per = pageMaxBytes * 8
	for a := 0; a < n; a += per {
		b := min(n, a+per)
		e.raw = append(e.raw[:0], v[a/8:(b+7)/8]...)
		if r := b % 8; r != 0 {
			e.raw[len(e.raw)-1] &= byte(1)<<r - 1
		}
		e.f.page(&ch, pageData, e.raw, b-a, encPlain)
	}
	return ch
}

// numDict is a numeric column's dictionary: its distinct values (as
// bits) in order of appearance.
type numDict struct {
	vals []uint64
	m    map[uint64]int32
	// guess: while there are at most 16 values, the index plus one of
	// the value last found under each numKey, compared first.
	guess [64]uint8
}

func (d *numDict) reset() {
	d.vals = d.vals[:0]
	clear(d.m)
	d.guess = [64]uint8{}
}

// numKey is x's slot in numDict.guess: its low bits and its exponent's,
// which tell small integers and a binary metric's 0 and 1 apart.
func numKey(x uint64) int { return int((x ^ x>>52) & 63) }

// index returns the index of x, which is not the value last found under
// its key (numChunk tries that guess first), adding x if new. Up to 16
// values are found by comparing with each, remembering the one found as
// its key's guess; then a map takes over.
func (d *numDict) index(x uint64) int32 {
	if len(d.vals) <= 16 {
		g := &d.guess[numKey(x)]
		for i, y := range d.vals {
			if y == x {
				*g = uint8(i + 1)
				return int32(i)
			}
		}
		if len(d.vals) < 16 {
			d.vals = append(d.vals, x)
			*g = uint8(len(d.vals))
			return int32(len(d.vals) - 1)
		}
		if d.m == nil {
			d.m = map[uint64]int32{}
		}
		for i, y := range d.vals {
			d.m[y] = int32(i)
		}
	}
	i, ok := d.m[x]
	if !ok {
		i = int32(len(d.vals))
		d.vals = append(d.vals, x)
		d.m[x] = i
	}
	return i
}
