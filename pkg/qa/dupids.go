package qa

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/evalbook/evalbook/pkg/results"
)

// CodeDuplicateIDs is the code of the warning for ids that more than
// one row carries. Score's rows need not have ids, so a repeat is a
// warning (compare and agree, which pair rows by id, refuse it).
const CodeDuplicateIDs = "duplicate_ids"

// WarnDuplicateIDs is CodeDuplicateIDs' former name.
//
// Deprecated: use CodeDuplicateIDs.
const WarnDuplicateIDs = CodeDuplicateIDs

// idBatch holds the id keys of one batch's rows in the order they were
// added: a 64-bit hash a row, and the rows' lines as runs of consecutive
// lines (a batch of one-line records has a single run), so a row costs
// 8 bytes.
type idBatch struct {
	h    []uint64
	runs []lineRun
}

// lineRun says that row at of a batch, and each row after it up to the
// next run, is on line, line+1, and so on.
type lineRun struct{ at, line uint32 }

func (b *idBatch) add(h uint64, line int) {
	if k := len(b.runs); k == 0 || int(b.runs[k-1].line)+len(b.h)-int(b.runs[k-1].at) != line {
		b.runs = append(b.runs, lineRun{uint32(len(b.h)), uint32(line)})
	}
	b.h = append(b.h, h)
}

// line returns the line of row i of the batch.
func (b *idBatch) line(i int) int {
	k := sort.Search(len(b.runs), func(k int) bool { return int(b.runs[k].at) > i }) - 1
	return int(b.runs[k].line) + i - int(b.runs[k].at)
}

var idSeed = maphash.MakeSeed()

// hashID hashes a row's key: its id and, with a model column, its model
// (one question answered by several models is no repeat).
func hashID(id, model string) uint64 {
	h := maphash.String(idSeed, id)
	if model != "" {
		h ^= maphash.String(idSeed, model)*0x9E3779B97F4A7C15 + 1 // id a by model b is not id b by model a
	}
	return h
}

// dupIDs finds the keys that more than one row carries. Each batch's
// keys are kept as the batch made them (8 bytes a row however long the
// id, see idBatch), so scoring takes no lock per row and keeps no map of
// strings, and warning finds the repeats at the end with a small
// filter (see warning): on the 1M-row benchmark this keeps 8 MB and
// needs about 3 MB more at the end. Two distinct keys share a 64-bit
// hash with a probability below 3e-8 for a million rows; such a pair
// would be reported as a repeat, with its lines, for the user to look at.
type dupIDs struct {
	mu      sync.Mutex
	batches []*idBatch
	n       int
}

func newDupIDs() *dupIDs { return &dupIDs{} }

// addBatch keeps the keys a batch collected (they are not copied).
func (d *dupIDs) addBatch(ids *idBatch) {
	if d == nil || ids == nil || len(ids.h) == 0 {
		return
	}
	d.mu.Lock()
	d.batches = append(d.batches, ids)
	d.n += len(ids.h)
	d.mu.Unlock()
}

// warning returns the duplicate_ids warning, or nil when every key is
// distinct: Count is the rows whose key an earlier row has, Lines the
// first maxWarnLines of them, and the message names up to three repeats
// with the line of the row they repeat.
func (d *dupIDs) warning() *results.Warning {
	if d == nil || d.n < 2 {
		return nil
	}
	repeated := d.repeatedHashes() // hash -> first line (set below)
	if len(repeated) == 0 {
		return nil
	}
	type repeat struct{ line, of int }
	type keyLine struct {
		h    uint64
		line int
	}
	var all []keyLine
	for _, b := range d.batches {
		for i, h := range b.h {
			if _, ok := repeated[h]; ok {
				all = append(all, keyLine{h, b.line(i)})
			}
		}
	}
	slices.SortFunc(all, func(a, b keyLine) int { return cmp.Compare(a.line, b.line) })
	var reps []repeat
	for _, x := range all {
		if first := repeated[x.h]; first < 0 {
			repeated[x.h] = x.line
		} else {
			reps = append(reps, repeat{x.line, first})
		}
	}
	w := &results.Warning{Code: CodeDuplicateIDs, Count: len(reps)}
	var ex []string
	for i, r := range reps {
		if i < maxWarnLines {
			w.Lines = append(w.Lines, r.line)
		}
		if i < 3 {
			ex = append(ex, fmt.Sprintf("line %d repeats line %d", r.line, r.of))
		}
	}
	if len(reps) > 3 {
		ex = append(ex, fmt.Sprintf("and %d more", len(reps)-3))
	}
	w.Message = fmt.Sprintf("%d %s the id of an earlier row (%s); rows are scored as they are, but a join or a comparison on id would pair them wrongly",
		w.Count, plural(w.Count, "row repeats", "rows repeat"), strings.Join(ex, "; "))
	return w
}

// repeatedHashes returns the hashes that more than one kept key has,
// each mapped to -1. It does not sort every hash: a first pass marks
// each hash's slot in a bitmap of 8 to 16 bits a key, at most 4 MB (the
// hash's top bits pick the slot), noting the slots met twice in a
// second bitmap; a second pass takes the hashes whose slot was met
// twice (about one in nine when the keys are distinct and the bitmap is
// not at its cap), sieve thins those on the hashes' low bits, and only
// what stays is sorted to find the real repeats. For a million keys
// that is two bitmaps of 1 MB and a sort of a few thousand hashes
// instead of a sorted copy of them all.
func (d *dupIDs) repeatedHashes() map[uint64]int {
	// 2^logSlots >= 8 n, up to 2^25: past 4 MB a bitmap leaves the
	// cache and each key waits on memory twice (10M keys: 8 slots a
	// key 370-420 ms, 4 slots 180 ms, the cap's 3.4 slots 160-170 ms,
	// BenchmarkDupWarning), while the candidates it lets through more
	// often cost little: sieve thins them in a bitmap of their own.
	logSlots := max(6, min(25, bits.Len(uint(8*d.n-1))))
	shift := uint(64 - logSlots)
	seen := make([]uint64, 1<<(logSlots-6))
	twice := make([]uint64, len(seen))
	for _, b := range d.batches {
		for _, h := range b.h {
			s := h >> shift
			w, m := s>>6, uint64(1)<<(s&63)
			if seen[w]&m != 0 {
				twice[w] |= m
			}
			seen[w] |= m
		}
	}
	// A slot is shared by distinct keys with probability about
	// 1 - e^(-n/slots): room for that many and a tenth more, so that
	// the candidates (21 MB at 10M keys) are not copied as they grow.
	share := 1 - math.Exp(-float64(d.n)/float64(uint64(1)<<logSlots))
	cand := make([]uint64, 0, int(1.1*share*float64(d.n))+16)
	for _, b := range d.batches {
		for _, h := range b.h {
			if s := h >> shift; twice[s>>6]&(1<<(s&63)) != 0 {
				cand = append(cand, h)
			}
		}
	}
	cand = sieve(cand)
	slices.Sort(cand)
	repeated := map[uint64]int{}
	for i := 1; i < len(cand); i++ {
		if cand[i] == cand[i-1] {
			repeated[cand[i]] = -1
		}
	}
	return repeated
}

// sieve returns the hashes of cand whose low bits another hash of cand
// shares, in place: the filter of repeatedHashes again, on the low bits
// (independent of the top bits that picked cand), with 16 slots a hash.
// Of the candidates of distinct keys about one in sixteen stays, so the
// sort that finds the real repeats sorts a few thousand hashes, not a
// hundred thousand (half the time of the whole search, measured with
// BenchmarkDupWarning); a real repeat always stays.
func sieve(cand []uint64) []uint64 {
	if len(cand) < 1024 {
		return cand
	}
	logSlots := bits.Len(uint(16*len(cand) - 1))
	mask := uint64(1)<<logSlots - 1
	seen := make([]uint64, 1<<(logSlots-6))
	twice := make([]uint64, len(seen))
	for _, h := range cand {
		s := h & mask
		w, m := s>>6, uint64(1)<<(s&63)
		if seen[w]&m != 0 {
			twice[w] |= m
		}
		seen[w] |= m
	}
	kept := cand[:0]
	for _, h := range cand {
		if s := h & mask; twice[s>>6]&(1<<(s&63)) != 0 {
			kept = append(kept, h)
		}
	}
	return kept
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
