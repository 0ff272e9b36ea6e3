package compare

import (
	"fmt"
	"math"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
)

// TestRanksAndTiers (issue 16, item 1, for compare): hand cases.
//   - new passes all 10 cases, old none: every bootstrap replicate has new
//     strictly ahead, so new ranks 1 in [1, 1] and old 2 in [2, 2]; the sign
//     test over 10 flips one way gives p = 2 * 2^-10 = 0.00195 < 0.05, so
//     old is tier 2.
//   - identical outcomes: both share rank 1 in every replicate (ties share
//     the better rank) and no flip separates them: both tier 1.
//   - 3 better, 1 worse of 6 cases: p = 2 * (1 + 4) / 16 = 0.625, both tier 1.
func TestRanksAndTiers(t *testing.T) {
	keys := func(n int) []string {
		k := make([]string, n)
		for i := range k {
			k[i] = fmt.Sprint(i)
		}
		return k
	}
	zeros, ones := make([]float64, 10), make([]float64, 10)
	for i := range ones {
		ones[i] = 1
	}
	for _, c := range []struct {
		name     string
		old, new []float64
		want     []results.VersionRank
	}{
		{"new always better", zeros, ones, []results.VersionRank{{Version: "old", Rank: 2, RankLow: 2, RankHigh: 2, Tier: 2}, {Version: "new", Rank: 1, RankLow: 1, RankHigh: 1, Tier: 1}}},
		{"identical", ones, ones, []results.VersionRank{{Version: "old", Rank: 1, RankLow: 1, RankHigh: 1, Tier: 1}, {Version: "new", Rank: 1, RankLow: 1, RankHigh: 1, Tier: 1}}},
		{"not separable", []float64{0, 0, 0, 1, 1, 1}, []float64{1, 1, 1, 0, 1, 1}, nil},
	} {
		r, err := Versions(keys(len(c.old)), c.old, c.new, nil, Options{Resamples: 2000, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if c.want != nil && fmt.Sprint(r.Ranks) != fmt.Sprint(c.want) {
			t.Errorf("%s: ranks %+v, want %+v", c.name, r.Ranks, c.want)
		}
		if c.want == nil && (r.Ranks[0].Tier != 1 || r.Ranks[1].Tier != 1 || r.Ranks[1].Rank != 1 || r.Ranks[0].Rank != 2 || math.Abs(r.PSign-0.625) > 1e-12 || r.Ranks[0].RankLow != 1 || r.Ranks[1].RankHigh != 2) {
			t.Errorf("%s: ranks %+v, p %v; want new rank 1, old rank 2, both in [1, 2], both tier 1, p 0.625", c.name, r.Ranks, r.PSign)
		}
		if r.TierAlpha != 0.05 {
			t.Errorf("tier alpha %v", r.TierAlpha)
		}
	}
}
