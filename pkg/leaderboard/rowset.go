package leaderboard

import "slices"

// rowSet holds the scored rows of one model on one language (or one
// slice of them), in file order, by column: a key and a domain id of 4
// bytes each, one bit for the blank flag and, while every value is 0 or
// 1, one bit for the value. A graded value (not 0 or 1) turns the values
// into float64s, and a corpus-level metric keeps each row's index into
// Board.corpus. A million 0/1 rows so take about 8.3 MB where the row
// structs took 24.
type rowSet struct {
	n       int
	keys    []uint32
	domains []uint32
	ones    []uint64  // bit i: row i's value is 1, while vals is nil
	blanks  []uint64  // bit i: row i's response is blank
	vals    []float64 // every row's value, once one is not 0 or 1
	st      []int32   // every row's row.st, once one is not 0
}

// len is the number of rows.
func (s *rowSet) len() int {
	if s == nil {
		return 0
	}
	return s.n
}

func setBit(b []uint64, i int) []uint64 {
	for len(b) <= i>>6 {
		b = append(b, 0)
	}
	b[i>>6] |= 1 << (i & 63)
	return b
}

func bit(b []uint64, i int) bool {
	return i>>6 < len(b) && b[i>>6]&(1<<(i&63)) != 0
}

// add appends r.
func (s *rowSet) add(r row) {
	i := s.n
	s.n++
	s.keys = append(s.keys, r.key)
	s.domains = append(s.domains, r.domain)
	if r.blank {
		s.blanks = setBit(s.blanks, i)
	}
	switch {
	case s.vals != nil:
		s.vals = append(s.vals, r.value)
	case r.value == 1:
		s.ones = setBit(s.ones, i)
	case r.value != 0 || isNegZero(r.value): // graded, or NaN
		// The first value that one bit cannot hold: every value as a
		// float64 from here on.
		s.vals = make([]float64, i, max(cap(s.keys), i+1))
		for j := range i {
			if bit(s.ones, j) {
				s.vals[j] = 1
			}
		}
		s.ones = nil
		s.vals = append(s.vals, r.value)
	}
	if s.st != nil || r.st != 0 {
		if s.st == nil {
			s.st = make([]int32, i, max(cap(s.keys), i+1))
		}
		s.st = append(s.st, r.st)
	}
}

// isNegZero reports -0, which a bit would turn into 0 (a sum of values
// keeps its sign).
func isNegZero(v float64) bool { return v == 0 && 1/v < 0 }

// at returns row i.
func (s *rowSet) at(i int) row {
	r := row{key: s.keys[i], domain: s.domains[i], blank: bit(s.blanks, i)}
	switch {
	case s.vals != nil:
		r.value = s.vals[i]
	case bit(s.ones, i):
		r.value = 1
	}
	if s.st != nil {
		r.st = s.st[i]
	}
	return r
}

// value is row i's value.
func (s *rowSet) value(i int) float64 {
	if s.vals != nil {
		return s.vals[i]
	}
	if bit(s.ones, i) {
		return 1
	}
	return 0
}

// appendSet appends o's rows.
func (s *rowSet) appendSet(o *rowSet) {
	for i := range o.len() {
		s.add(o.at(i))
	}
}

// clip drops the room the columns have to grow, copying a column that
// has much of it: the board holds them.
func (s *rowSet) clip() {
	s.keys, s.domains, s.ones, s.blanks = trim(s.keys), trim(s.domains), trim(s.ones), trim(s.blanks)
	s.vals, s.st = trim(s.vals), trim(s.st)
}

func trim[T any](c []T) []T {
	if cap(c) > len(c)+len(c)/16 {
		return slices.Clone(c)
	}
	return c
}
