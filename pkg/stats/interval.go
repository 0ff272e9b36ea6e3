package stats

import (
	"fmt"
	"math"
)

// Interval is a two-sided confidence interval together with the warnings
// that qualify it. A nil Warnings means nothing needed saying.
type Interval struct {
	Lo, Hi     float64
	Confidence float64
	// Method names how the interval was made: "wilson", "normal",
	// "bootstrap", "cluster-normal", "cluster-bootstrap",
	// "paired-bootstrap", "clopper-pearson", "jeffreys", "beta"
	// (ProportionInterval), "bca" (BootstrapBCa).
	Method   string
	Warnings []Warning
}

// MinBootstrapN is the number of items below which every bootstrap
// interval of this package (BootstrapProportion, BootstrapMean,
// PairedBootstrapDiff, ClusterBootstrap, BootstrapStatistic) carries a
// CodeFewResampled warning: with a handful of items the resampled
// statistic takes only a few values and the percentile interval is ragged
// and too narrow.
const MinBootstrapN = 10

// MinNormalN is the number of values below which UnitMeanInterval's
// normal interval carries a CodeFewValues warning: it uses z where
// Student's t would be due, and estimates the spread from the values
// themselves. At n = 30, t(0.975, 29) = 2.045 against z = 1.960, an
// interval about 4% too narrow; at n = 10 (t = 2.262) about 13%.
const MinNormalN = 30

// NormalQuantile returns the value z with P(Z <= z) = p for a standard
// normal Z:
//
//	z = √2 · erf⁻¹(2p − 1)
//
// It returns -Inf for p = 0 and +Inf for p = 1, and panics outside [0, 1].
func NormalQuantile(p float64) float64 {
	if !(p >= 0 && p <= 1) {
		panic(fmt.Sprintf("stats: NormalQuantile of %v", p))
	}
	return math.Sqrt2 * math.Erfinv(2*p-1)
}

// NormalCDF returns P(Z <= z) for a standard normal Z:
//
//	Φ(z) = erfc(−z/√2) / 2
func NormalCDF(z float64) float64 {
	return 0.5 * math.Erfc(-z/math.Sqrt2)
}

// zFor returns the two-sided critical value for a confidence level, e.g.
// 1.959964 for 0.95.
func zFor(confidence float64) float64 {
	checkConfidence(confidence)
	return NormalQuantile(1 - (1-confidence)/2)
}

func checkConfidence(c float64) {
	if !(c > 0 && c < 1) {
		panic(fmt.Sprintf("stats: confidence %v is not strictly between 0 and 1", c))
	}
}

func checkResamples(r int) {
	if r < 1 {
		panic(fmt.Sprintf("stats: %d resamples; need at least 1", r))
	}
}

func checkCounts(successes, n int) {
	if n < 0 || successes < 0 || successes > n {
		panic(fmt.Sprintf("stats: %d successes out of %d", successes, n))
	}
}

// Wilson returns the Wilson score interval for a proportion of successes
// out of n trials at the given confidence. With p̂ = successes/n and z
// the two-sided normal critical value,
//
//	centre = (p̂ + z²/2n) / (1 + z²/n)
//	half   = z/(1 + z²/n) · √(p̂(1 − p̂)/n + z²/4n²)
//	lo, hi = centre ∓ half
//
// The interval always contains p̂, stays inside [0, 1] and is not empty
// at 0 or n successes. With n = 0 it returns [0, 1]. This is R's
// prop.test(correct = FALSE) and statsmodels' proportion_confint(method =
// "wilson"). See WilsonInterval for the warnings.
func Wilson(successes, n int, confidence float64) (lo, hi float64) {
	iv := WilsonInterval(successes, n, confidence)
	return iv.Lo, iv.Hi
}

// WilsonInterval is Wilson with warnings: CodeNoData when n = 0 (the
// interval is then the whole of [0, 1]).
func WilsonInterval(successes, n int, confidence float64) Interval {
	checkCounts(successes, n)
	z := zFor(confidence)
	iv := Interval{Confidence: confidence, Method: "wilson"}
	if n == 0 {
		iv.Lo, iv.Hi = 0, 1
		iv.Warnings = []Warning{noCases()}
		return iv
	}
	nf := float64(n)
	p := float64(successes) / nf
	z2 := z * z
	denom := 1 + z2/nf
	centre := (p + z2/(2*nf)) / denom
	half := z / denom * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	iv.Lo = math.Max(0, centre-half)
	iv.Hi = math.Min(1, centre+half)
	// At 0 or n successes the bound on that side is exactly p̂; rounding
	// must not move it off.
	if successes == 0 {
		iv.Lo = 0
	}
	if successes == n {
		iv.Hi = 1
	}
	return iv
}

// Percentile returns the q-quantile (0 <= q <= 1) of sorted data by linear
// interpolation between order statistics (Hyndman and Fan's type 7, the
// default of R's quantile and NumPy's percentile):
//
//	h = (n − 1)q,  Q = x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋])
//
// It panics if sorted is empty.
func Percentile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		panic("stats: Percentile of no data")
	}
	if !(q >= 0 && q <= 1) {
		panic(fmt.Sprintf("stats: Percentile at %v", q))
	}
	h := float64(len(sorted)-1) * q
	i := int(math.Floor(h))
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}

// percentileInterval turns sorted resampled statistics into the
// equal-tailed percentile interval.
func percentileInterval(sorted []float64, confidence float64) (lo, hi float64) {
	a := (1 - confidence) / 2
	return Percentile(sorted, a), Percentile(sorted, 1-a)
}

// UnitMean returns an interval for the mean of n values that lie in
// [0, 1] (a graded score such as F1 or chrF), from their sum and sum of
// squares. See UnitMeanInterval.
func UnitMean(sum, sumsq float64, n int, confidence float64) (lo, hi float64) {
	iv := UnitMeanInterval(sum, sumsq, n, confidence)
	return iv.Lo, iv.Hi
}

// UnitMeanInterval is the interval of UnitMean, with warnings. With
// m = sum/n and the sample variance s² = (Σx² − n·m²)/(n − 1) it is the
// normal interval
//
//	m ∓ z·s/√n, clipped to [0, 1]   (Method "normal")
//
// whenever s² > 0. When s² = 0 (every value equal; a difference below
// 10⁻⁹ of the mean square is taken as rounding) or n = 1, that interval
// would be the single point m, claiming certainty from a sample that
// cannot give it. By the Bhatia–Davis inequality a variable in [0, 1]
// with mean μ has variance at most μ(1 − μ), the variance of a 0/1
// variable, so the interval then falls back to the Wilson interval of m
// with n (the formula of Wilson with p̂ = m, which need not be k/n):
//
//	centre = (m + z²/2n) / (1 + z²/n)
//	half   = z/(1 + z²/n) · √(m(1 − m)/n + z²/4n²)   (Method "wilson")
//
// The fallback is not a floor: values that are nearly but not exactly
// equal keep the normal interval, which is then as narrow as their
// spread, however few they are. Four values 0.667, 0.667, 0.667, 0.668
// give about [0.6668, 0.6677], while four values 0.667 give the Wilson
// interval [0.245, 0.925]. Such an interval says only that these values
// were alike, not that the mean is known to three digits; the warnings
// say so, and a bootstrap or more values is the remedy.
//
// Warnings: n = 0 gives [0, 1] with CodeNoData; the fallback warns
// (CodeEqualValues) that every value was equal or that there was one; a
// normal interval over fewer than MinNormalN values warns that it is
// rough (CodeFewValues), and one whose s² is below NearZeroVariance of
// m(1 − m) (the most the values could vary) warns that it rests on a
// near-zero variance and may be far too narrow (CodeNearZeroVariance).
// These are the only warnings of a graded mean's normal interval: callers
// pass them on and add none of their own.
//
// Sums that no n values in [0, 1] can have (NaN or infinite, sum outside
// [0, n], sumsq outside [0, sum]) are misuse and panic, as do n < 0 and
// a confidence outside (0, 1).
func UnitMeanInterval(sum, sumsq float64, n int, confidence float64) Interval {
	z := zFor(confidence)
	if n < 0 {
		panic(fmt.Sprintf("stats: %d values", n))
	}
	nf := float64(n)
	// Sums of values in [0, 1] obey 0 ≤ Σx² ≤ Σx ≤ n exactly in floating
	// point too (rounding is monotone); the slack only forgives sums
	// merged in another order.
	slack := 1e-9 * math.Max(1, nf)
	if !finite(sum) || !finite(sumsq) || sum < 0 || sumsq < 0 || sum > nf+slack || sumsq > sum+slack {
		panic(fmt.Sprintf("stats: sum %v and sum of squares %v cannot come from %d values in [0, 1]", sum, sumsq, n))
	}
	iv := Interval{Confidence: confidence, Method: "normal"}
	if n == 0 {
		iv.Lo, iv.Hi = 0, 1
		iv.Method = "wilson"
		iv.Warnings = []Warning{noCases()}
		return iv
	}
	m := math.Min(1, math.Max(0, sum/nf))
	ss := 0.0 // (n − 1)·s²
	if n > 1 {
		ss = sumsq - nf*m*m
	}
	if ss <= 1e-9*sumsq || ss <= 0 {
		iv.Method = "wilson"
		iv.Lo, iv.Hi = wilsonMean(m, nf, z)
		if n == 1 {
			iv.Warnings = []Warning{warning(CodeEqualValues, "one value: the interval is the Wilson interval of that value, as wide as a 0/1 score with this mean would get")}
		} else {
			iv.Warnings = []Warning{warning(CodeEqualValues, "every value is equal: the interval is the Wilson interval of the mean, as wide as a 0/1 score with this mean would get")}
		}
		return iv
	}
	s2 := ss / (nf - 1)
	h := z * math.Sqrt(s2/nf)
	iv.Lo, iv.Hi = math.Max(0, m-h), math.Min(1, m+h)
	if n < MinNormalN {
		iv.Warnings = append(iv.Warnings, warning(CodeFewValues,
			"fewer than %d values: the normal interval of a graded score is rough and may be far too narrow; prefer more values or a bootstrap interval", MinNormalN))
	}
	if s2 < NearZeroVariance*m*(1-m) {
		iv.Warnings = append(iv.Warnings, warning(CodeNearZeroVariance,
			"the values hardly vary (variance below a hundredth of the most a score with this mean can have): the interval may be far too narrow; prefer more values or a bootstrap interval"))
	}
	return iv
}

// NearZeroVariance is the share of m(1 − m) (the largest variance of
// values in [0, 1] with mean m) below which UnitMeanInterval warns that
// its normal interval rests on a near-zero variance.
const NearZeroVariance = 0.01

// noCases is the CodeNoData warning of an interval for a proportion.
func noCases() Warning {
	return warning(CodeNoData, "no cases: the interval is all of [0, 1]")
}

// finite reports whether x is neither NaN nor infinite.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// wilsonMean is the Wilson score interval at p̂ = m for n trials.
func wilsonMean(m, n, z float64) (lo, hi float64) {
	z2 := z * z
	denom := 1 + z2/n
	centre := (m + z2/(2*n)) / denom
	half := z / denom * math.Sqrt(m*(1-m)/n+z2/(4*n*n))
	lo, hi = math.Max(0, centre-half), math.Min(1, centre+half)
	if m == 0 {
		lo = 0
	}
	if m == 1 {
		hi = 1
	}
	return lo, hi
}
