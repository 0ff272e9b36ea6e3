package stats

import "testing"

// BenchmarkRankMeans: the paired rank bootstrap of 20 models × 10,000
// items (pass/fail) × 1,000 replicates.
func BenchmarkRankMeans(b *testing.B) {
	vals := make([][]float64, 20)
	for m := range vals {
		vals[m] = make([]float64, 10000)
		for i := range vals[m] {
			if (i*31+m*17)%100 < 50+m {
				vals[m][i] = 1
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		RankMeans(vals, RankOptions{Resamples: 1000, Seed: 1})
	}
}
