package stats

import (
	"fmt"
	"math"
)

// CodeUninformativeJudge: a judge whose sensitivity plus specificity is
// at most 1 (it agrees with the human labels no better than chance), so
// the Rogan-Gladen correction divides by zero or a negative number; the
// estimate is then given as the judge's rate and the interval as all of
// [0, 1].
const CodeUninformativeJudge = "uninformative_judge"

// PPIMean returns the prediction-powered estimate of a mean and its
// normal interval (Angelopoulos et al. 2023, "Prediction-powered
// inference"; PPI++ power tuning: Angelopoulos, Duchi and Zrnic 2023,
// arXiv 2311.01453). y are the gold (human) labels of n labelled items,
// yhat the predictions (the judge's verdicts) on the same items, and
// unlabelled the predictions on N further items from the same
// population. With a tuning weight λ,
//
//	θ̂  = λ·mean(unlabelled) + mean(y − λ·yhat)
//	se² = sd₀(λ·unlabelled)²/N + sd₀(y − λ·yhat)²/n
//	lo, hi = θ̂ ∓ z·se
//
// where sd₀ is the standard deviation with divisor n (numpy's default)
// and z the two-sided normal quantile of confidence. λ = 0 is the
// classical interval on the labels alone (mean(y) ∓ z·sd₀(y)/√n), λ = 1
// is PPI, and λ = PPILambda(y, yhat, unlabelled) is PPI++. The point
// estimate and interval are ppi_py's ppi_mean_pointestimate and
// ppi_mean_ci (alpha = 1 − confidence); the interval is then clipped to
// [0, 1], the range of a pass rate, which changes nothing when it lies
// inside. Method is "ppi". y and yhat must have equal lengths of at
// least one, and unlabelled at least one value.
func PPIMean(y, yhat, unlabelled []float64, lambda, confidence float64) (estimate float64, iv Interval) {
	checkPPI(y, yhat, unlabelled)
	z := zFor(confidence)
	n, bigN := float64(len(y)), float64(len(unlabelled))
	mu, vu := meanVar0(unlabelled, lambda, nil)
	mr, vr := meanVar0(y, -lambda, yhat) // y − λ·yhat
	estimate = mu + mr
	se := math.Sqrt(vu/bigN + vr/n)
	iv = Interval{Lo: math.Max(0, estimate-z*se), Hi: math.Min(1, estimate+z*se), Confidence: confidence, Method: "ppi"}
	return estimate, iv
}

// PPILambda returns the power-tuning weight of PPI++ for a mean, the λ
// that minimises the variance of PPIMean's estimate, clipped to [0, 1]
// (ppi_py's _calc_lam_glm with an identity Hessian and clip=True):
//
//	λ = 2·cov₀(y, yhat) / (2·(1 + n/N)·var₁(yhat ∪ unlabelled))
//
// where cov₀ divides by n and var₁ is the sample variance (divisor
// n + N − 1) of the predictions on both sets together. It is 0 when
// every prediction is equal (they carry no information).
func PPILambda(y, yhat, unlabelled []float64) float64 {
	checkPPI(y, yhat, unlabelled)
	n, bigN := float64(len(y)), float64(len(unlabelled))
	my, _ := meanVar0(y, 1, nil)
	mh, _ := meanVar0(yhat, 1, nil)
	var cov float64
	for i := range y {
		cov += (y[i] - my) * (yhat[i] - mh)
	}
	cov /= n
	// Sample variance of the pooled predictions.
	var s float64
	for _, v := range yhat {
		s += v
	}
	for _, v := range unlabelled {
		s += v
	}
	m := s / (n + bigN)
	var ss float64
	for _, v := range yhat {
		ss += (v - m) * (v - m)
	}
	for _, v := range unlabelled {
		ss += (v - m) * (v - m)
	}
	if n+bigN < 2 || ss == 0 {
		return 0
	}
	lambda := 2 * cov / (2 * (1 + n/bigN) * ss / (n + bigN - 1))
	return math.Min(1, math.Max(0, lambda))
}

// meanVar0 returns the mean and the variance with divisor len(x) of
// x[i] (when other is nil: of scale·x[i]; otherwise of x[i] + scale·other[i]).
func meanVar0(x []float64, scale float64, other []float64) (mean, v float64) {
	at := func(i int) float64 {
		if other == nil {
			return scale * x[i]
		}
		return x[i] + scale*other[i]
	}
	for i := range x {
		mean += at(i)
	}
	mean /= float64(len(x))
	for i := range x {
		d := at(i) - mean
		v += d * d
	}
	return mean, v / float64(len(x))
}

func checkPPI(y, yhat, unlabelled []float64) {
	if len(y) != len(yhat) {
		panic(fmt.Sprintf("stats: %d labels and %d predictions", len(y), len(yhat)))
	}
	if len(y) == 0 || len(unlabelled) == 0 {
		panic(fmt.Sprintf("stats: PPI over %d labelled and %d unlabelled values; need at least one of each", len(y), len(unlabelled)))
	}
}

// RoganGladen returns the judge-corrected pass rate of Rogan and Gladen
// (1978) and the interval of Lee et al. (2025, "How to correctly report
// LLM-as-a-judge evaluations", arXiv 2511.21140; their calibration.py's
// point_estimator and confidence_interval). p is the judge's pass rate on
// n test items; q0 its specificity (the share of m0 human-failed
// calibration items it failed) and q1 its sensitivity (the share of m1
// human-passed items it passed). The estimate is
//
//	θ̂ = clip((p + q0 − 1) / (q0 + q1 − 1), 0, 1)
//
// and the interval adds z²/2 successes and failures to p and one of each
// to q0 and q1 (p̃ = (np + z²/2)/(n + z²), q̃ⱼ = (mⱼqⱼ + 1)/(mⱼ + 2),
// ñ = n + z², m̃ⱼ = mⱼ + 2), then with θ̃ = (p̃ + q̃0 − 1)/(q̃0 + q̃1 − 1),
//
//	se = √(p̃(1−p̃)/ñ + (1−θ̃)²q̃0(1−q̃0)/m̃0 + θ̃²q̃1(1−q̃1)/m̃1) / (q̃0 + q̃1 − 1)
//	δ  = 2z²·(−(1−θ̃)q̃0(1−q̃0)/m̃0 + θ̃q̃1(1−q̃1)/m̃1)
//	lo, hi = clip(θ̃ + δ ∓ z·se, 0, 1)
//
// A judge no better than chance (q0 + q1 ≤ 1, or q̃0 + q̃1 ≤ 1) gives p as
// the estimate, [0, 1] as the interval and CodeUninformativeJudge. Method
// is "rogan-gladen". n, m0 and m1 must be positive and p, q0, q1 in [0, 1].
func RoganGladen(p, q0, q1 float64, n, m0, m1 int, confidence float64) (estimate float64, iv Interval) {
	if n < 1 || m0 < 1 || m1 < 1 {
		panic(fmt.Sprintf("stats: RoganGladen with n %d, m0 %d, m1 %d; each must be positive", n, m0, m1))
	}
	for _, v := range []float64{p, q0, q1} {
		if !(v >= 0 && v <= 1) {
			panic(fmt.Sprintf("stats: RoganGladen rate %v outside [0, 1]", v))
		}
	}
	z := zFor(confidence)
	iv = Interval{Lo: 0, Hi: 1, Confidence: confidence, Method: "rogan-gladen"}
	uninformative := func() (float64, Interval) {
		iv.Warnings = []Warning{warning(CodeUninformativeJudge, "the judge's sensitivity (%.3f) plus specificity (%.3f) is not above 1: "+
			"it agrees with the human labels no better than chance, so its rate cannot be corrected", q1, q0)}
		return p, iv
	}
	if q0+q1 <= 1 {
		return uninformative()
	}
	estimate = clip01((p + q0 - 1) / (q0 + q1 - 1))
	z2 := z * z
	nf, m0f, m1f := float64(n), float64(m0), float64(m1)
	pt, q0t, q1t := (nf*p+z2/2)/(nf+z2), (m0f*q0+1)/(m0f+2), (m1f*q1+1)/(m1f+2)
	nt, m0t, m1t := nf+z2, m0f+2, m1f+2
	den := q0t + q1t - 1
	if den <= 0 {
		return uninformative()
	}
	th := (pt + q0t - 1) / den
	a0, a1 := q0t*(1-q0t)/m0t, q1t*(1-q1t)/m1t
	d := 2 * z2 * (-(1-th)*a0 + th*a1)
	se := math.Sqrt(pt*(1-pt)/nt+(1-th)*(1-th)*a0+th*th*a1) / den
	iv.Lo, iv.Hi = clip01(th+d-z*se), clip01(th+d+z*se)
	return estimate, iv
}

func clip01(x float64) float64 { return math.Max(0, math.Min(1, x)) }
