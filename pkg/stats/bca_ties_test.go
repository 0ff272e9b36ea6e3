package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// sdForward and sdBackward are the same sample standard deviation (two
// passes: the mean, then the squared deviations), summed first to last and
// last to first. On 0/1 data they agree to the last bit or two, and a
// resampled value that equals the estimate in exact arithmetic may land on
// either side of it in floating point.
func sdForward(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	s := 0.0
	for _, v := range x {
		s += (v - m) * (v - m)
	}
	return math.Sqrt(s / float64(len(x)-1))
}

func sdBackward(x []float64) float64 {
	m := 0.0
	for i := len(x) - 1; i >= 0; i-- {
		m += x[i]
	}
	m /= float64(len(x))
	s := 0.0
	for i := len(x) - 1; i >= 0; i-- {
		s += (x[i] - m) * (x[i] - m)
	}
	return math.Sqrt(s / float64(len(x)-1))
}

// Issue 28 (defect a, found by a held-out check of the second wave): the
// BCa interval of a non-mean statistic on 0/1 data depended on summation
// order. The standard deviation of 0/1 values takes few values, many
// resamples reproduce the estimate exactly (the same count of ones), and
// z₀ counted θ* < θ̂ strictly, so a rounding difference of 1 ulp moved
// those ties across the estimate: 16 of these 40 samples gave a different
// interval when the same statistic was summed in reverse. Ties (within a
// relative 1e-9) now count half, as scipy.stats.bootstrap's
// _percentile_of_score does ((#{θ* < θ̂} + #{θ* ≤ θ̂}) / 2B), and both
// orders give the same interval to rounding.
func TestBCaTiesDoNotDependOnSummationOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 1))
	differ := 0
	for s := range 40 {
		n := 20 + r.IntN(40)
		p := 0.2 + 0.6*r.Float64()
		x := make([]float64, n)
		for i := range x {
			if r.Float64() < p {
				x[i] = 1
			}
		}
		a := BootstrapBCa(x, sdForward, 2000, 0.95, uint64(s+1))
		b := BootstrapBCa(x, sdBackward, 2000, 0.95, uint64(s+1))
		if math.Abs(a.Lo-b.Lo) > 1e-9 || math.Abs(a.Hi-b.Hi) > 1e-9 {
			differ++
			t.Logf("sample %d (n %d): forward [%v, %v], backward [%v, %v]", s, n, a.Lo, a.Hi, b.Lo, b.Hi)
		}
	}
	if differ > 0 {
		t.Errorf("%d of 40 samples gave a different BCa interval when the statistic was summed in reverse", differ)
	}
}

// Ties count half: with θ̂ = 1 and resamples 0, 1, 1, 2 (one below, two
// tied, one above) the share below is (1 + 3)/(2·4) = 1/2, so z₀ = 0; a
// value within a relative 1e-9 of θ̂ is a tie too.
func TestBCaTiesCountHalf(t *testing.T) {
	if got := shareBelow([]float64{0, 1, 1 + 1e-15, 2}, 1); got != 0.5 {
		t.Errorf("share below = %v, want 0.5", got)
	}
	if got := shareBelow([]float64{0, 0.5, 1, 2}, 1); got != 0.625 {
		t.Errorf("share below = %v, want (2 + 3)/8 = 0.625", got)
	}
}

// Issue 28 (defect b): when every leave-one-out value is equal (the
// median of discrete scores), the acceleration is 0. Before, the rounding
// of their mean left n equal deviations d ≠ 0 and a = n d³ / (6 (n d²)^{3/2})
// = ±1/(6√n).
func TestJackknifeAccelerationEqualLeaveOneOut(t *testing.T) {
	median := func(x []float64) float64 {
		c := append([]float64(nil), x...)
		// 0.1-steps of a discrete score: many equal middle values.
		for i := range c {
			for j := i + 1; j < len(c); j++ {
				if c[j] < c[i] {
					c[i], c[j] = c[j], c[i]
				}
			}
		}
		return c[len(c)/2]
	}
	x := []float64{0.1, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.7, 0.9, 0.7}
	// Every leave-one-out median of these 11 values is 0.7 (8 of the 10
	// left are 0.7), so a = 0.
	if a := jackknifeAcceleration(x, median); a != 0 {
		t.Errorf("a = %v, want 0 (1/(6√11) = %v)", a, 1/(6*math.Sqrt(11)))
	}
	// Equal leave-one-out values within rounding count as equal too: the
	// mean of 0.1 repeated has leave-one-out means that differ in the last bit.
	y := make([]float64, 30)
	for i := range y {
		y[i] = 0.1
	}
	if a := jackknifeAcceleration(y, bcaMean); a != 0 {
		t.Errorf("constant data: a = %v, want 0", a)
	}
}
