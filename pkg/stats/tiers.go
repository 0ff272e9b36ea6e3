package stats

import (
	"fmt"
	"math"
	"sort"
)

// The multiple-testing corrections Tiers and AdjustP know.
const (
	CorrectionHolm = "holm" // Holm (1979) step-down, controls the family-wise error rate
	CorrectionBH   = "bh"   // Benjamini-Hochberg (1995) step-up, controls the false discovery rate
)

// AdjustP returns the p-values adjusted for multiple testing by method
// (CorrectionHolm or CorrectionBH), in the order given; they are what R's
// p.adjust(p, "holm") and p.adjust(p, "BH") give. With the m p-values
// sorted ascending, p₍₁₎ ≤ … ≤ p₍ₘ₎:
//
//	Holm: p̃₍ᵢ₎ = max_{j≤i} min(1, (m−j+1)·p₍ⱼ₎)
//	BH:   p̃₍ᵢ₎ = min_{j≥i} min(1, m/j·p₍ⱼ₎)
//
// A hypothesis is rejected at level α when its adjusted p-value is below
// α. It panics on an unknown method or a p-value outside [0, 1].
func AdjustP(p []float64, method string) []float64 {
	m := len(p)
	order := make([]int, m)
	for i, x := range p {
		if !(x >= 0 && x <= 1) {
			panic(fmt.Sprintf("stats: AdjustP: p-value %v", x))
		}
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return p[order[a]] < p[order[b]] })
	out := make([]float64, m)
	switch method {
	case CorrectionHolm:
		run := 0.0
		for j, i := range order {
			run = math.Max(run, math.Min(1, float64(m-j)*p[i]))
			out[i] = run
		}
	case CorrectionBH:
		run := 1.0
		for j := m - 1; j >= 0; j-- {
			i := order[j]
			run = math.Min(run, math.Min(1, float64(m)/float64(j+1)*p[i]))
			out[i] = run
		}
	default:
		panic(fmt.Sprintf("stats: AdjustP: unknown correction %q (want %q or %q)", method, CorrectionHolm, CorrectionBH))
	}
	return out
}

// PairTest is the paired test of a model against the best model left:
// its p-value and whether the best is ahead on the test's own data (for a
// sign test, more items where the best scored higher than lower).
type PairTest func(best, other int) (p float64, bestAhead bool)

// TierTest is one test Tiers made: in round Tier, Other against Best.
type TierTest struct {
	Tier        int
	Best, Other int
	P           float64 // the test's p-value
	PAdjusted   float64 // adjusted over the round's tests
	// Separable is PAdjusted < α with the best ahead: Other is placed
	// below the tier.
	Separable bool
}

// Tiers groups models into tiers of models that a paired test cannot
// separate from the best. Round 1 takes the model with the highest score
// (the first of equal scores), tests every other model against it with
// test, adjusts the round's p-values by correction (AdjustP), and puts
// in tier 1 the best and every model not separable from it (adjusted p ≥
// alpha, or the best not ahead); those are removed and round 2 repeats on
// the rest, until none is left. tier[m] is model m's tier (1-based); tests
// lists every test in the order made. NaN scores rank last. It panics on
// misuse (alpha outside (0, 1), an unknown correction).
func Tiers(scores []float64, test PairTest, alpha float64, correction string) (tier []int, tests []TierTest) {
	if !(alpha > 0 && alpha < 1) {
		panic(fmt.Sprintf("stats: Tiers at alpha %v", alpha))
	}
	if correction != CorrectionHolm && correction != CorrectionBH {
		panic(fmt.Sprintf("stats: Tiers: unknown correction %q", correction))
	}
	tier = make([]int, len(scores))
	left := make([]int, len(scores))
	for i := range left {
		left[i] = i
	}
	for t := 1; len(left) > 0; t++ {
		best := left[0]
		for _, m := range left[1:] {
			if scores[m] > scores[best] || (math.IsNaN(scores[best]) && !math.IsNaN(scores[m])) {
				best = m
			}
		}
		tier[best] = t
		var others []int
		var ps []float64
		var ahead []bool
		for _, m := range left {
			if m == best {
				continue
			}
			p, a := test(best, m)
			others, ps, ahead = append(others, m), append(ps, p), append(ahead, a)
		}
		adj := AdjustP(ps, correction)
		var rest []int
		for i, m := range others {
			sep := ahead[i] && adj[i] < alpha
			tests = append(tests, TierTest{Tier: t, Best: best, Other: m, P: ps[i], PAdjusted: adj[i], Separable: sep})
			if sep {
				rest = append(rest, m)
			} else {
				tier[m] = t
			}
		}
		left = rest
	}
	return tier, tests
}
