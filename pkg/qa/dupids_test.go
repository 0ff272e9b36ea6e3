package qa

import (
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

// A 50 MB id repeated is found (16 bytes kept per row) and the message
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

// radixSort sorts as slices.Sort does (random values, seeded).
func TestRadixSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 1000, 70000} {
		x := make([]uint64, n)
		for i := range x {
			x[i] = rng.Uint64() >> uint(rng.IntN(64))
		}
		want := slices.Clone(x)
		slices.Sort(want)
		radixSort(x)
		if !slices.Equal(x, want) {
			t.Fatalf("n %d: not sorted", n)
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
	d.addBatch([]idLine{{hashID(id, model), uint32(line)}})
}
