package leaderboard

import (
	"math"
	"testing"
)

// A rowSet hands back every row as it was added: 0/1 values as bits
// until a graded one (or -0, or NaN) turns them into float64s, blanks,
// domains and corpus indexes, also through appendSet and clip.
func TestRowSetRoundTrip(t *testing.T) {
	in := []row{
		{key: 1, domain: 2, value: 1},
		{key: 2, domain: 2, blank: true},
		{key: 3, domain: 5, value: 1, blank: true},
	}
	for i := range 130 { // past two words of bits
		in = append(in, row{key: uint32(10 + i), domain: uint32(i % 3), value: float64(i % 2), blank: i%7 == 0})
	}
	graded := append(append([]row{}, in...), row{key: 500, value: 0.25}, row{key: 501, value: 1}, row{key: 502, value: math.Copysign(0, -1)},
		row{key: 503, value: math.NaN(), st: 4})
	for _, rows := range [][]row{in, graded} {
		var s rowSet
		for _, r := range rows {
			s.add(r)
		}
		var both rowSet
		both.appendSet(&s)
		both.clip()
		for _, got := range []*rowSet{&s, &both} {
			if got.len() != len(rows) {
				t.Fatalf("%d rows, want %d", got.len(), len(rows))
			}
			for i, want := range rows {
				r := got.at(i)
				if r.key != want.key || r.domain != want.domain || r.blank != want.blank || r.st != want.st ||
					math.Float64bits(r.value) != math.Float64bits(want.value) {
					t.Errorf("row %d: %+v, want %+v", i, r, want)
				}
				if v := got.value(i); math.Float64bits(v) != math.Float64bits(want.value) {
					t.Errorf("row %d: value %v, want %v", i, v, want.value)
				}
			}
		}
		if graded := len(rows) > len(in); (s.vals != nil) != graded || (s.st != nil) != graded {
			t.Errorf("graded %v: vals %v, st %v", graded, s.vals != nil, s.st != nil)
		}
	}
}

// What a board holds per row: a million 0/1 rows, added one at a time
// and clipped as scoreFile does, take under 8.5 bytes a row (4 for the
// key, 4 for the domain, a bit each for the value and the blank flag;
// the row structs took 24).
func TestRowSetBytesPerRow(t *testing.T) {
	const n = 1_000_000
	var s rowSet
	for i := range n {
		s.add(row{key: uint32(i), domain: uint32(i % 8), value: float64(i % 3 / 2), blank: i%30 == 0})
	}
	s.clip()
	held := 4*cap(s.keys) + 4*cap(s.domains) + 8*cap(s.ones) + 8*cap(s.blanks) + 8*cap(s.vals) + 4*cap(s.st)
	if per := float64(held) / n; per > 8.5 {
		t.Errorf("%.2f bytes a row (%d bytes), want at most 8.5", per, held)
	}
	if s.vals != nil || s.st != nil {
		t.Errorf("0/1 rows keep float64 values or corpus indexes")
	}
}

// group merges exactly the items whose figures agree for every model, in
// the order of their first item: two models on six items (1/1 three
// times, 0/1 twice, 1/0 once) are three groups of 3, 2 and 1; a model
// with two rows on an item keeps its counts.
func TestSliceBootGroup(t *testing.T) {
	b := &Board{}
	var keys []uint32
	for _, k := range []string{"a", "b", "c", "d", "e", "f"} {
		keys = append(keys, b.id(k))
	}
	x, y := &rowSet{}, &rowSet{}
	for i, v := range [][2]float64{{1, 1}, {0, 1}, {1, 1}, {1, 0}, {0, 1}, {1, 1}} {
		x.add(row{key: keys[i], value: v[0]})
		y.add(row{key: keys[i], value: v[1]})
	}
	sb := b.newSliceBoot([]*rowSet{x, y}, nil)
	if got := sb.mult; len(got) != 3 || got[0] != 3 || got[1] != 2 || got[2] != 1 {
		t.Fatalf("groups %v, want [3 2 1]", got)
	}
	if sb.sums[0][1] != 0 || sb.sums[1][2] != 0 || sb.cnts[0] != nil {
		t.Errorf("sums %v, counts %v", sb.sums, sb.cnts)
	}
	// y answers a twice (two rows): a is a group of its own, and four
	// groups of six items do not halve them, so none are formed.
	y.add(row{key: keys[0], value: 1})
	sb = b.newSliceBoot([]*rowSet{x, y}, nil)
	if sb.mult != nil || len(sb.sums[1]) != 6 {
		t.Fatalf("groups %v over %d columns, want none", sb.mult, len(sb.sums[1]))
	}
	if sb.cnts[1] == nil || sb.cnts[1][0] != 2 || sb.sums[1][0] != 2 {
		t.Errorf("y's counts %v, sums %v", sb.cnts[1], sb.sums[1])
	}
}
