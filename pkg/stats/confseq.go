package stats

import (
	"fmt"
	"math"
)

// ConfidenceSequence is an anytime-valid confidence sequence for the mean
// of bounded observations: a sequence of intervals, one after each
// observation, that all hold the true mean at once with probability at
// least the confidence level. It may be checked after every item and the
// evaluation stopped whenever it is narrow enough or excludes a value,
// without the inflation of error that peeking at a fixed-n interval
// brings (a 95% Wilson interval checked after each of 1,000 items
// excludes the truth at some point in about 42% of fair streams).
//
// It is the two-sided normal-mixture boundary of Howard, Ramdas,
// McAuliffe and Sekhon (2021, "Time-uniform, nonparametric, nonasymptotic
// confidence sequences", Annals of Statistics 49(2), the two-sided
// normal mixture with the sub-Gaussian ψ): observations in [lo, hi] are
// sub-Gaussian with σ = (hi − lo)/2 (Hoeffding), so with Sₜ the sum of
// the first t observations minus t·μ and Vₜ = σ²t, mixing
// exp(λSₜ − λ²Vₜ/2) over λ ~ N(0, 1/ρ) gives a nonnegative martingale and
// Ville's inequality gives
//
//	P(∃t: |Sₜ| ≥ √((Vₜ + ρ)·log((Vₜ + ρ)/(ρα²)))) ≤ α
//
// so the interval after t observations is the running mean ∓ that bound
// divided by t, clipped to [lo, hi]. ρ sets where the sequence is
// narrowest; NewConfidenceSequence tunes it to a planned number of
// observations (the boundary is then about 1.5 times a fixed-n normal
// interval there at 95%, and valid before and after). The bound is not
// variance-adaptive: with σ the worst case of the range it is
// conservative when the observations vary less (a paired difference
// whose pairs mostly agree).
//
// Each Add is O(1). The zero value is not usable; use
// NewConfidenceSequence.
type ConfidenceSequence struct {
	lo, hi     float64
	confidence float64
	sigma2     float64
	rho        float64
	logAlpha2  float64 // log(α²)
	n          int
	sum        float64
}

// NewConfidenceSequence returns a confidence sequence for the mean of
// observations in [lo, hi] at the given two-sided confidence, tuned to
// be narrowest after planned observations (ρ = r·σ²·planned, where r
// solves 1/r − log(1 + 1/r) = −2 log α, the minimiser of the boundary
// at that point). lo < hi, confidence in (0, 1) and planned ≥ 1.
func NewConfidenceSequence(lo, hi, confidence float64, planned int) *ConfidenceSequence {
	checkConfidence(confidence)
	if !(lo < hi) || planned < 1 {
		panic(fmt.Sprintf("stats: confidence sequence over [%v, %v] planned for %d observations", lo, hi, planned))
	}
	alpha := 1 - confidence
	sigma := (hi - lo) / 2
	c := &ConfidenceSequence{lo: lo, hi: hi, confidence: confidence, sigma2: sigma * sigma, logAlpha2: 2 * math.Log(alpha)}
	c.rho = mixtureRatio(alpha) * c.sigma2 * float64(planned)
	return c
}

// PassRateSequence is a confidence sequence for a pass rate (0/1
// observations in [0, 1]).
func PassRateSequence(confidence float64, planned int) *ConfidenceSequence {
	return NewConfidenceSequence(0, 1, confidence, planned)
}

// PairedSequence is a confidence sequence for the mean paired difference
// new − old of values in [0, 1] (observations in [−1, 1]; Add the
// difference).
func PairedSequence(confidence float64, planned int) *ConfidenceSequence {
	return NewConfidenceSequence(-1, 1, confidence, planned)
}

// mixtureRatio returns r = 1/u with u − log(1 + u) = −2 log α, by Newton's
// method (g is convex and increasing for u > 0).
func mixtureRatio(alpha float64) float64 {
	l := -2 * math.Log(alpha)
	u := l + math.Log1p(l) + 1
	for range 100 {
		g := u - math.Log1p(u) - l
		step := g / (u / (1 + u))
		u -= step
		if math.Abs(step) < 1e-14*u {
			break
		}
	}
	return 1 / u
}

// Add records one observation, which must lie in the sequence's range.
func (c *ConfidenceSequence) Add(x float64) {
	if !(x >= c.lo && x <= c.hi) {
		panic(fmt.Sprintf("stats: observation %v outside [%v, %v]", x, c.lo, c.hi))
	}
	c.n++
	c.sum += x
}

// N returns the number of observations so far.
func (c *ConfidenceSequence) N() int { return c.n }

// Mean returns the running mean (0 before any observation).
func (c *ConfidenceSequence) Mean() float64 {
	if c.n == 0 {
		return 0
	}
	return c.sum / float64(c.n)
}

// HalfWidth returns the boundary divided by the number of observations,
// the half-width of the interval before clipping (+Inf before any).
func (c *ConfidenceSequence) HalfWidth() float64 {
	if c.n == 0 {
		return math.Inf(1)
	}
	v := c.sigma2*float64(c.n) + c.rho
	return math.Sqrt(v*(math.Log(v/c.rho)-c.logAlpha2)) / float64(c.n)
}

// Interval returns the current interval: the running mean ∓ HalfWidth,
// clipped to the range (the whole range before any observation). Method
// is "normal-mixture-cs".
func (c *ConfidenceSequence) Interval() Interval {
	iv := Interval{Lo: c.lo, Hi: c.hi, Confidence: c.confidence, Method: "normal-mixture-cs"}
	if c.n == 0 {
		return iv
	}
	m, h := c.Mean(), c.HalfWidth()
	iv.Lo, iv.Hi = math.Max(c.lo, m-h), math.Min(c.hi, m+h)
	return iv
}

// The decisions of SequentialGate.
const (
	DecisionRegression   = "regression"
	DecisionNoRegression = "no_regression"
	DecisionContinue     = "continue"
)

// SequentialGateResult is SequentialGate's decision and where it was made.
type SequentialGateResult struct {
	// Decision is DecisionRegression (the upper end of the sequence fell
	// below −margin), DecisionNoRegression (its lower end rose above
	// −margin) or DecisionContinue (neither, after every pair).
	Decision string
	// N is the number of pairs read when the decision was made (all of
	// them for DecisionContinue); Delta the mean difference new − old
	// then and Interval the sequence's interval.
	N     int
	Delta float64
	Interval
}

// SequentialGate reads paired values in order, adds each difference
// new[i] − old[i] (values in [0, 1]) to a PairedSequence tuned to
// len(old) pairs, and stops at the first pair after which the interval
// lies wholly below −margin (a regression beyond the margin) or wholly
// above it (no regression beyond the margin). Because the sequence holds
// the true mean difference at every pair at once with probability
// confidence, the decision is wrong with probability at most 1 −
// confidence however often it is checked. With no pairs it is
// DecisionContinue with the whole range.
func SequentialGate(old, new []float64, margin, confidence float64) SequentialGateResult {
	if len(old) != len(new) {
		panic(fmt.Sprintf("stats: %d old and %d new values", len(old), len(new)))
	}
	cs := PairedSequence(confidence, max(1, len(old)))
	for i := range old {
		cs.Add(new[i] - old[i])
		iv := cs.Interval()
		switch {
		case iv.Hi < -margin:
			return SequentialGateResult{Decision: DecisionRegression, N: cs.N(), Delta: cs.Mean(), Interval: iv}
		case iv.Lo > -margin:
			return SequentialGateResult{Decision: DecisionNoRegression, N: cs.N(), Delta: cs.Mean(), Interval: iv}
		}
	}
	return SequentialGateResult{Decision: DecisionContinue, N: cs.N(), Delta: cs.Mean(), Interval: cs.Interval()}
}
