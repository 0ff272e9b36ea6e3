package stats

import "math"

// PairedMoments returns the mean and the sample standard deviation (with
// n − 1) of the paired differences dᵢ = new[i] − old[i]: 0, 0 with no
// pairs, and sd 0 with one pair or when every difference is equal. The
// variance is (Σd² − n·d̄²)/(n − 1), floored at 0 against rounding.
func PairedMoments(old, new []float64) (mean, sd float64) {
	n := len(old)
	if n == 0 {
		return 0, 0
	}
	var s, ss float64
	for i := range old {
		d := new[i] - old[i]
		s += d
		ss += d * d
	}
	mean = s / float64(n)
	if n > 1 {
		v := (ss - float64(n)*mean*mean) / float64(n-1)
		if v > 0 {
			sd = math.Sqrt(v)
		}
	}
	return
}

// PairedNormalDiff returns the mean paired difference new − old and its
// normal interval d̄ ± z·sd/√n (z the two-sided quantile of confidence,
// sd from PairedMoments), clipped to [−1, 1], the range of a difference
// of values in [0, 1] (0/1 verdicts or graded scores). With no pairs it
// is 0 in [−1, 1]. Method is "paired-normal".
func PairedNormalDiff(old, new []float64, confidence float64) (mean float64, iv Interval) {
	iv = Interval{Lo: -1, Hi: 1, Confidence: confidence, Method: "paired-normal"}
	mean, sd := PairedMoments(old, new)
	if len(old) == 0 {
		return 0, iv
	}
	h := NormalQuantile(0.5+confidence/2) * sd / math.Sqrt(float64(len(old)))
	iv.Lo, iv.Hi = math.Max(-1, mean-h), math.Min(1, mean+h)
	return mean, iv
}

// NonInferiorityResult is the one-sided paired test of NonInferiority.
type NonInferiorityResult struct {
	N int
	// Delta is the mean of dᵢ = new[i] − old[i], SD their sample standard
	// deviation (PairedMoments).
	Delta, SD float64
	// Upper is the one-sided upper confidence bound Delta + z_c·SD/√N.
	Upper float64
	// P is the one-sided p-value of H0: E[d] ≥ −margin against H1:
	// E[d] < −margin (new is worse by more than the margin):
	// Φ((Delta + margin)/(SD/√N)); with SD 0 it is 0 when Delta < −margin
	// and 1 otherwise.
	P float64
	// MDE is the smallest drop beyond the margin the test detects with
	// the given power at this N and spread: margin + (z_c + z_power)·s/√N,
	// where s is SD floored at √(1/N) (the spread of one flip in N), so a
	// run in which no row changed does not claim to detect every drop.
	MDE float64
}

// NonInferiority tests whether new is worse than old by more than margin
// (a proportion: 0.02 is two points), paired case by case, with the
// normal approximation to the mean difference: new is worse when
// P < 1 − confidence, that is when Upper < −margin. confidence and power
// are one-sided levels in (0, 1) (z_c = Φ⁻¹(confidence), z_power =
// Φ⁻¹(power)). With no pairs Upper, P and MDE are 1: nothing is
// detectable. The slices must have equal lengths.
func NonInferiority(old, new []float64, margin, confidence, power float64) NonInferiorityResult {
	r := NonInferiorityResult{N: len(old)}
	r.Delta, r.SD = PairedMoments(old, new)
	if len(old) == 0 {
		r.Upper, r.P, r.MDE = 1, 1, 1
		return r
	}
	zc, zp := NormalQuantile(confidence), NormalQuantile(power)
	n := float64(len(old))
	se := r.SD / math.Sqrt(n)
	r.Upper = r.Delta + zc*se
	switch {
	case se > 0:
		r.P = NormalCDF((r.Delta + margin) / se)
	case r.Delta < -margin:
		r.P = 0
	default:
		r.P = 1
	}
	sdMDE := math.Max(r.SD, math.Sqrt(1/n))
	r.MDE = margin + (zc+zp)*sdMDE/math.Sqrt(n)
	return r
}
