package agree

import (
	"math"
	"math/rand/v2"
)

// binomial draws from Binomial(n, p) exactly (up to floating point) with
// uniforms from r: by inversion, walking the probability function up
// from 0, when n·min(p, 1 − p) < 10, and otherwise by W. Hörmann's BTRD
// ("The generation of binomial random variates", J. Statist. Comput.
// Simul. 46, 1993: transformed rejection with a decomposition), whose
// expected cost does not grow with n. For p > 1/2 it returns n minus a
// draw with 1 − p.
func binomial(r *rand.Rand, n int, p float64) int {
	switch {
	case n <= 0 || p <= 0:
		return 0
	case p >= 1:
		return n
	case p > 0.5:
		return n - binomial(r, n, 1-p)
	case float64(n)*p < 10:
		return binomialInversion(r, n, p)
	}
	return btrd(r, n, p)
}

// binomialInversion is the inversion method for n·p < 10, p ≤ 1/2:
// P(0) = qⁿ, P(x) = P(x − 1)·((n + 1 − x)/x)·(p/q). With n·p < 10 and
// p ≤ 1/2, qⁿ ≥ 2⁻²⁰, so the start does not underflow; the expected
// number of steps is n·p + 1.
func binomialInversion(r *rand.Rand, n int, p float64) int {
	q := 1 - p
	s := p / q
	a := float64(n+1) * s
	start := math.Pow(q, float64(n))
	for {
		u := r.Float64()
		f := start
		x := 0
		for u > f {
			u -= f
			x++
			if x > n {
				break // rounding left u above the total mass: draw again
			}
			f *= a/float64(x) - s
		}
		if x <= n {
			return x
		}
	}
}

// btrd is Hörmann's algorithm BTRD for n·p ≥ 10, p ≤ 1/2.
func btrd(r *rand.Rand, n int, p float64) int {
	nf := float64(n)
	q := 1 - p
	m := math.Floor((nf + 1) * p) // the mode
	rr := p / q
	nr := (nf + 1) * rr
	npq := nf * p * q
	sq := math.Sqrt(npq)
	b := 1.15 + 2.53*sq
	a := -0.0873 + 0.0248*b + 0.01*p
	c := nf*p + 0.5
	alpha := (2.83 + 5.1/b) * sq
	vr := 0.92 - 4.2/b
	urvr := 0.86 * vr
	for {
		v := r.Float64()
		if v <= urvr {
			u := v/vr - 0.43
			return int(math.Floor((2*a/(0.5-math.Abs(u))+b)*u + c))
		}
		var u float64
		if v >= vr {
			u = r.Float64() - 0.5
		} else {
			u = v/vr - 0.93
			u = math.Copysign(0.5, u) - u
			v = r.Float64() * vr
		}
		us := 0.5 - math.Abs(u)
		kf := math.Floor((2*a/us+b)*u + c)
		if kf < 0 || kf > nf {
			continue
		}
		v = v * alpha / (a/(us*us) + b)
		km := math.Abs(kf - m)
		if km <= 15 {
			// Recursive evaluation of f(k)/f(m).
			f := 1.0
			if m < kf {
				for i := m + 1; i <= kf; i++ {
					f *= nr/i - rr
				}
			} else if m > kf {
				for i := kf + 1; i <= m; i++ {
					v *= nr/i - rr
				}
			}
			if v <= f {
				return int(kf)
			}
			continue
		}
		// Squeeze, then the exact test with Stirling's formula.
		v = math.Log(v)
		rho := (km / npq) * (((km/3+0.625)*km+1.0/6)/npq + 0.5)
		t := -km * km / (2 * npq)
		if v < t-rho {
			return int(kf)
		}
		if v > t+rho {
			continue
		}
		nm := nf - m + 1
		h := (m+0.5)*math.Log((m+1)/(rr*nm)) + stirlingTail(m) + stirlingTail(nf-m)
		nk := nf - kf + 1
		if v <= h+(nf+1)*math.Log(nm/nk)+(kf+0.5)*math.Log(nk*rr/(kf+1))-stirlingTail(kf)-stirlingTail(nf-kf) {
			return int(kf)
		}
	}
}

// stirlingTail is the error of Stirling's formula for log k!:
//
//	log k! − ((k + ½)·log(k + 1) − (k + 1) + ½·log 2π)
//
// exactly (by Lgamma) for k < 10 and by its series beyond.
func stirlingTail(k float64) float64 {
	if k < 10 {
		lg, _ := math.Lgamma(k + 1)
		return lg - ((k+0.5)*math.Log(k+1) - (k + 1) + 0.5*math.Log(2*math.Pi))
	}
	k1 := k + 1
	k2 := k1 * k1
	return (1.0/12 - (1.0/360-1.0/1260/k2)/k2) / k1
}

// multinomial fills out with a draw from Multinomial(n, counts/Σcounts):
// the cells in turn, each a binomial of the trials left with the cell's
// share of the mass left, which gives the joint law exactly. It is, in
// law, the table of cell counts of n items drawn with replacement from
// items whose cells have those counts. Integer masses keep the
// conditional shares exact to a rounding.
func multinomial(r *rand.Rand, n int, counts []int, out []int) {
	left := 0
	for _, c := range counts {
		left += c
	}
	for i, c := range counts {
		if n == 0 || c == 0 {
			out[i] = 0
			left -= c
			continue
		}
		if c == left {
			out[i] = n
			n = 0
			left = 0
			continue
		}
		x := binomial(r, n, float64(c)/float64(left))
		out[i] = x
		n -= x
		left -= c
	}
}
