package agree

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// The front-coded id set gives back every id it took, by row and by
// cursor (in order, skipping ahead, within and across blocks), and finds
// the duplicates a map finds, with ids that share long prefixes, ids
// longer than maxShared (not kept for the next id's prefix) and a table
// reserved ahead or left to grow.
func TestIDSetFrontCoding(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, reserve := range []int{0, 5000} {
		s := newIDSet()
		if reserve > 0 {
			s.reserve(reserve)
		}
		ref := map[string]int{}
		var ids []string
		for range 8000 {
			var id string
			switch r.IntN(6) {
			case 0:
				id = strings.Repeat("p", maxShared+r.IntN(3)) + strconv.Itoa(r.IntN(50))
			case 1:
				id = "é" + strconv.Itoa(r.IntN(3000))
			default:
				id = "item" + strconv.Itoa(r.IntN(6000))
			}
			first, dup, full := s.add([]byte(id))
			want, wantDup := ref[id]
			if full || dup != wantDup || (dup && first != want) {
				t.Fatalf("%q: (%d, %v, %v), want (%d, %v)", id, first, dup, full, want, wantDup)
			}
			if !dup {
				ref[id] = len(ids)
				ids = append(ids, id)
			}
		}
		if s.n != len(ids) {
			t.Fatalf("%d ids kept, want %d", s.n, len(ids))
		}
		for i, id := range ids {
			if s.get(i) != id {
				t.Fatalf("id %d is %q, want %q", i, s.get(i), id)
			}
		}
		c := s.cursor()
		for i := 0; i < len(ids); i += 1 + r.IntN(40) {
			if got := string(c.at(i)); got != ids[i] {
				t.Fatalf("cursor at %d: %q, want %q", i, got, ids[i])
			}
			if got := string(c.at(i)); got != ids[i] { // the same id again
				t.Fatalf("cursor at %d again: %q, want %q", i, got, ids[i])
			}
		}
	}
}

// Ids in increasing order keep no table; the first id out of order
// builds it from the ids kept, and from then on every duplicate a map
// finds is found, with its first row: a repeat of the id just before, of
// one far back, or of one after the order broke.
func TestIDSetOrderThenTable(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for round := range 60 {
		s := newIDSet()
		if round%2 == 1 {
			s.reserve(3000)
		}
		ordered := r.IntN(2500)
		ref := map[string]int{}
		for k := 0; k < 4000; k++ {
			var id string
			switch {
			case k < ordered:
				id = "item" + strconv.Itoa(k+1) // item9 before item10: increasing, shortest first
			case k == ordered && round%3 == 0 && k > 0:
				id = "item" + strconv.Itoa(k) // the id just before
			default:
				id = "item" + strconv.Itoa(r.IntN(5000))
			}
			first, dup, full := s.add([]byte(id))
			want, wantDup := ref[id]
			if full || dup != wantDup || (dup && first != want) {
				t.Fatalf("round %d, id %d %q: (%d, %v, %v), want (%d, %v)", round, k, id, first, dup, full, want, wantDup)
			}
			if k < ordered && s.hashed {
				t.Fatalf("round %d: a table at id %d, in order", round, k)
			}
			if !dup {
				ref[id] = s.n - 1
			}
		}
		for id, i := range ref {
			if s.get(i) != id {
				t.Fatalf("round %d: id %d is %q, want %q", round, i, s.get(i), id)
			}
		}
	}
	if !shortlexLess([]byte("item9"), []byte("item10")) || shortlexLess([]byte("b"), []byte("a")) || shortlexLess([]byte("a"), []byte("a")) {
		t.Error("shortlexLess")
	}
}
