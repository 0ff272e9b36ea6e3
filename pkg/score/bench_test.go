package score

import "testing"

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
