package stats

import (
	"fmt"
	"math"
	"slices"
	"sync"
)

// CodeBCaFallback: the bias correction of a BCa interval could not be
// estimated (every resample fell on one side of the estimate, or the
// statistic gave NaN), so the interval is the percentile interval.
const CodeBCaFallback = "bca_fallback"

// BootstrapBCa returns the bias-corrected and accelerated (BCa) bootstrap
// interval of stat over values (Efron 1987; Efron and Tibshirani, "An
// Introduction to the Bootstrap", 1993, ch. 14). With θ̂ = stat(values),
// θ*_b the statistic of resample b (n values drawn with replacement, b =
// 1 … B), θ₍ᵢ₎ the statistic with value i left out and θ̄ their mean:
//
//	z₀ = Φ⁻¹( (#{b : θ*_b < θ̂} + #{b : θ*_b ≤ θ̂}) / 2B )     (bias correction)
//	a  = Σ (θ̄ − θ₍ᵢ₎)³ / (6 · (Σ (θ̄ − θ₍ᵢ₎)²)^{3/2})       (jackknife acceleration)
//	α₁ = Φ( z₀ + (z₀ + z_{α/2}) / (1 − a(z₀ + z_{α/2})) ),  α₂ likewise with z_{1−α/2}
//	lo, hi = quantiles α₁ and α₂ of {θ*_b}
//
// (the quantiles by Percentile, as the percentile bootstrap). This is
// what R's boot.ci(type = "bca") and scipy.stats.bootstrap(method =
// "BCa") compute for one sample. A resample tied with θ̂ counts half
// below, as in scipy (R's boot counts θ* < θ̂ only), and a tie is a value
// within a relative 1e-9 of θ̂ (of the largest |θ*|, |θ̂|): a statistic
// that takes few values (a standard deviation or median of 0/1 or graded
// scores) reproduces θ̂ in many resamples, and an exact comparison would
// put those on either side of it by the rounding of its sums. The
// acceleration is 0 when the leave-one-out values are all equal (within a
// relative 1e-12). When a = z₀ = 0 it is the percentile
// interval; it corrects that interval for a statistic whose bootstrap
// distribution is biased or skewed, and is second-order accurate.
//
// Resample b draws from the PCG stream derived from (seed, b) as in
// BootstrapMean and the resamples are shared among the cores, so stat is
// called concurrently on different slices and must not keep state or
// keep the slice; the interval depends on the seed only. stat is called
// B + n + 1 times, on n values each, so the jackknife alone costs n²: for
// the mean use BootstrapBCaMean, which needs neither.
//
// Warnings are the percentile bootstrap's (CodeNoData, CodeFewResampled,
// CodePointInterval) and CodeBCaFallback when z₀ is infinite (every
// resample strictly above θ̂, or every one strictly below), where the
// percentile interval is given instead. It panics if values holds NaN or an infinity, stat is
// nil, or resamples or confidence are misused.
func BootstrapBCa(values []float64, stat func([]float64) float64, resamples int, confidence float64, seed uint64) Interval {
	checkConfidence(confidence)
	checkResamples(resamples)
	if stat == nil {
		panic("stats: BootstrapBCa with a nil statistic")
	}
	for i, v := range values {
		if !finite(v) {
			panic(fmt.Sprintf("stats: %v at index %d", v, i))
		}
	}
	iv := Interval{Confidence: confidence, Method: "bca"}
	n := len(values)
	if n == 0 {
		iv.Warnings = []Warning{warning(CodeNoData, "no values: the interval is [0, 0] and means nothing")}
		return iv
	}
	theta := stat(slices.Clone(values))
	pool := sync.Pool{New: func() any { s := make([]float64, n); return &s }}
	boot := resampleAll(resamples, seed, func(src *pcg) float64 {
		bp := pool.Get().(*[]float64)
		buf := *bp
		p := *src
		for i := range buf {
			buf[i] = values[uintN(&p, uint64(n))]
		}
		*src = p
		v := stat(buf)
		pool.Put(bp)
		return v
	})
	return bcaInterval(iv, boot, theta, jackknifeAcceleration(values, stat), n, "values")
}

// BootstrapBCaMean is BootstrapBCa for the mean, at the cost of
// BootstrapMean: the resampled means are drawn as BootstrapMean draws
// them (exact multinomial counts when x holds at most 32 distinct values,
// such as 0/1 outcomes), and the jackknife has the closed form
// θ̄ − θ₍ᵢ₎ = (xᵢ − x̄)/(n − 1), so
//
//	a = Σ (xᵢ − x̄)³ / (6 · (Σ (xᵢ − x̄)²)^{3/2})
//
// in one pass instead of n means of n − 1 values. A million values take
// as long as BootstrapMeanInterval. Warnings and panics are those of
// BootstrapBCa.
func BootstrapBCaMean(x []float64, resamples int, confidence float64, seed uint64) Interval {
	checkConfidence(confidence)
	checkResamples(resamples)
	for i, v := range x {
		if !finite(v) {
			panic(fmt.Sprintf("stats: %v at index %d", v, i))
		}
	}
	iv := Interval{Confidence: confidence, Method: "bca"}
	n := len(x)
	if n == 0 {
		iv.Warnings = []Warning{warning(CodeNoData, "no values: the interval is [0, 0] and means nothing")}
		return iv
	}
	var means []float64
	if vals, counts, ok := distinct(x, 32); ok {
		means = multinomialMeans(vals, counts, n, resamples, seed)
	} else {
		means = resampleAll(resamples, seed, func(p *pcg) float64 { return resampledMean(x, p) })
	}
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= float64(n)
	var s2, s3 float64
	for _, v := range x {
		d := v - m
		s2 += d * d
		s3 += d * d * d
	}
	acc := 0.0
	if s2 > 0 && n > 1 {
		acc = s3 / (6 * math.Pow(s2, 1.5))
	}
	return bcaInterval(iv, means, m, acc, n, "values")
}

// BootstrapBCaProportion is BootstrapBCa for a pass rate of successes
// out of n 0/1 outcomes. The resampled counts are the exact binomial
// draws of BootstrapProportionInterval (the same seed gives the same
// draws), and with p̂ = successes/n the acceleration is, in closed form,
//
//	a = (k(1 − p̂)³ − (n − k)p̂³) / (6 · (k(1 − p̂)² + (n − k)p̂²)^{3/2}) = (1 − 2p̂) / (6 √(n p̂ (1 − p̂)))
//
// At 0 or n successes every resample equals p̂: the interval is that
// point, with CodePointInterval (the Wilson interval
// is the honest one then). With n = 0 it returns [0, 1] with CodeNoData.
func BootstrapBCaProportion(successes, n, resamples int, confidence float64, seed uint64) Interval {
	checkCounts(successes, n)
	checkConfidence(confidence)
	checkResamples(resamples)
	iv := Interval{Confidence: confidence, Method: "bca"}
	if n == 0 {
		iv.Lo, iv.Hi = 0, 1
		iv.Warnings = []Warning{noCases()}
		return iv
	}
	nf := float64(n)
	p := float64(successes) / nf
	g := makeBinomial(n, p)
	r := newRand(seed, 0)
	means := make([]float64, resamples)
	for i := range means {
		means[i] = float64(g.draw(r)) / nf
	}
	acc := 0.0
	if successes > 0 && successes < n {
		acc = (1 - 2*p) / (6 * math.Sqrt(nf*p*(1-p)))
	}
	return bcaInterval(iv, means, p, acc, n, "cases")
}

// bcaInterval finishes a BCa interval from the resampled statistics
// (sorted here), the estimate and the acceleration.
func bcaInterval(iv Interval, boot []float64, theta, acc float64, n int, what string) Interval {
	resamples := len(boot)
	share := shareBelow(boot, theta)
	slices.Sort(boot)
	iv.Warnings = bootstrapWarnings(n, what)
	confidence := iv.Confidence
	alpha := (1 - confidence) / 2
	z0 := NormalQuantile(share)
	if math.IsInf(z0, 0) || math.IsNaN(z0) || math.IsNaN(acc) || math.IsNaN(theta) {
		iv.Lo, iv.Hi = percentileInterval(boot, confidence)
		iv.Warnings = append(iv.Warnings, warning(CodeBCaFallback,
			"%g of %d resamples fell below the estimate (ties counting half): the BCa bias correction is infinite, so the interval is the percentile interval", share*float64(resamples), resamples))
	} else {
		adjust := func(q float64) float64 {
			z := NormalQuantile(q)
			return NormalCDF(z0 + (z0+z)/(1-acc*(z0+z)))
		}
		a1, a2 := clampLevel(adjust(alpha)), clampLevel(adjust(1-alpha))
		iv.Lo, iv.Hi = Percentile(boot, a1), Percentile(boot, a2)
	}
	if iv.Lo == iv.Hi {
		iv.Warnings = append(iv.Warnings, warning(CodePointInterval,
			"every resample of the %d %s gave the same statistic: the bootstrap interval is a single point", n, what))
	}
	return iv
}

// tieTolerance is the relative distance within which a resampled
// statistic counts as tied with the estimate (bcaInterval).
const tieTolerance = 1e-9

// shareBelow is the share of boot below theta, a tie counting half:
// (#{θ* < θ̂} + #{θ* ≤ θ̂}) / 2B, as scipy's _percentile_of_score, with
// |θ* − θ̂| ≤ 1e-9 · max(|θ̂|, max |θ*|) a tie.
func shareBelow(boot []float64, theta float64) float64 {
	scale := math.Abs(theta)
	for _, v := range boot {
		scale = math.Max(scale, math.Abs(v))
	}
	tol := tieTolerance * scale
	twice := 0
	for _, v := range boot {
		switch d := v - theta; {
		case math.Abs(d) <= tol:
			twice++
		case d < 0:
			twice += 2
		}
	}
	return float64(twice) / float64(2*len(boot))
}

// accelerationOf is the BCa acceleration from the leave-one-out
// statistics jack: Σ(θ̄ − θ₍ᵢ₎)³ / (6 (Σ(θ̄ − θ₍ᵢ₎)²)^{3/2}), and 0 when they
// are all equal within a relative 1e-12 (otherwise the rounding of θ̄
// leaves n equal deviations and a = ±1/(6√n)). The deviations are taken
// from jack[0] first, so equal values give exact zeros.
func accelerationOf(jack []float64) float64 {
	n := len(jack)
	if n < 2 {
		return 0
	}
	lo, hi := jack[0], jack[0]
	for _, v := range jack {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if hi-lo <= 1e-12*math.Max(math.Abs(lo), math.Abs(hi)) || math.IsNaN(hi-lo) {
		if math.IsNaN(hi - lo) {
			return math.NaN()
		}
		return 0
	}
	ref := jack[0]
	mean := 0.0
	for _, v := range jack {
		mean += v - ref
	}
	mean /= float64(n)
	var s2, s3 float64
	for _, v := range jack {
		d := mean - (v - ref)
		s2 += d * d
		s3 += d * d * d
	}
	if s2 == 0 {
		return 0
	}
	return s3 / (6 * math.Pow(s2, 1.5))
}

// jackknifeAcceleration is the acceleration a of BCa from the
// leave-one-out statistics; 0 when they are all equal (or n = 1).
func jackknifeAcceleration(values []float64, stat func([]float64) float64) float64 {
	n := len(values)
	if n < 2 {
		return 0
	}
	jack := make([]float64, n)
	buf := make([]float64, n-1)
	for i := range values {
		copy(buf, values[:i])
		copy(buf[i:], values[i+1:])
		jack[i] = stat(buf)
	}
	return accelerationOf(jack)
}

func clampLevel(x float64) float64 {
	if math.IsNaN(x) {
		return 0.5
	}
	return math.Min(1, math.Max(0, x))
}

// BootstrapStatisticBCa is the BCa form of BootstrapStatistic, for a
// statistic computed from per-row statistics summed over rows (a
// corpus-level chrF, BLEU or TER). The resamples are BootstrapStatistic's
// (the same seed gives the same resampled values); the estimate is final
// of the total sums, and the jackknife leaves one row out by subtracting
// it from the totals, θ₍ᵢ₎ = final(S − rowᵢ), so it costs n calls of
// final rather than n passes over the rows. Warnings are
// BootstrapStatistic's plus CodeBCaFallback; panics are its panics.
func BootstrapStatisticBCa(rows []float64, k int, final func(sums []float64) float64, resamples int, confidence float64, seed uint64) Interval {
	checkConfidence(confidence)
	checkResamples(resamples)
	if k < 1 || len(rows)%k != 0 || final == nil {
		panic(fmt.Sprintf("stats: BootstrapStatisticBCa of %d values in rows of %d statistics (or a nil final)", len(rows), k))
	}
	for i, v := range rows {
		if !finite(v) {
			panic(fmt.Sprintf("stats: %v at index %d", v, i))
		}
	}
	iv := Interval{Confidence: confidence, Method: "bca"}
	n := len(rows) / k
	if n == 0 {
		iv.Warnings = []Warning{warning(CodeNoData, "no rows: the interval is [0, 0] and means nothing")}
		return iv
	}
	boot := resampleAll(resamples, seed, func(src *pcg) float64 {
		sums := make([]float64, k)
		p := *src
		un := uint64(n)
		for range n {
			i := int(uintN(&p, un)) * k
			row := rows[i : i+k : i+k]
			for j, v := range row {
				sums[j] += v
			}
		}
		*src = p
		return final(sums)
	})
	total := make([]float64, k)
	for i := 0; i < len(rows); i += k {
		for j := range k {
			total[j] += rows[i+j]
		}
	}
	theta := final(slices.Clone(total))
	acc := 0.0
	if n > 1 {
		jack := make([]float64, n)
		left := make([]float64, k)
		for i := range jack {
			for j := range k {
				left[j] = total[j] - rows[i*k+j]
			}
			jack[i] = final(left)
		}
		acc = accelerationOf(jack)
	}
	return bcaInterval(iv, boot, theta, acc, n, "rows")
}
