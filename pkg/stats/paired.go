package stats

import (
	"fmt"
	"math"
)

// PairedResult compares two versions scored on the same cases.
type PairedResult struct {
	N int
	// Better and Worse hold the indices of the cases whose score rose or
	// fell from old to new, in increasing order.
	Better, Worse []int
	// Unchanged counts the cases with equal scores.
	Unchanged int
	// OldMean and NewMean are the mean scores (pass rates for 0/1).
	OldMean, NewMean float64
}

// Paired compares old[i] with new[i] case by case. It panics if the slices
// differ in length or hold NaN or an infinity (a NaN compares neither
// above nor below, so it would count as unchanged). With no cases the
// means are 0.
func Paired(old, new []float64) PairedResult {
	if len(old) != len(new) {
		panic(fmt.Sprintf("stats: %d old values and %d new ones", len(old), len(new)))
	}
	for i := range old {
		if !finite(old[i]) || !finite(new[i]) {
			panic(fmt.Sprintf("stats: %v and %v at index %d", old[i], new[i], i))
		}
	}
	r := PairedResult{N: len(old)}
	var so, sn float64
	for i := range old {
		so += old[i]
		sn += new[i]
		switch {
		case new[i] > old[i]:
			r.Better = append(r.Better, i)
		case new[i] < old[i]:
			r.Worse = append(r.Worse, i)
		default:
			r.Unchanged++
		}
	}
	if r.N > 0 {
		r.OldMean, r.NewMean = so/float64(r.N), sn/float64(r.N)
	}
	return r
}

// SignTest returns the exact two-sided p-value of the sign test over the
// cases that changed: under the null hypothesis that neither version is
// better, each of the m = better + worse flips goes either way with
// probability 1/2, so with k = min(better, worse)
//
//	p = min(1, 2 · P(X ≤ k)),  X ~ Binomial(m, 1/2)
//
// Unchanged cases carry no information and are left out. SignTest(2, 0)
// is 0.5: two improvements and no regression happen by chance half the
// time. SignTest(0, 0) is 1. It panics on negative counts.
//
// The sum is taken downwards from the largest term k in log space, so it
// neither overflows nor underflows for millions of flips.
func SignTest(better, worse int) float64 {
	if better < 0 || worse < 0 {
		panic(fmt.Sprintf("stats: SignTest(%d, %d)", better, worse))
	}
	m := better + worse
	k := min(better, worse)
	if m == 0 || 2*k == m {
		return 1
	}
	mf, kf := float64(m), float64(k)
	logTop := lgamma(mf+1) - lgamma(kf+1) - lgamma(mf-kf+1) - mf*math.Ln2
	// Σ_{i≤k} P(X=i) / P(X=k), from P(X=i−1)/P(X=i) = i/(m−i+1).
	sum, term := 1.0, 1.0
	for i := k; i > 0; i-- {
		term *= float64(i) / float64(m-i+1)
		sum += term
		if term < sum*1e-17 {
			break
		}
	}
	return math.Min(1, 2*math.Exp(logTop)*sum)
}

// McNemar returns the p-value of McNemar's test with Edwards' continuity
// correction for a paired 2×2 table whose discordant cells are better (old
// fail, new pass) and worse (old pass, new fail):
//
//	χ² = (|better − worse| − 1)² / (better + worse),  p = P(χ²₁ ≥ χ²) = erfc(√(χ²/2))
//
// except that when better = worse there is no difference to correct and
// χ² is 0, so p is 1. This is R's mcnemar.test(correct = TRUE), which
// applies the correction only when the discordant cells differ. It is
// also statsmodels' mcnemar(exact = False, correction = True) whenever
// better ≠ worse; at better = worse statsmodels computes (0 − 1)²/(b + w)
// instead and reports p < 1 for perfectly balanced changes (0.4795 at 1
// and 1, the same as for 2 and 0), a correction that moves the statistic
// away from 0 rather than towards it. The exact version of McNemar's test
// is the sign test on the same two counts: use SignTest (or McNemarExact)
// when better + worse is small (under about 25), where the chi-square
// approximation is poor. With no discordant pair p is 1.
func McNemar(better, worse int) float64 {
	_, p := McNemarChiSquare(better, worse, true)
	return p
}

// McNemarExact is the exact (binomial) McNemar test; it is the same
// computation as SignTest.
func McNemarExact(better, worse int) float64 { return SignTest(better, worse) }

// McNemarChiSquare returns McNemar's statistic and its chi-square p-value
// with one degree of freedom, with or without the continuity correction:
//
//	χ² = (|b − w| − corr)² / (b + w),  corr = 1 or 0
//
// With the correction, |b − w| − 1 is floored at 0, which changes only
// b = w (where |b − w| − 1 = −1; otherwise |b − w| ≥ 1): there χ² is 0
// and p is 1, as in R's mcnemar.test (see McNemar). With b + w = 0 it
// returns (0, 1).
func McNemarChiSquare(better, worse int, correction bool) (chi2, p float64) {
	if better < 0 || worse < 0 {
		panic(fmt.Sprintf("stats: McNemar(%d, %d)", better, worse))
	}
	m := float64(better + worse)
	if m == 0 {
		return 0, 1
	}
	d := math.Abs(float64(better - worse))
	if correction {
		d = math.Max(0, d-1)
	}
	chi2 = d * d / m
	return chi2, math.Erfc(math.Sqrt(chi2 / 2))
}
