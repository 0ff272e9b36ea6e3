package stats

import (
	"math"
	"testing"
)

// issue28Data is the worked example of issue 28: 20 labelled items
// (human 1: judge 1 ×11, judge 0 ×1; human 0: judge 1 ×2, judge 0 ×6) and
// 200 judged items of which 150 pass.
func issue28Data() (y, yhat, unlabelled []float64) {
	add := func(h, j float64, k int) {
		for range k {
			y, yhat = append(y, h), append(yhat, j)
		}
	}
	add(1, 1, 11)
	add(1, 0, 1)
	add(0, 1, 2)
	add(0, 0, 6)
	for i := range 200 {
		unlabelled = append(unlabelled, b2f(i < 150))
	}
	return
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestPPIMeanIssue28 checks the reference values of issue 28, which are
// ppi_py's classical_mean_ci, ppi_mean_ci(lam=1) and ppi_mean_ci
// (power-tuned) at alpha = 0.05, to 1e-8. By hand: classical is
// 0.6 ∓ 1.959964·√(0.24/20); PPI is 0.75 + (0.6 − 0.65) = 0.70.
func TestPPIMeanIssue28(t *testing.T) {
	y, yhat, u := issue28Data()
	check := func(name string, lambda, est, lo, hi float64) {
		t.Helper()
		e, iv := PPIMean(y, yhat, u, lambda, 0.95)
		if math.Abs(e-est) > 1e-8 || math.Abs(iv.Lo-lo) > 1e-8 || math.Abs(iv.Hi-hi) > 1e-8 {
			t.Errorf("%s: %.10f (%.10f, %.10f), want %.10f (%.10f, %.10f)", name, e, iv.Lo, iv.Hi, est, lo, hi)
		}
	}
	check("classical", 0, 0.60, 0.3852967028, 0.8147032972)
	check("ppi", 1, 0.70, 0.5213043749, 0.8786956251)
	check("ppi++", PPILambda(y, yhat, u), 0.6754278334, 0.5121901440, 0.8386655228)
}

// TestRoganGladenLee checks the two reference cases of issue 28 against
// Lee et al.'s calibration.py (point_estimator, confidence_interval with
// alpha = 0.05), to 1e-8. The first is the README example of their
// repository; its point estimate by hand is (0.4 + 0.7 − 1)/(0.7 + 0.9 − 1)
// = 1/6; the second is (0.6 + 0.9 − 1)/(0.9 + 0.8 − 1) = 5/7, the
// exercise of the issue's notebook.
func TestRoganGladenLee(t *testing.T) {
	check := func(p, q0, q1 float64, n, m0, m1 int, est, lo, hi float64) {
		t.Helper()
		e, iv := RoganGladen(p, q0, q1, n, m0, m1, 0.95)
		if math.Abs(e-est) > 1e-8 || math.Abs(iv.Lo-lo) > 1e-8 || math.Abs(iv.Hi-hi) > 1e-8 || len(iv.Warnings) > 0 {
			t.Errorf("RoganGladen(%v, %v, %v, %d, %d, %d) = %.10f (%.10f, %.10f) %v, want %.10f (%.10f, %.10f)",
				p, q0, q1, n, m0, m1, e, iv.Lo, iv.Hi, iv.Warnings, est, lo, hi)
		}
	}
	check(0.4, 0.7, 0.9, 1000, 200, 200, 0.1666666667, 0.0563507248, 0.2627330258)
	check(0.6, 0.9, 0.8, 500, 100, 300, 0.7142857143, 0.6312325504, 0.7944128818)
}

func TestRoganGladenUninformative(t *testing.T) {
	e, iv := RoganGladen(0.7, 0.5, 0.5, 100, 10, 10, 0.95)
	if e != 0.7 || iv.Lo != 0 || iv.Hi != 1 || len(iv.Warnings) != 1 || iv.Warnings[0].Code != CodeUninformativeJudge {
		t.Errorf("chance judge: %v %+v, want 0.7 in [0, 1] with %s", e, iv, CodeUninformativeJudge)
	}
}

func TestPPILambdaConstantPredictions(t *testing.T) {
	if l := PPILambda([]float64{0, 1, 1}, []float64{1, 1, 1}, []float64{1, 1}); l != 0 {
		t.Errorf("constant predictions: λ = %v, want 0", l)
	}
	// A perfect judge on a large unlabelled set is worth almost all its
	// weight: λ = 2·0.25/(2·(1 + 4/400)·var) ≈ 1 (clipped).
	y := []float64{0, 1, 0, 1}
	u := make([]float64, 400)
	for i := range u {
		u[i] = b2f(i%2 == 0)
	}
	if l := PPILambda(y, y, u); l < 0.98 || l > 1 {
		t.Errorf("perfect judge: λ = %v, want near 1", l)
	}
}
