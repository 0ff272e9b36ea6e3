package stats

import "math"

// RepeatsEstimate is the mean of repeated samples per item and its
// standard error split into its within- and between-item parts (Miller
// 2024, "Adding error bars to evals", section 3, resampling).
type RepeatsEstimate struct {
	Items   int // n, items with at least one sample
	Samples int // all samples
	// Mean is the mean of the item means x̄_i (each item weighs the same).
	Mean float64
	// SE is the standard error of Mean: √(s²(x̄_i) / n), s² with divisor
	// n − 1. 0 when n < 2.
	SE float64
	// Within is the part of s²(x̄_i) that resampling each item explains:
	// (1/n) Σ_i σ̂²_i / K_i, σ̂²_i the variance of item i's K_i samples
	// with divisor K_i (p̂_i(1 − p̂_i) for 0/1 samples).
	Within float64
	// Between is the variance of the items' true means: s²(x̄_i) − Within.
	// It can be negative by chance; BetweenClamped is it floored at 0.
	Between        float64
	BetweenClamped float64
	// WithinVar is the mean within-item variance (1/n) Σ_i σ̂²_i, the
	// E[σ²_i] of Miller's formula, which ProjectSE divides by K.
	WithinVar float64
}

// Repeats estimates the mean of items sampled repeatedly, where
// samples[i] are item i's samples (its passes as 0/1, or any scores),
// and splits the variance of the item means as Miller (2024) does:
//
//	Var(x̄_i) = Var(μ_i) + E[σ²_i / K_i]
//	SE²      = s²(x̄_i) / n = (Between + Within) / n
//
// Items without samples are left out. It panics with the prefix
// "stats: " when no item has a sample.
func Repeats(samples [][]float64) RepeatsEstimate {
	var r RepeatsEstimate
	var means []float64
	for _, xs := range samples {
		if len(xs) == 0 {
			continue
		}
		m := 0.0
		for _, x := range xs {
			m += x
		}
		m /= float64(len(xs))
		v := 0.0
		for _, x := range xs {
			v += (x - m) * (x - m)
		}
		v /= float64(len(xs))
		means = append(means, m)
		r.Samples += len(xs)
		r.Within += v / float64(len(xs))
		r.WithinVar += v
	}
	n := len(means)
	if n == 0 {
		panic("stats: Repeats needs at least one item with a sample")
	}
	r.Items = n
	r.Within /= float64(n)
	r.WithinVar /= float64(n)
	for _, m := range means {
		r.Mean += m
	}
	r.Mean /= float64(n)
	if n < 2 {
		return r
	}
	s2 := 0.0
	for _, m := range means {
		s2 += (m - r.Mean) * (m - r.Mean)
	}
	s2 /= float64(n - 1)
	r.SE = math.Sqrt(s2 / float64(n))
	r.Between = s2 - r.Within
	r.BetweenClamped = math.Max(r.Between, 0)
	return r
}

// ProjectSE is the standard error Miller's formula gives the same items
// with k samples each: √((BetweenClamped + WithinVar / k) / n). It panics
// with the prefix "stats: " when k < 1.
func (r RepeatsEstimate) ProjectSE(k int) float64 {
	if k < 1 {
		panic("stats: ProjectSE needs k >= 1")
	}
	if r.Items < 2 {
		return 0
	}
	return math.Sqrt((r.BetweenClamped + r.WithinVar/float64(k)) / float64(r.Items))
}
