package qa

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Rows 2 and 5 share id a, rows 3, 6 and 7 id b (the header is line 1);
// line 4 has no id; line 8 has id a for another model. Added out of
// order from two goroutines, as the scoring workers do, the warning reads
// as in file order: 3 rows repeat an earlier id (5, 6, 7).
func TestDuplicateIDs(t *testing.T) {
	d := newDupIDs()
	rows := []struct {
		id, model string
		line      int
	}{{"b", "m", 7}, {"a", "m", 5}, {"b", "m", 3}, {"", "m", 4}, {"a", "m", 2}, {"b", "m", 6}, {"c", "m", 8}, {"a", "other", 9}}
	var wg sync.WaitGroup
	for half := range 2 {
		wg.Go(func() {
			for i := half; i < len(rows); i += 2 {
				d.add(rows[i].id, rows[i].model, rows[i].line)
			}
		})
	}
	wg.Wait()
	w := d.warning()
	if w == nil {
		t.Fatal("no warning")
	}
	if w.Code != "duplicate_ids" || w.Count != 3 || !reflect.DeepEqual(w.Lines, []int{5, 6, 7}) {
		t.Errorf("warning %+v", w)
	}
	if want := "line 5 repeats line 2; line 6 repeats line 3; line 7 repeats line 3"; !strings.Contains(w.Message, want) {
		t.Errorf("message %q lacks %q", w.Message, want)
	}
	if newDupIDs().warning() != nil {
		t.Error("warning without rows")
	}
	var none *dupIDs // no id column
	none.add("a", "", 2)
	if none.warning() != nil {
		t.Error("warning from a nil tracker")
	}
}

// A 50 MB id repeated is found (8 bytes kept per row) and the message
// stays short: it names lines, not the id.
func TestDuplicateLongID(t *testing.T) {
	d := newDupIDs()
	big := strings.Repeat("x", 50<<20)
	d.add(big, "", 2)
	d.add(strings.Clone(big), "", 9)
	d.add(big[:len(big)-1], "", 10)
	w := d.warning()
	if w == nil || w.Count != 1 || !reflect.DeepEqual(w.Lines, []int{9}) || len(w.Message) > 300 ||
		!strings.Contains(w.Message, "line 9 repeats line 2") {
		t.Errorf("warning %.400v", w)
	}
}

// The warning agrees with a plain map of the ids on 200,000 rows in
// batches of up to 1,000, with lines that skip (multi-line records, rows
// without id) and about 1% of the rows repeating an earlier id: the
// count, the first lines and the three examples of the message. With
// 8 to 16 filter bits a key, about one hash in ten passes the filter, so
// the exact sort behind it is exercised too.
func TestDuplicateIDsAgainstMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	d := newDupIDs()
	first := map[string]int{}
	type rep struct{ line, of int }
	var want []rep
	line := 1
	for len(first) < 200000 {
		b := &idBatch{}
		for range 1 + rng.IntN(1000) {
			line += 1 + rng.IntN(2)*rng.IntN(3) // mostly the next line
			id := fmt.Sprint("q", rng.IntN(1<<40))
			if rng.IntN(100) == 0 && len(want) < 5000 {
				id = fmt.Sprint("r", rng.IntN(300)) // a small pool of ids that repeat
			}
			if of, ok := first[id]; ok {
				want = append(want, rep{line, of})
			} else {
				first[id] = line
			}
			b.add(hashID(id, ""), line)
		}
		d.addBatch(b)
	}
	w := d.warning()
	if w == nil || w.Count != len(want) {
		t.Fatalf("warning %.300v, want %d repeats", w, len(want))
	}
	for i, l := range w.Lines {
		if l != want[i].line {
			t.Fatalf("line %d of the warning is %d, want %d", i, l, want[i].line)
		}
	}
	for _, r := range want[:3] {
		if s := fmt.Sprintf("line %d repeats line %d", r.line, r.of); !strings.Contains(w.Message, s) {
			t.Errorf("message %q lacks %q", w.Message, s)
		}
	}
}

// idBatch.line gives back each row's line, consecutive or not.
func TestIDBatchLines(t *testing.T) {
	lines := []int{2, 3, 4, 7, 8, 8, 20, 21, 22, 23, 5}
	b := &idBatch{}
	for _, l := range lines {
		b.add(0, l)
	}
	if len(b.runs) != 5 {
		t.Errorf("%d runs, want 5 (2-4, 7-8, 8, 20-23, 5)", len(b.runs))
	}
	for i, l := range lines {
		if got := b.line(i); got != l {
			t.Errorf("row %d: line %d, want %d", i, got, l)
		}
	}
}

// add (for these tests; the scorer collects a batch's keys itself)
// notes that the row on line carries id (with model, "" when there
// is no model column); an empty id is no id. A nil *dupIDs (a table
// without an id column) notes nothing.
func (d *dupIDs) add(id, model string, line int) {
	if d == nil || id == "" {
		return
	}
	b := &idBatch{}
	b.add(hashID(id, model), line)
	d.addBatch(b)
}

// sieve keeps every hash that cand holds more than once, whatever its
// top bits, and drops most of the others: 101,000 hashes get 2^21 slots
// (16 a hash, rounded up to a power of two), so a distinct hash's slot
// is shared with probability 1 - e^(-101000/2^21), about 4.7%.
func TestSieve(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var cand []uint64
	seen := map[uint64]int{}
	for range 100000 {
		h := rng.Uint64()
		cand = append(cand, h)
		seen[h]++
	}
	// repeats: some exact copies, some copies that differ only in the
	// top bits (which picked the candidates) and must not be confused
	for i := range 500 {
		h := cand[i*97]
		cand = append(cand, h)
		seen[h]++
		cand = append(cand, h^1<<63)
		seen[h^1<<63]++
	}
	kept := sieve(slices.Clone(cand))
	in := map[uint64]bool{}
	for _, h := range kept {
		in[h] = true
	}
	for h, n := range seen {
		if n > 1 && !in[h] {
			t.Fatalf("hash %x is in cand %d times and sieve dropped it", h, n)
		}
	}
	// about 4.7% of 101,000 (4,750), and the 1,000 copies with the 500
	// originals of the exact ones
	if len(kept) < 1500 || len(kept) > 8000 {
		t.Fatalf("sieve kept %d of %d hashes, want about 6,000", len(kept), len(cand))
	}
}

// BenchmarkDupWarning is the end-of-run search for repeated ids over
// 1M and 10M distinct keys (the cases of the 1M- and 10M-row files).
func BenchmarkDupWarning(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			d := newDupIDs()
			line := 2
			for range n / 250 {
				ib := &idBatch{}
				for range 250 {
					ib.add(rng.Uint64(), line)
					line++
				}
				d.addBatch(ib)
			}
			for b.Loop() {
				if w := d.warning(); w != nil {
					b.Fatal(w)
				}
			}
		})
	}
}
