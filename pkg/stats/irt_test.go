package stats

import (
	"math"
	"testing"
)

// lsatPatterns are the 32 response patterns of the LSAT data (Section 6,
// five items, 1000 examinees; Bock and Lieberman 1970, Psychometrika
// 35:179-197) and how many examinees gave each: the LSAT data set of R's
// ltm package, as vincentarelbundock/Rdatasets ships it in
// csv/psych/bock.table.csv (column Ob6) and stan-dev/example-models in
// bugs_examples/vol1/lsat/lsat.data.json (the cumulative counts culm).
// Pattern p is the binary number of items 1-5, item 1 the highest bit.
var lsatCounts = [32]float64{3, 6, 2, 11, 1, 1, 3, 4, 1, 8, 0, 16, 0, 3, 2, 15,
	10, 29, 14, 81, 3, 28, 15, 80, 16, 56, 21, 173, 11, 61, 28, 298}

func lsatData() ([][]int8, []float64) {
	resp := make([][]int8, 32)
	for p := range resp {
		resp[p] = make([]int8, 5)
		for j := 0; j < 5; j++ {
			resp[p][j] = int8(p >> (4 - j) & 1)
		}
	}
	return resp, lsatCounts[:]
}

// TestFit2PLLSAT checks the 2PL fit against R's ltm (ltm(LSAT ~ z1), as
// issue 28 quotes it): difficulties (-3.3597, -1.3696, -0.2799, -1.8659,
// -3.1236), discriminations (0.8254, 0.7229, 0.8905, 0.6886, 0.6575),
// log-likelihood -2466.65. The log-likelihood agrees to its 2 decimals;
// the parameters to 0.0025. The likelihood is flat along items 1 and 5
// (their difficulties have standard errors near 0.87), and ltm stops a
// little short of the maximum (40 EM iterations, then BFGS until a step
// gains less than 1.5e-8 relative): the log-likelihood at ltm's rounded
// estimates is below the one Fit2PL reaches, so Fit2PL's estimates are
// the closer to the maximum. TestFit2PLLTMLSAT reproduces ltm's own
// algorithm (IRTOptions{Emulate: "ltm"}) to the 4 decimals. The fit does
// not move with the number of quadrature points (10 to 61 give the same
// 4 decimals).
func TestFit2PLLSAT(t *testing.T) {
	resp, w := lsatData()
	f := Fit2PL(resp, w, IRTOptions{})
	if !f.Converged {
		t.Fatalf("not converged in %d iterations", f.Iterations)
	}
	t.Logf("b %.4f\na %.4f\nse b %.4f\nse a %.4f\nll %.4f, %d iterations", f.Difficulty, f.Discrimination, f.DifficultySE, f.DiscriminationSE, f.LogLik, f.Iterations)
	for j, want := range []float64{-3.3597, -1.3696, -0.2799, -1.8659, -3.1236} {
		if math.Abs(f.Difficulty[j]-want) > 2.5e-3 {
			t.Errorf("difficulty %d = %.5f, want %.4f", j+1, f.Difficulty[j], want)
		}
	}
	for j, want := range []float64{0.8254, 0.7229, 0.8905, 0.6886, 0.6575} {
		if math.Abs(f.Discrimination[j]-want) > 1e-3 {
			t.Errorf("discrimination %d = %.5f, want %.4f", j+1, f.Discrimination[j], want)
		}
	}
	if math.Abs(f.LogLik-(-2466.65)) > 0.005 {
		t.Errorf("log-likelihood %.4f, want -2466.65", f.LogLik)
	}
	ltm := IRTFit{Discrimination: []float64{0.8254, 0.7229, 0.8905, 0.6886, 0.6575}, Nodes: f.Nodes, Weights: f.Weights}
	for j, b := range []float64{-3.3597, -1.3696, -0.2799, -1.8659, -3.1236} {
		ltm.Intercept = append(ltm.Intercept, -b*ltm.Discrimination[j])
	}
	if ll := ltm.posterior(resp, w, newMatrix(len(resp), len(f.Nodes))); !(ll < f.LogLik) {
		t.Errorf("log-likelihood at ltm's estimates %.6f is not below Fit2PL's %.6f", ll, f.LogLik)
	} else {
		t.Logf("log-likelihood at ltm's estimates %.6f, at Fit2PL's %.6f", ll, f.LogLik)
	}
	// Standard errors: the observed information again, this time by
	// second differences of the log-likelihood alone (not of its
	// gradient), inverted; the SEs agree to 1e-3 relative.
	th := append(append([]float64{}, f.Intercept...), f.Discrimination...)
	ll := func(x []float64) float64 {
		g := IRTFit{Intercept: x[:5], Discrimination: x[5:], Nodes: f.Nodes, Weights: f.Weights}
		return g.posterior(resp, w, newMatrix(len(resp), len(f.Nodes)))
	}
	const h = 1e-4
	info := newMatrix(10, 10)
	for a := 0; a < 10; a++ {
		for b := 0; b < 10; b++ {
			at := func(da, db float64) float64 {
				x := append([]float64{}, th...)
				x[a] += da
				x[b] += db
				return ll(x)
			}
			info[a][b] = -(at(h, h) - at(h, -h) - at(-h, h) + at(-h, -h)) / (4 * h * h)
		}
	}
	cov, ok := invert(info)
	if !ok {
		t.Fatal("information singular")
	}
	for j := 0; j < 5; j++ {
		if se := math.Sqrt(cov[5+j][5+j]); math.Abs(se/f.DiscriminationSE[j]-1) > 1e-3 {
			t.Errorf("discrimination SE %d = %.5f, by second differences %.5f", j+1, f.DiscriminationSE[j], se)
		}
		if se := math.Sqrt(cov[j][j]); math.Abs(se/f.InterceptSE[j]-1) > 1e-3 {
			t.Errorf("intercept SE %d = %.5f, by second differences %.5f", j+1, f.InterceptSE[j], se)
		}
	}
}

// Gauss-Hermite for N(0, 1): the weights sum to 1 and the rule gives the
// normal's moments E X² = 1, E X⁴ = 3, E X⁶ = 15 exactly (degree ≤ 2n−1).
func TestGaussHermiteNormal(t *testing.T) {
	for _, n := range []int{1, 2, 5, 21, 41} {
		x, w := GaussHermiteNormal(n)
		var m0, m2, m4, m6 float64
		for i := range x {
			m0 += w[i]
			m2 += w[i] * x[i] * x[i]
			m4 += w[i] * math.Pow(x[i], 4)
			m6 += w[i] * math.Pow(x[i], 6)
		}
		if math.Abs(m0-1) > 1e-12 {
			t.Errorf("n=%d: weights sum to %g", n, m0)
		}
		if n >= 2 && math.Abs(m2-1) > 1e-10 {
			t.Errorf("n=%d: E X² = %g", n, m2)
		}
		if n >= 5 && (math.Abs(m4-3) > 1e-9 || math.Abs(m6-15) > 1e-8) {
			t.Errorf("n=%d: E X⁴ = %g, E X⁶ = %g", n, m4, m6)
		}
	}
}

// A respondent who answered every item has a known score: PredictScore
// returns it with no spread. With no item answered the score is the mean
// of the items' marginal pass rates, with spread.
func TestPredictScore(t *testing.T) {
	resp, w := lsatData()
	f := Fit2PL(resp, w, IRTOptions{})
	if m, sd := f.PredictScore([]int8{1, 0, 1, 1, 0}); math.Abs(m-0.6) > 1e-12 || sd > 1e-12 {
		t.Errorf("full pattern: %g ± %g, want 0.6 ± 0", m, sd)
	}
	m, sd := f.PredictScore([]int8{-1, -1, -1, -1, -1})
	// Observed pass rates of the five items: 924, 709, 553, 763, 870 of
	// 1000 (from the pattern counts), mean 0.7638; the model's marginal
	// rates match them closely at the MLE.
	if math.Abs(m-0.7638) > 2e-3 || sd <= 0 {
		t.Errorf("no item answered: %g ± %g, want about 0.7638 with spread", m, sd)
	}
	if m1, sd1 := f.PredictScore([]int8{1, 1, -1, -1, -1}); sd1 >= sd || m1 <= m {
		t.Errorf("two right answers: %g ± %g; want above %g and narrower than %g", m1, sd1, m, sd)
	}
}

// Cronbach's α by hand: two items that always agree, α = 2·(1 − 0.5/1) =
// 1; two items that agree half the time (totals 2, 0, 1, 1: variance 0.5),
// α = 2·(1 − 0.5/0.5) = 0.
func TestCronbachAlpha(t *testing.T) {
	if a, _ := CronbachAlpha([][]float64{{1, 1}, {0, 0}, {1, 1}, {0, 0}}, nil); math.Abs(a-1) > 1e-12 {
		t.Errorf("alpha %g, want 1", a)
	}
	if a, _ := CronbachAlpha([][]float64{{1, 1}, {0, 0}, {1, 0}, {0, 1}}, nil); math.Abs(a) > 1e-12 {
		t.Errorf("alpha %g, want 0", a)
	}
}
