package score

import (
	"bytes"
	"strings"
	"testing"
)

// benchRows mixes English, Hindi and Bengali rows of typical lengths.
var benchRows = [][2]string{
	{"Ruru Jataka", "The medallion at Bharhut shows the Ruru Jataka, the tale of the golden deer."},
	{"Narmada valley", "The Narmada River valley, a rift valley between the Vindhya and Satpura ranges."},
	{"नई दिल्ली", "भारत की राजधानी नई दिल्ली है, जो यमुना के किनारे बसी है।"},
	{"১৯০৫", "বঙ্গভঙ্গ ঘোষিত হয়েছিল ১৯০৫ সালে, লর্ড কার্জনের আমলে।"},
	{"", "No answer found."},
}

// BenchmarkMetrics scores the mixed rows under every registered metric;
// ns/op is per row.
func BenchmarkMetrics(b *testing.B) {
	for _, id := range IDs() {
		m, _ := Lookup(id)
		b.Run(id, func(b *testing.B) {
			s := m.New()
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r := benchRows[i%len(benchRows)]
				s.Score(r[0], r[1])
			}
		})
	}
}

// BenchmarkIndex compares index with bytes.Index on the golden words of
// the benchmark rows searched in their responses.
func BenchmarkIndex(b *testing.B) {
	var pairs [][2][]byte
	for _, r := range benchRows {
		for _, w := range strings.Fields(r[0]) {
			pairs = append(pairs, [2][]byte{[]byte(r[1]), []byte(w)})
		}
	}
	for _, f := range []struct {
		name string
		fn   func(s, sep []byte) int
	}{{"bytes.Index", bytes.Index}, {"index", index}} {
		b.Run(f.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for _, p := range pairs {
					f.fn(p[0], p[1])
				}
			}
		})
	}
}
