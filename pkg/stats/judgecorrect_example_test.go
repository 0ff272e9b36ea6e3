package stats_test

import (
	"fmt"

	"github.com/evalbook/evalbook/pkg/stats"
)

// A judge passes 150 of 200 answers; on 20 answers a person labelled too,
// the person passed 12 and the judge 13. PPI++ moves the judge's 75% to
// 67.5% with a tuned weight λ of the judge; the humans alone say 60%.
func ExamplePPIMean() {
	var y, yhat, unlabelled []float64
	for _, r := range []struct {
		human, judge float64
		n            int
	}{{1, 1, 11}, {1, 0, 1}, {0, 1, 2}, {0, 0, 6}} {
		for range r.n {
			y, yhat = append(y, r.human), append(yhat, r.judge)
		}
	}
	for i := range 200 {
		unlabelled = append(unlabelled, map[bool]float64{true: 1, false: 0}[i < 150])
	}
	lambda := stats.PPILambda(y, yhat, unlabelled)
	est, iv := stats.PPIMean(y, yhat, unlabelled, lambda, 0.95)
	fmt.Printf("λ = %.3f, PPI++ %.4f [%.4f, %.4f]\n", lambda, est, iv.Lo, iv.Hi)
	est, iv = stats.PPIMean(y, yhat, unlabelled, 0, 0.95)
	fmt.Printf("humans only %.4f [%.4f, %.4f]\n", est, iv.Lo, iv.Hi)
	// Output:
	// λ = 0.754, PPI++ 0.6754 [0.5122, 0.8387]
	// humans only 0.6000 [0.3853, 0.8147]
}

// The judge says 60% pass; on labelled items it passed 80% of the good
// answers (sensitivity) and failed 90% of the bad ones (specificity). The
// true rate is (0.6 + 0.9 − 1)/(0.9 + 0.8 − 1) = 5/7.
func ExampleRoganGladen() {
	est, iv := stats.RoganGladen(0.6, 0.9, 0.8, 500, 100, 300, 0.95)
	fmt.Printf("%.4f [%.4f, %.4f]\n", est, iv.Lo, iv.Hi)
	// Output: 0.7143 [0.6312, 0.7944]
}

// A confidence sequence may be looked at after every item: here 1,000
// items alternate pass and fail. Tuned to 1,000 items (ρ = 250/8.212 =
// 30.44), after 100 items (V = 25) the half-width is
// √(55.44·log(55.44/(30.44·0.0025)))/100 = 0.191 by hand.
func ExamplePassRateSequence() {
	cs := stats.PassRateSequence(0.95, 1000)
	for i := range 1000 {
		cs.Add(float64(i % 2))
		if n := cs.N(); n == 100 || n == 1000 {
			iv := cs.Interval()
			fmt.Printf("after %d: %.3f [%.3f, %.3f]\n", n, cs.Mean(), iv.Lo, iv.Hi)
		}
	}
	// Output:
	// after 100: 0.500 [0.309, 0.691]
	// after 1000: 0.500 [0.452, 0.548]
}
