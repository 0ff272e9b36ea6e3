package qa

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"sync"

	"github.com/evalbook/evalbook/pkg/results"
)

// WarnDuplicateIDs is the code of the warning for ids that more than
// one row carries. Score's rows need not have ids, so a repeat is a
// warning (compare and agree, which pair rows by id, refuse it).
const WarnDuplicateIDs = "duplicate_ids"

// idLine is one row's id, as a 64-bit hash, and its line.
type idLine struct {
	h    uint64
	line uint32
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
// keys (a 64-bit hash and the line, 12 bytes a row; a 50 MB id costs no
// more) are kept as the batch made them, and warning sorts the hashes
// once at the end, so scoring takes no lock per row and keeps no map of
// strings: on the 1M-row benchmark this is about 20 MB and one sort of a
// million integers. Two distinct keys share a 64-bit hash with a
// probability below 3e-8 for a million rows; such a pair would be
// reported as a repeat, with its lines, for the user to look at.
type dupIDs struct {
	mu      sync.Mutex
	batches [][]idLine
	n       int
}

func newDupIDs() *dupIDs { return &dupIDs{} }

// addBatch keeps the keys a batch collected (the slice is not copied).
func (d *dupIDs) addBatch(ids []idLine) {
	if d == nil || len(ids) == 0 {
		return
	}
	d.mu.Lock()
	d.batches = append(d.batches, ids)
	d.n += len(ids)
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
	hs := make([]uint64, 0, d.n)
	for _, b := range d.batches {
		for _, x := range b {
			hs = append(hs, x.h)
		}
	}
	radixSort(hs)
	repeated := map[uint64]int{} // hash -> first line (set below)
	for i := 1; i < len(hs); i++ {
		if hs[i] == hs[i-1] {
			repeated[hs[i]] = -1
		}
	}
	if len(repeated) == 0 {
		return nil
	}
	type repeat struct{ line, of int }
	var all []idLine
	for _, b := range d.batches {
		for _, x := range b {
			if _, ok := repeated[x.h]; ok {
				all = append(all, x)
			}
		}
	}
	slices.SortFunc(all, func(a, b idLine) int { return cmp.Compare(a.line, b.line) })
	var reps []repeat
	for _, x := range all {
		if first := repeated[x.h]; first < 0 {
			repeated[x.h] = int(x.line)
		} else {
			reps = append(reps, repeat{int(x.line), first})
		}
	}
	w := &results.Warning{Code: WarnDuplicateIDs, Count: len(reps)}
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

// radixSort sorts x in place, least significant byte first (8 passes
// over a buffer as long as x): for a million hashes about 4 times
// quicker than slices.Sort, and this sort runs alone at the end of a run.
func radixSort(x []uint64) {
	buf := make([]uint64, len(x))
	src, dst := x, buf
	for shift := uint(0); shift < 64; shift += 8 {
		var count [257]int
		for _, v := range src {
			count[(v>>shift)&0xFF+1]++
		}
		for i := 1; i < 257; i++ {
			count[i] += count[i-1]
		}
		for _, v := range src {
			b := (v >> shift) & 0xFF
			dst[count[b]] = v
			count[b]++
		}
		src, dst = dst, src
	}
	// 8 passes: the sorted data is back in x.
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
