package stats

import (
	"fmt"
	"math"
)

// PowerUnpaired returns the power of the two-sided two-sample test of
// proportions with n cases per group, to detect true pass rates p1 and p2
// at significance level alpha (normal approximation, no continuity
// correction):
//
//	p̄ = (p1 + p2)/2
//	power = Φ( (√n·|p1 − p2| − z_{1−α/2}·√(2p̄(1−p̄))) / √(p1(1−p1) + p2(1−p2)) )
//
// This is the formula of R's power.prop.test (strict = FALSE): it counts
// rejections in the direction of the true difference only, so at zero
// effect (p1 = p2) the power is α/2, not α. The degenerate rates
// p1 = p2 = 0 or 1, where the formula divides 0 by 0, follow the same
// convention and also give α/2; p1 ≠ p2 with both in {0, 1} gives 1.
// It panics if n is negative, p1 or p2 is outside [0, 1] (or NaN), or
// alpha is outside (0, 1).
func PowerUnpaired(n int, p1, p2, alpha float64) float64 {
	checkN(n)
	checkRates(p1, p2, alpha, 0.5)
	za := zFor(1 - alpha)
	pbar := (p1 + p2) / 2
	sd := math.Sqrt(p1*(1-p1) + p2*(1-p2))
	if sd == 0 {
		if p1 == p2 {
			return alpha / 2
		}
		return 1
	}
	return NormalCDF((math.Sqrt(float64(n))*math.Abs(p1-p2) - za*math.Sqrt(2*pbar*(1-pbar))) / sd)
}

// SampleSizeUnpaired returns the number of cases per group needed for the
// two-sided two-sample test of proportions to detect pass rates p1 and p2
// with the given power at level alpha, rounded up:
//
//	n = ( z_{1−α/2}·√(2p̄(1−p̄)) + z_{power}·√(p1(1−p1) + p2(1−p2)) )² / (p1 − p2)²
//
// This solves PowerUnpaired for n. Use it when the two versions are run
// on different cases; when they run on the same cases use
// SampleSizePaired, which usually needs far fewer. It panics if p1 = p2.
func SampleSizeUnpaired(p1, p2, alpha, power float64) int {
	checkRates(p1, p2, alpha, power)
	if p1 == p2 {
		panic("stats: SampleSizeUnpaired with equal rates: no sample is large enough")
	}
	za, zb := zFor(1-alpha), NormalQuantile(power)
	pbar := (p1 + p2) / 2
	num := za*math.Sqrt(2*pbar*(1-pbar)) + zb*math.Sqrt(p1*(1-p1)+p2*(1-p2))
	return int(math.Ceil(num * num / ((p1 - p2) * (p1 - p2))))
}

// PowerPaired returns the power of McNemar's test (normal approximation,
// no continuity correction) on n paired cases, when a case gets better
// with probability pBetter and worse with probability pWorse. With
// ψ = pBetter + pWorse (the share of cases that change) and
// δ = pBetter − pWorse (the gain in pass rate),
//
//	power = Φ( (√n·|δ| − z_{1−α/2}·√ψ) / √(ψ − δ²) )
//
// (Connor 1987, "Sample size for testing differences in proportions for
// the paired-sample design", Biometrics 43). Like PowerUnpaired it counts
// rejections in the direction of the true gain only, so at δ = 0 it is
// α/2, also when no case changes (ψ = 0); when every case gets better
// (or every case worse) it is 1. It panics if n is negative, the
// probabilities are negative, NaN or sum past 1, or alpha is outside (0, 1).
func PowerPaired(n int, pBetter, pWorse, alpha float64) float64 {
	checkN(n)
	checkDiscordant(pBetter, pWorse, alpha, 0.5)
	za := zFor(1 - alpha)
	psi, delta := pBetter+pWorse, pBetter-pWorse
	sd := math.Sqrt(psi - delta*delta)
	if sd == 0 {
		if delta == 0 {
			return alpha / 2
		}
		return 1
	}
	return NormalCDF((math.Sqrt(float64(n))*math.Abs(delta) - za*math.Sqrt(psi)) / sd)
}

// SampleSizePaired returns the number of paired cases needed for
// McNemar's test to detect a gain when a case gets better with
// probability pBetter and worse with probability pWorse, at level alpha
// with the given power, rounded up (Connor 1987):
//
//	n = ( z_{1−α/2}·√ψ + z_{power}·√(ψ − δ²) )² / δ²,  ψ = pBetter + pWorse, δ = pBetter − pWorse
//
// It panics if pBetter = pWorse.
func SampleSizePaired(pBetter, pWorse, alpha, power float64) int {
	checkDiscordant(pBetter, pWorse, alpha, power)
	if pBetter == pWorse {
		panic("stats: SampleSizePaired with pBetter = pWorse: no sample is large enough")
	}
	za, zb := zFor(1-alpha), NormalQuantile(power)
	psi, delta := pBetter+pWorse, pBetter-pWorse
	num := za*math.Sqrt(psi) + zb*math.Sqrt(psi-delta*delta)
	return int(math.Ceil(num * num / (delta * delta)))
}

func checkN(n int) {
	if n < 0 {
		panic(fmt.Sprintf("stats: power for %d cases", n))
	}
}

func checkRates(p1, p2, alpha, power float64) {
	if !(p1 >= 0 && p1 <= 1 && p2 >= 0 && p2 <= 1) {
		panic(fmt.Sprintf("stats: rates %v and %v outside [0, 1]", p1, p2))
	}
	checkLevels(alpha, power)
}

func checkDiscordant(pb, pw, alpha, power float64) {
	if !(pb >= 0 && pw >= 0 && pb+pw <= 1) {
		panic(fmt.Sprintf("stats: discordant probabilities %v and %v", pb, pw))
	}
	checkLevels(alpha, power)
}

func checkLevels(alpha, power float64) {
	if !(alpha > 0 && alpha < 1) || !(power > 0 && power < 1) {
		panic(fmt.Sprintf("stats: alpha %v and power %v must lie strictly between 0 and 1", alpha, power))
	}
}
