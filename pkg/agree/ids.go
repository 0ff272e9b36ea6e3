package agree

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math"
	"runtime/debug"
)

// idSet keeps the ids of a table and finds duplicates as they arrive.
//
// The ids are front-coded in one block of bytes: each id is stored as the
// length of the prefix it shares with the id before it, the length of the
// rest and the rest (two uvarints and the bytes), and every idBlock-th id
// in full, so that id i is found by decoding at most idBlock ids from
// the start of its block. Ids such as item1, item2, ... take two or
// three bytes each instead of their length plus a four-byte offset.
//
// While the ids arrive in increasing order (shortlex: shorter first,
// then by bytes, so that item9 comes before item10) none can be a
// duplicate and no table is kept. From the first id out of that order
// on, duplicates are found with an open-addressing hash table (linear
// probing, at most three quarters full, its size any number of slots:
// the slot of a hash is its low 32 bits scaled to the size), whose slots
// hold a row number and the high 32 bits of the id's hash, so that a
// probe decodes an id only when the hashes match. A reader that knows
// how many rows are coming reserves the table once (reserve) rather than
// let it double, which would hold the old and the new table at once.
// (The table is built, from the ids kept, when the order first breaks.)
type idSet struct {
	data   []byte // the front-coded ids
	blocks []int  // blocks[b] is where id b·idBlock starts in data
	n      int    // ids
	raw    int    // their total length, for maxIDBytes
	// prev is the last id added (when not longer than maxShared: a longer
	// one is not kept, and the next id is stored in full).
	prev    []byte
	prevOK  bool
	hashed  bool     // the ids have left increasing order: the table is in use
	hint    int      // the number of ids reserve announced
	slot    []uint64 // hash>>32<<32 | row+1; 0 is empty
	used    int
	seed    maphash.Seed
	scratch []byte // what bytes decodes into
}

const (
	idBlock   = 16
	maxShared = 1 << 10
	// maxIDBytes bounds the ids an idSet keeps.
	maxIDBytes = math.MaxUint32
	// maxIDRows bounds the rows (a slot holds row+1 in 32 bits).
	maxIDRows = math.MaxUint32 - 1
)

func newIDSet() *idSet { return &idSet{seed: maphash.MakeSeed()} }

// shortlexLess reports whether a comes before b shorter first, then by
// bytes: a strict total order in which no two different ids are equal.
func shortlexLess(a, b []byte) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return bytes.Compare(a, b) < 0
}

// push appends id without the duplicate check; false when the ids would
// pass maxIDBytes or maxIDRows.
func (s *idSet) push(id []byte) bool {
	if s.raw+len(id) > maxIDBytes || s.n >= maxIDRows {
		return false
	}
	s.raw += len(id)
	shared := 0
	if s.n%idBlock == 0 {
		s.blocks = append(s.blocks, len(s.data))
	} else if s.prevOK {
		p := s.prev
		for shared < len(p) && shared < len(id) && p[shared] == id[shared] {
			shared++
		}
	}
	s.data = binary.AppendUvarint(s.data, uint64(shared))
	s.data = binary.AppendUvarint(s.data, uint64(len(id)-shared))
	releaseBefore(len(id), len(s.data))
	s.data = append(s.data, id[shared:]...)
	s.prevOK = len(id) <= maxShared
	if s.prevOK {
		s.prev = append(s.prev[:0], id...)
	}
	s.n++
	return true
}

// bigField is the length of a field beyond which releaseBefore hands
// memory back to the operating system.
const bigField = 4 << 20

// releaseBefore is called before a copy of a field of n bytes is kept,
// with kept bytes of its kind kept already. A field of more than
// bigField bytes has made the CSV reader double its buffer up to the
// field's size, and the smaller buffers it left behind are free memory
// that the runtime keeps for a while: when the field is also large
// against what is kept (so that this happens a few times a file, not
// once a row), they are handed back to the operating system first, and
// the copy does not come on top of them (a 50 MiB id costs 118 MB of
// peak RSS above a tiny file instead of 166).
func releaseBefore(n, kept int) {
	if n > bigField && n > kept/2 {
		debug.FreeOSMemory()
	}
}

// decode decodes the entry at data[at:], the id after prev (anything at
// a block's start), and returns the id and the next entry's place. An id
// stored in full is returned as a part of data (a long id is not
// copied); one that shares a prefix with prev is built in own (which prev
// may be) and returned with own.
func (s *idSet) decode(prev, own []byte, at int) (id, own2 []byte, next int) {
	shared, k := binary.Uvarint(s.data[at:])
	at += k
	rest, k := binary.Uvarint(s.data[at:])
	at += k
	end := at + int(rest)
	if shared == 0 {
		return s.data[at:end:end], own, end
	}
	own = append(own[:0], prev[:shared]...)
	own = append(own, s.data[at:end]...)
	return own, own, end
}

// bytes returns id i, valid until the next call of bytes.
func (s *idSet) bytes(i int) []byte {
	at := s.blocks[i/idBlock]
	var id []byte
	for range i%idBlock + 1 {
		id, s.scratch, at = s.decode(id, s.scratch, at)
	}
	return id
}

// get returns id i.
func (s *idSet) get(i int) string { return string(s.bytes(i)) }

// idCursor reads the ids of an idSet in ascending order, decoding each
// block once.
type idCursor struct {
	s       *idSet
	next    int // the id the entry at off holds
	off     int
	cur     []byte // id next-1
	own     []byte
	started bool
}

// cursor returns a cursor before the first id.
func (s *idSet) cursor() *idCursor { return &idCursor{s: s} }

// at returns id i, which is at or after the last one asked for; the
// bytes are valid until the next call.
func (c *idCursor) at(i int) []byte {
	if !c.started || i/idBlock != (c.next-1)/idBlock || i < c.next-1 {
		c.next, c.off, c.cur = i/idBlock*idBlock, c.s.blocks[i/idBlock], nil
		c.started = true
	}
	for c.next <= i {
		c.cur, c.own, c.off = c.s.decode(c.cur, c.own, c.off)
		c.next++
	}
	return c.cur
}

// place returns the slot where a hash's probe starts.
func (s *idSet) place(h uint64) int {
	return int(uint64(uint32(h)) * uint64(len(s.slot)) >> 32)
}

// add appends id and reports whether it was there already, and then the
// row it first appeared in (and does not append it); full when the ids
// would pass maxIDBytes or maxIDRows.
func (s *idSet) add(id []byte) (first int, dup, full bool) {
	if !s.hashed {
		if s.n == 0 || (s.prevOK && shortlexLess(s.prev, id)) {
			if !s.push(id) {
				return 0, false, true
			}
			return 0, false, false
		}
		s.hashed, s.used = true, s.n
		s.resize(max(1024, max(s.hint, 2*s.n)/3*4+4))
	}
	h := maphash.Bytes(s.seed, id)
	tag := h >> 32 << 32
	for i := s.place(h); ; {
		v := s.slot[i]
		if v == 0 {
			if !s.push(id) {
				return 0, false, true
			}
			s.slot[i] = tag | uint64(s.n)
			s.used++
			if 4*s.used > 3*len(s.slot) {
				s.resize(2 * len(s.slot))
			}
			return 0, false, false
		}
		if v&^0xffffffff == tag {
			if row := int(uint32(v)) - 1; bytes.Equal(s.bytes(row), id) {
				return row, true, false
			}
		}
		if i++; i == len(s.slot) {
			i = 0
		}
	}
}

// reserve makes room for n ids in all without a resize of the table.
func (s *idSet) reserve(n int) {
	s.hint = max(s.hint, n)
	if want := n/3*4 + 4; s.hashed && want > len(s.slot) {
		s.resize(want)
	}
}

// resize moves the table to one of size slots.
func (s *idSet) resize(size int) {
	s.slot = make([]uint64, size)
	c := s.cursor()
	for row := range s.n {
		h := maphash.Bytes(s.seed, c.at(row))
		i := s.place(h)
		for s.slot[i] != 0 {
			if i++; i == len(s.slot) {
				i = 0
			}
		}
		s.slot[i] = h>>32<<32 | uint64(row+1)
	}
}
