package stats

import (
	"math/rand/v2"
	"testing"
)

// benchRankValues: 20 models × 10,000 pass/fail items, seeded, so that
// nearly every item has its own pattern across the models (no grouping).
func benchRankValues(models int) [][]float64 {
	r := rand.New(rand.NewPCG(7, 8))
	vals := make([][]float64, models)
	for m := range vals {
		vals[m] = make([]float64, 10000)
		for i := range vals[m] {
			if r.Float64() < 0.5+0.01*float64(m) {
				vals[m][i] = 1
			}
		}
	}
	return vals
}

// BenchmarkRankMeans: the paired rank bootstrap of 20 models × 10,000
// items (pass/fail) × 1,000 replicates, item by item.
func BenchmarkRankMeans(b *testing.B) {
	vals := benchRankValues(20)
	if _, _, grouped := groupItems(vals); grouped {
		b.Fatal("the benchmark data groups")
	}
	b.ReportAllocs()
	for b.Loop() {
		RankMeans(vals, RankOptions{Resamples: 1000, Seed: 1})
	}
}

// BenchmarkRankMeansGrouped: 3 models × 10,000 pass/fail items (at most
// 8 patterns) × 1,000 replicates, as on a small leaderboard.
func BenchmarkRankMeansGrouped(b *testing.B) {
	vals := benchRankValues(3)
	b.ReportAllocs()
	for b.Loop() {
		RankMeans(vals, RankOptions{Resamples: 1000, Seed: 1})
	}
}
