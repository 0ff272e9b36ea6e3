package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// binomial draws exact Binomial(n, p) variates.
//
// Two classical exact methods, chosen by the mean of the smaller tail:
//
//   - n·min(p, 1−p) < 10: inversion by sequential search (Kachitvichyanukul
//     and Schmeiser 1988, algorithm BINV), starting from P(X = 0) = qⁿ and
//     stepping P(X = x) = P(X = x−1)·((n+1)s/x − s) with s = p/q. Its cost
//     is proportional to the mean, so at most about ten steps.
//   - otherwise: transformed rejection with squeeze, BTRS (W. Hörmann,
//     "The generation of binomial random variates", J. Statist. Comput.
//     Simul. 46, 1993). A candidate k comes from a transformed uniform;
//     most are accepted by a cheap squeeze, the rest by comparing with the
//     exact log-probability via math.Lgamma. The cost is constant in n.
//
// Both return draws whose distribution is exactly binomial up to
// floating-point rounding. For p > 1/2 the generator draws Binomial(n,
// 1−p) and returns n minus the draw.
type binomial struct {
	n    int
	flip bool // p > 1/2: draw for 1−p and return n − k
	zero bool // p is 0 (after the flip): always 0

	btrs bool
	// inversion
	q0, s, a float64 // P(X=0), p/q, (n+1)s
	bound    int     // restart beyond this (guards rounding)
	// BTRS
	spq, b, alpha, c, vr, lpq, m, h, ab float64
}

func makeBinomial(n int, p float64) binomial {
	g := binomial{n: n}
	if p > 0.5 {
		g.flip = true
		p = 1 - p
	}
	if n == 0 || p <= 0 {
		g.zero = true
		return g
	}
	q := 1 - p
	nf := float64(n)
	if nf*p < 10 {
		g.q0 = math.Exp(nf * math.Log1p(-p))
		g.s = p / q
		g.a = (nf + 1) * g.s
		g.bound = int(math.Min(nf, nf*p+10*math.Sqrt(nf*p*q+1)))
		return g
	}
	g.btrs = true
	g.spq = math.Sqrt(nf * p * q)
	g.b = 1.15 + 2.53*g.spq
	g.ab = -0.0873 + 0.0248*g.b + 0.01*p
	g.c = nf*p + 0.5
	g.alpha = (2.83 + 5.1/g.b) * g.spq
	g.vr = 0.92 - 4.2/g.b
	g.lpq = math.Log(p / q)
	g.m = math.Floor((nf + 1) * p)
	g.h = lgamma(g.m+1) + lgamma(nf-g.m+1)
	return g
}

func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}

// draw returns one Binomial(n, p) variate using r.
func (g *binomial) draw(r *rand.Rand) int {
	var k int
	switch {
	case g.zero:
		k = 0
	case g.btrs:
		k = g.drawBTRS(r)
	default:
		k = g.drawInversion(r)
	}
	if g.flip {
		return g.n - k
	}
	return k
}

func (g *binomial) drawInversion(r *rand.Rand) int {
	for {
		u := r.Float64()
		pr := g.q0
		x := 0
		for u > pr {
			u -= pr
			x++
			if x > g.bound {
				break
			}
			pr *= g.a/float64(x) - g.s
		}
		if x <= g.bound {
			return x
		}
	}
}

func (g *binomial) drawBTRS(r *rand.Rand) int {
	nf := float64(g.n)
	for {
		u := r.Float64() - 0.5
		v := r.Float64()
		us := 0.5 - math.Abs(u)
		if us == 0 {
			continue
		}
		kf := math.Floor((2*g.ab/us+g.b)*u + g.c)
		if kf < 0 || kf > nf {
			continue
		}
		if us >= 0.07 && v <= g.vr {
			return int(kf)
		}
		v = math.Log(v * g.alpha / (g.ab/(us*us) + g.b))
		if v <= g.h-lgamma(kf+1)-lgamma(nf-kf+1)+(kf-g.m)*g.lpq {
			return int(kf)
		}
	}
}

// newRand returns the PCG generator for stream (seed, stream). The two
// PCG seed words are SplitMix64 mixes of the inputs, so neighbouring seeds
// and streams start far apart.
func newRand(seed, stream uint64) *rand.Rand {
	return rand.New(newPCG(seed, stream))
}

func newPCG(seed, stream uint64) *rand.PCG {
	return rand.NewPCG(pcgSeeds(seed, stream))
}

// pcgSeeds returns the two PCG seed words for stream (seed, stream).
func pcgSeeds(seed, stream uint64) (uint64, uint64) {
	return splitmix(seed ^ 0x6a09e667f3bcc909), splitmix(seed + stream*0x9e3779b97f4a7c15 + 1)
}

// splitmix is the SplitMix64 finaliser (Steele, Lea and Flood 2014).
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// BootstrapProportion returns the percentile bootstrap interval for a
// proportion of successes out of n 0/1 outcomes, from resamples
// resamples drawn with the given seed.
//
// Resampling n outcomes with replacement and counting successes gives a
// count distributed exactly as Binomial(n, p̂) with p̂ = successes/n, so
// each resample is one exact binomial draw (see the binomial sampler's
// documentation: inversion for small means, Hörmann's BTRS otherwise)
// instead of n draws. The interval is
//
//	lo, hi = quantiles (1−c)/2 and (1+c)/2 of {K_b / n},  K_b ~ Binomial(n, p̂)
//
// with quantiles interpolated as in Percentile. With n = 0 it returns [0,
// 1]. See BootstrapProportionInterval for the warnings.
func BootstrapProportion(successes, n, resamples int, confidence float64, seed uint64) (lo, hi float64) {
	iv := BootstrapProportionInterval(successes, n, resamples, confidence, seed)
	return iv.Lo, iv.Hi
}

// BootstrapProportionInterval is BootstrapProportion with warnings: no
// cases (CodeNoData), fewer than MinBootstrapN cases (CodeFewResampled),
// and an interval collapsed to a point because every case passed or
// every case failed (CodePointInterval; the Wilson interval is the honest
// one then).
func BootstrapProportionInterval(successes, n, resamples int, confidence float64, seed uint64) Interval {
	checkCounts(successes, n)
	checkConfidence(confidence)
	checkResamples(resamples)
	iv := Interval{Confidence: confidence, Method: "bootstrap"}
	if n == 0 {
		iv.Lo, iv.Hi = 0, 1
		iv.Warnings = []Warning{noCases()}
		return iv
	}
	g := makeBinomial(n, float64(successes)/float64(n))
	r := newRand(seed, 0)
	means := make([]float64, resamples)
	nf := float64(n)
	for i := range means {
		means[i] = float64(g.draw(r)) / nf
	}
	slices.Sort(means)
	iv.Lo, iv.Hi = percentileInterval(means, confidence)
	iv.Warnings = bootstrapWarnings(n, "cases")
	if successes == 0 || successes == n {
		iv.Warnings = append(iv.Warnings, warning(CodePointInterval, "all %d cases have the same outcome: the bootstrap interval is a single point; use the Wilson interval", n))
	}
	return iv
}

// bootstrapWarnings is the small-sample rule shared by every bootstrap
// of the package: a CodeFewResampled warning below MinBootstrapN items.
func bootstrapWarnings(n int, what string) []Warning {
	if n < MinBootstrapN {
		if n == 1 {
			what = strings.TrimSuffix(what, "s") // one case, value, pair, cluster or row
		}
		return []Warning{warning(CodeFewResampled, "bootstrap over only %d %s: the interval is rough and too narrow", n, what)}
	}
	return nil
}
