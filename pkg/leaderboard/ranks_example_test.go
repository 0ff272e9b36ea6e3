package leaderboard_test

import (
	"context"
	"fmt"
	"os"

	"github.com/evalbook/evalbook/pkg/leaderboard"
)

// The ranks, rank intervals and tiers of the built-in sample in Hindi,
// and its low signal-to-noise slices.
func ExampleBuild_ranks() {
	inputs, err := leaderboard.DiscoverFS(os.DirFS("../../datasets"), "leaderboard")
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := leaderboard.Build(context.Background(), inputs, leaderboard.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range b.Cells {
		if c.Language == "hindi" {
			fmt.Printf("%s %.3f rank %d [%d, %d] tier %d\n", c.Model, c.Value, c.Rank, c.RankLow, c.RankHigh, c.Tier)
		}
	}
	for _, s := range b.SNR {
		if s.Low {
			fmt.Printf("low: %s %s (%d questions, snr %.2f)\n", s.Language, s.Domain, s.Items, *s.SNR)
		}
	}
	// Output:
	// heron-3b 0.458 rank 3 [2, 3] tier 1
	// kestrel-7b 0.833 rank 1 [1, 2] tier 1
	// tern-13b 0.708 rank 2 [1, 3] tier 1
	// low: hindi History (7 questions, snr 0.46)
	// low: tamil Culture (5 questions, snr 0.53)
}
