package stats_test

import (
	"fmt"

	"github.com/evalbook/evalbook/pkg/stats"
)

// Three models on 40 items: a passes 30, b the same 30 but one, c 10.
// a is never below b on an item, so no replicate ranks b above a: a is
// [1, 1]; b ties a whenever the one item it misses is not drawn.
func ExampleRankMeans() {
	vals := make([][]float64, 3)
	for m := range vals {
		vals[m] = make([]float64, 40)
	}
	for i := range 30 {
		vals[0][i] = 1
		if i != 0 {
			vals[1][i] = 1
		}
		if i < 10 {
			vals[2][i] = 1
		}
	}
	res := stats.RankMeans(vals, stats.RankOptions{Resamples: 1000, Seed: 1})
	for m, r := range res.Ranks {
		fmt.Printf("model %d: rank %d, interval [%d, %d]\n", m, r.Rank, r.Lo, r.Hi)
	}
	// Output:
	// model 0: rank 1, interval [1, 1]
	// model 1: rank 2, interval [1, 2]
	// model 2: rank 3, interval [3, 3]
}

// Tiers with a paired test given as a function: here fixed p-values
// against the best (model 0). Holm over the round's two tests: 0.01·2 =
// 0.02 < 0.05 separates model 2; model 1's p = 0.4 does not.
func ExampleTiers() {
	p := map[[2]int]float64{{0, 1}: 0.4, {0, 2}: 0.01}
	test := func(best, other int) (float64, bool) { return p[[2]int{best, other}], true }
	tier, tests := stats.Tiers([]float64{0.9, 0.85, 0.5}, test, 0.05, stats.CorrectionHolm)
	fmt.Println("tiers:", tier)
	for _, t := range tests {
		fmt.Printf("round %d: %d vs %d, p %.2f, adjusted %.2f, separable %v\n", t.Tier, t.Best, t.Other, t.P, t.PAdjusted, t.Separable)
	}
	// Output:
	// tiers: [1 1 2]
	// round 1: 0 vs 1, p 0.40, adjusted 0.40, separable false
	// round 1: 0 vs 2, p 0.01, adjusted 0.02, separable true
}

func ExampleAdjustP() {
	p := []float64{0.01, 0.04, 0.03, 0.005}
	fmt.Printf("%.4g\n", stats.AdjustP(p, stats.CorrectionHolm))
	fmt.Printf("%.4g\n", stats.AdjustP(p, stats.CorrectionBH))
	// Output:
	// [0.03 0.06 0.06 0.02]
	// [0.02 0.04 0.04 0.02]
}

// A beat B 3 times of 4; C beat B 4 times of 6; A and C never met. The
// fit gives θA − θB = ln 3 and θC − θB = ln 2.
func ExampleBradleyTerry() {
	fit, err := stats.BradleyTerry([][]float64{{0, 3, 0}, {1, 0, 2}, {0, 4, 0}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("A−B %.4f, C−B %.4f\n", fit.Theta[0]-fit.Theta[1], fit.Theta[2]-fit.Theta[1])
	_, err = stats.BradleyTerry([][]float64{{0, 2}, {0, 0}}) // B never wins
	fmt.Println(err)
	// Output:
	// A−B 1.0986, C−B 0.6931
	// the models fall into 2 groups where no model of a later group ever beat or tied one of an earlier group; the Bradley-Terry maximum-likelihood estimate does not exist
}

func ExampleSignalToNoise() {
	s := stats.SignalToNoise([]float64{0.62, 0.60, 0.65}, []float64{0.05, 0.05, 0.05})
	fmt.Printf("signal %.3f, noise %.3f, ratio %.2f, low %v\n", s.Signal, s.Noise, s.Ratio, s.Low)
	// Output:
	// signal 0.025, noise 0.050, ratio 0.50, low true
}
