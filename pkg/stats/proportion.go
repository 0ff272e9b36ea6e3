package stats

import (
	"fmt"
	"math"
)

// The interval methods for a proportion that ProportionInterval takes,
// as the --ci flag of evalbook score and compare spells them.
const (
	// MethodWilson is the Wilson score interval (WilsonInterval), the
	// default: its coverage stays near the nominal level on average.
	MethodWilson = "wilson"
	// MethodClopperPearson is the exact interval of Clopper and Pearson
	// (1934), which inverts two one-sided binomial tests: its coverage
	// is at least the nominal level for every p, so it is wide.
	MethodClopperPearson = "clopper-pearson"
	// MethodJeffreys is the equal-tailed Jeffreys interval: the
	// Beta(k + 1/2, n − k + 1/2) posterior quantiles, with the bound at 0
	// (k = 0) or 1 (k = n) set there (Brown, Cai and DasGupta 2001).
	MethodJeffreys = "jeffreys"
	// MethodBeta is the equal-tailed credible interval of the posterior
	// Beta(k + 1, n − k + 1) under a uniform Beta(1, 1) prior, with no
	// change at the edges.
	MethodBeta = "beta"
)

// ProportionMethods lists the methods ProportionInterval takes, the
// default first.
func ProportionMethods() []string {
	return []string{MethodWilson, MethodClopperPearson, MethodJeffreys, MethodBeta}
}

// IsProportionMethod reports whether ProportionInterval takes method.
func IsProportionMethod(method string) bool {
	switch method {
	case MethodWilson, MethodClopperPearson, MethodJeffreys, MethodBeta:
		return true
	}
	return false
}

// ProportionInterval returns the two-sided interval for a proportion of
// successes out of n at the given confidence, made by method (one of
// MethodWilson, MethodClopperPearson, MethodJeffreys, MethodBeta). With
// α = 1 − confidence and Q(q; a, b) the q-quantile of Beta(a, b)
// (BetaQuantile):
//
//	clopper-pearson: lo = Q(α/2; k, n−k+1) (0 at k = 0),  hi = Q(1−α/2; k+1, n−k) (1 at k = n)
//	jeffreys:        lo = Q(α/2; k+½, n−k+½) (0 at k = 0), hi = Q(1−α/2; k+½, n−k+½) (1 at k = n)
//	beta:            lo = Q(α/2; k+1, n−k+1),              hi = Q(1−α/2; k+1, n−k+1)
//
// Each upper bound is computed as 1 minus the lower bound of the mirror
// image (n − k successes), so k of n and n − k of n are exact mirrors.
// Clopper-Pearson is statsmodels' proportion_confint(method="beta") and
// R's binom.test; Jeffreys is proportion_confint(method="jeffreys").
// The beta interval is a Bayesian credible interval: it never reaches 0
// or 1 (at k = 0 its lower bound is 1 − (1 − α/2)^(1/(n+1)) > 0), so it
// can exclude the observed rate. The README's coverage table (go run
// ./internal/tools/coverage) shows what each achieves for n from 10 to
// 500. With n = 0 every method returns [0, 1] with a CodeNoData warning.
// It panics on an unknown method, counts with successes outside [0, n],
// or a confidence outside (0, 1).
func ProportionInterval(method string, successes, n int, confidence float64) Interval {
	checkCounts(successes, n)
	checkConfidence(confidence)
	if method == MethodWilson {
		return WilsonInterval(successes, n, confidence)
	}
	if !IsProportionMethod(method) {
		panic(fmt.Sprintf("stats: unknown proportion interval method %q (want one of %v)", method, ProportionMethods()))
	}
	iv := Interval{Confidence: confidence, Method: method}
	if n == 0 {
		iv.Lo, iv.Hi = 0, 1
		iv.Warnings = []Warning{noCases()}
		return iv
	}
	a := (1 - confidence) / 2
	k, f := float64(successes), float64(n-successes)
	switch method {
	case MethodClopperPearson:
		iv.Lo, iv.Hi = 0, 1
		if successes > 0 {
			iv.Lo = BetaQuantile(a, k, f+1)
		}
		if successes < n {
			iv.Hi = 1 - BetaQuantile(a, f, k+1)
		}
	case MethodJeffreys:
		iv.Lo, iv.Hi = 0, 1
		if successes > 0 {
			iv.Lo = BetaQuantile(a, k+0.5, f+0.5)
		}
		if successes < n {
			iv.Hi = 1 - BetaQuantile(a, f+0.5, k+0.5)
		}
	case MethodBeta:
		iv.Lo = BetaQuantile(a, k+1, f+1)
		iv.Hi = 1 - BetaQuantile(a, f+1, k+1)
	}
	return iv
}

// Coverage returns the exact coverage of method's interval for n trials
// at true rate p, and its expected width:
//
//	coverage = Σ_{k : lo(k) ≤ p ≤ hi(k)} C(n, k) pᵏ (1 − p)ⁿ⁻ᵏ
//	width    = Σ_k C(n, k) pᵏ (1 − p)ⁿ⁻ᵏ (hi(k) − lo(k))
//
// No simulation is involved. Coverages evaluates many rates at once.
// It panics if n < 1, p is outside [0, 1] or method is unknown.
func Coverage(method string, n int, p, confidence float64) (coverage, width float64) {
	c, w := Coverages(method, n, []float64{p}, confidence)
	return c[0], w[0]
}

// Coverages is Coverage at each rate of ps, computing the n + 1
// intervals once.
func Coverages(method string, n int, ps []float64, confidence float64) (coverage, width []float64) {
	if n < 1 {
		panic(fmt.Sprintf("stats: coverage over %d trials", n))
	}
	ivs := make([]Interval, n+1)
	for k := range ivs {
		ivs[k] = ProportionInterval(method, k, n, confidence)
	}
	coverage, width = make([]float64, len(ps)), make([]float64, len(ps))
	for j, p := range ps {
		if !(p >= 0 && p <= 1) {
			panic(fmt.Sprintf("stats: coverage at rate %v", p))
		}
		for k, iv := range ivs {
			pk := binomialPMF(k, n, p)
			width[j] += pk * (iv.Hi - iv.Lo)
			if iv.Lo <= p && p <= iv.Hi {
				coverage[j] += pk
			}
		}
	}
	return coverage, width
}

// binomialPMF is C(n, k) pᵏ (1 − p)ⁿ⁻ᵏ, computed in logs.
func binomialPMF(k, n int, p float64) float64 {
	switch {
	case p == 0:
		if k == 0 {
			return 1
		}
		return 0
	case p == 1:
		if k == n {
			return 1
		}
		return 0
	}
	ln, _ := math.Lgamma(float64(n + 1))
	lk, _ := math.Lgamma(float64(k + 1))
	lnk, _ := math.Lgamma(float64(n - k + 1))
	return math.Exp(ln - lk - lnk + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
}
