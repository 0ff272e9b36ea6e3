package stats

import (
	"math"
	"testing"
)

// phi is the standard normal CDF written out for the tests: ½·erfc(−x/√2).
func phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// Four pairs, worked by hand: old 1 1 0 1, new 0 1 0 0, d = −1 0 0 −1;
// d̄ = −0.5, Σd² = 2, variance (2 − 4·0.25)/3 = 1/3, sd = √(1/3).
var handOld, handNew = []float64{1, 1, 0, 1}, []float64{0, 1, 0, 0}

func TestPairedMoments(t *testing.T) {
	if m, sd := PairedMoments(handOld, handNew); math.Abs(m+0.5) > 1e-15 || math.Abs(sd-math.Sqrt(1.0/3)) > 1e-15 {
		t.Errorf("PairedMoments = %v, %v; want -0.5, %v", m, sd, math.Sqrt(1.0/3))
	}
	if m, sd := PairedMoments(nil, nil); m != 0 || sd != 0 {
		t.Errorf("no pairs: %v, %v", m, sd)
	}
	if m, sd := PairedMoments([]float64{0.2}, []float64{0.7}); math.Abs(m-0.5) > 1e-15 || sd != 0 {
		t.Errorf("one pair: %v, %v; want 0.5, 0", m, sd)
	}
	if _, sd := PairedMoments([]float64{0, 0, 0}, []float64{1, 1, 1}); sd != 0 {
		t.Errorf("equal differences: sd %v, want 0", sd)
	}
}

func TestPairedNormalDiff(t *testing.T) {
	// 95%: z = 1.959963984540054; half-width z·√(1/3)/2 = 0.565793, so
	// the interval is [−1.0658, 0.0658], its low end clipped to −1.
	m, iv := PairedNormalDiff(handOld, handNew, 0.95)
	h := 1.959963984540054 * math.Sqrt(1.0/3) / 2
	if m != -0.5 || iv.Lo != -1 || math.Abs(iv.Hi-(-0.5+h)) > 1e-12 || iv.Method != "paired-normal" || iv.Confidence != 0.95 {
		t.Errorf("PairedNormalDiff = %v, %+v; want -0.5 in [-1, %v]", m, iv, -0.5+h)
	}
	// 80%: z = 1.2815515655446004, half-width 0.369952: not clipped.
	_, iv = PairedNormalDiff(handOld, handNew, 0.8)
	h = 1.2815515655446004 * math.Sqrt(1.0/3) / 2
	if math.Abs(iv.Lo-(-0.5-h)) > 1e-12 || math.Abs(iv.Hi-(-0.5+h)) > 1e-12 {
		t.Errorf("80%%: %+v, want [%v, %v]", iv, -0.5-h, -0.5+h)
	}
	// Two pairs 0→1 and 1→0: d̄ 0, sd √2, half-width 1.96·√2/√2 > 1: clipped.
	if m, iv := PairedNormalDiff([]float64{0, 1}, []float64{1, 0}, 0.95); m != 0 || iv.Lo != -1 || iv.Hi != 1 {
		t.Errorf("clipping: %v, %+v", m, iv)
	}
	if m, iv := PairedNormalDiff(nil, nil, 0.9); m != 0 || iv.Lo != -1 || iv.Hi != 1 {
		t.Errorf("no pairs: %v, %+v", m, iv)
	}
}

func TestNonInferiority(t *testing.T) {
	const zc, zp = 1.6448536269514722, 0.8416212335729143 // Φ⁻¹(0.95), Φ⁻¹(0.8)
	// The hand pairs with margin 0.1: se = √(1/3)/2, Upper = −0.5 + zc·se,
	// P = Φ((−0.5 + 0.1)/se) = Φ(−1.3856) ≈ 0.0830, MDE = 0.1 + (zc + zp)·√(1/3)/2.
	se := math.Sqrt(1.0/3) / 2
	r := NonInferiority(handOld, handNew, 0.1, 0.95, 0.8)
	want := NonInferiorityResult{N: 4, Delta: -0.5, SD: math.Sqrt(1.0 / 3), Upper: -0.5 + zc*se, P: phi(-0.4 / se), MDE: 0.1 + (zc+zp)*se}
	if r.N != want.N || math.Abs(r.Delta-want.Delta) > 1e-12 || math.Abs(r.SD-want.SD) > 1e-12 || math.Abs(r.Upper-want.Upper) > 1e-12 ||
		math.Abs(r.P-want.P) > 1e-12 || math.Abs(r.MDE-want.MDE) > 1e-12 {
		t.Errorf("NonInferiority = %+v\nwant             %+v", r, want)
	}
	if math.Abs(r.P-0.0830) > 5e-4 || r.P < 1-0.95 { // not a regression at 95%: p 0.083 > 0.05
		t.Errorf("P = %v, want about 0.0830 (normal table)", r.P)
	}
	// No row changed: SD 0, P 1 (the drop 0 is within the margin), and the
	// MDE uses the spread of one flip in 4, √(1/4) = 0.5.
	same := []float64{1, 1, 1, 1}
	r = NonInferiority(same, same, 0.1, 0.95, 0.8)
	if r.SD != 0 || r.P != 1 || r.Upper != 0 || math.Abs(r.MDE-(0.1+(zc+zp)*0.5/2)) > 1e-12 {
		t.Errorf("no change: %+v", r)
	}
	// Every row dropped by one: SD 0 and the drop 1 beyond any margin: P 0.
	if r := NonInferiority(same, []float64{0, 0, 0, 0}, 0.1, 0.95, 0.8); r.P != 0 || r.Delta != -1 {
		t.Errorf("all dropped: %+v", r)
	}
	if r := NonInferiority(nil, nil, 0.1, 0.95, 0.8); r.N != 0 || r.Upper != 1 || r.P != 1 || r.MDE != 1 {
		t.Errorf("no pairs: %+v", r)
	}
}
