package agree

import (
	"math"
	"testing"
)

// binomialPMF is the binomial probability function by logs of the
// gamma function.
func binomialPMF(n, k int, p float64) float64 {
	ln, _ := math.Lgamma(float64(n + 1))
	lk, _ := math.Lgamma(float64(k + 1))
	lnk, _ := math.Lgamma(float64(n - k + 1))
	return math.Exp(ln - lk - lnk + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
}

// The sampler's draws follow Binomial(n, p): a chi-square goodness of fit
// against the exact probabilities, over cells pooled until each expects
// at least 20 draws, for n·p on both sides of the switch from inversion
// to BTRD (10), p on both sides of 1/2, and with n·p·q beyond 15² so that
// BTRD's squeeze and Stirling test run. With 200,000 draws and a fixed
// seed the statistic is a fixed number; a sampler off by 1% in one cell's
// probability would exceed the bound, which is the chi-square quantile
// for p = 1e-6 (by the Wilson-Hilferty approximation, accurate to a few
// percent at these degrees of freedom).
func TestBinomialLaw(t *testing.T) {
	cases := []struct {
		n int
		p float64
	}{
		{1, 0.3}, {5, 0.5}, {20, 0.2}, {49, 0.2}, {50, 0.2}, {100, 0.1}, {100, 0.5},
		{30, 0.9}, {1000, 0.3}, {10000, 0.02}, {100000, 0.4}, {1000000, 0.7}, {1000000, 0.00001},
	}
	const draws = 200000
	for ci, c := range cases {
		r := newRNG(uint64(ci) + 1)
		hist := map[int]int{}
		var sum, sumSq float64
		for range draws {
			x := binomial(r, c.n, c.p)
			if x < 0 || x > c.n {
				t.Fatalf("n %d p %v: draw %d outside 0..n", c.n, c.p, x)
			}
			hist[x]++
			sum += float64(x)
			sumSq += float64(x) * float64(x)
		}
		// Pool from the left into cells expecting ≥ 20.
		var chi2 float64
		df := -1
		var obs, exp float64
		for k := 0; k <= c.n; k++ {
			obs += float64(hist[k])
			exp += draws * binomialPMF(c.n, k, c.p)
			if exp >= 20 {
				chi2 += (obs - exp) * (obs - exp) / exp
				df++
				obs, exp = 0, 0
			}
		}
		if exp > 0 || obs > 0 { // the tail left over joins the last cell's test as its own term
			chi2 += (obs - exp) * (obs - exp) / math.Max(exp, 1e-300)
			df++
		}
		if df < 1 {
			df = 1
		}
		z := 4.753 // normal quantile for 1e-6
		d := float64(df)
		bound := d * math.Pow(1-2/(9*d)+z*math.Sqrt(2/(9*d)), 3)
		if chi2 > bound {
			t.Errorf("n %d p %v: chi-square %.1f on %d df exceeds %.1f", c.n, c.p, chi2, df, bound)
		}
		mean := sum / draws
		sd := math.Sqrt(float64(c.n) * c.p * (1 - c.p))
		if math.Abs(mean-float64(c.n)*c.p) > 6*sd/math.Sqrt(draws) {
			t.Errorf("n %d p %v: mean %v, want %v", c.n, c.p, mean, float64(c.n)*c.p)
		}
		if v := sumSq/draws - mean*mean; sd > 0 && math.Abs(v/(sd*sd)-1) > 0.03 {
			t.Errorf("n %d p %v: variance %v, want %v", c.n, c.p, v, sd*sd)
		}
	}
	r := newRNG(1)
	if binomial(r, 10, 0) != 0 || binomial(r, 10, 1) != 10 || binomial(r, 0, 0.5) != 0 {
		t.Error("degenerate binomials")
	}
}

// stirlingTail's series beyond 10 meets the exact value (log k! by
// Lgamma minus Stirling's formula) to 1e-10 (its first omitted term,
// 1/(1680(k+1)⁷), is 3e-11 at k = 10; an error of that size in a log
// density moves an acceptance probability by as little).
func TestStirlingTail(t *testing.T) {
	for _, k := range []float64{10, 11, 50, 1000} {
		lg, _ := math.Lgamma(k + 1)
		exact := lg - ((k+0.5)*math.Log(k+1) - (k + 1) + 0.5*math.Log(2*math.Pi))
		if d := math.Abs(stirlingTail(k) - exact); d > 1e-10 {
			t.Errorf("k %v: series %v, exact %v", k, stirlingTail(k), exact)
		}
	}
}

// A multinomial draw puts all n trials in the cells, none in an empty
// cell, and each cell's mean over many draws is n·share (within 6
// standard errors).
func TestMultinomial(t *testing.T) {
	counts := []int{5, 0, 30, 1, 64}
	r := newRNG(7)
	out := make([]int, len(counts))
	sums := make([]float64, len(counts))
	const n, draws = 1000, 20000
	for range draws {
		multinomial(r, n, counts, out)
		total := 0
		for i, x := range out {
			total += x
			sums[i] += float64(x)
		}
		if total != n || out[1] != 0 {
			t.Fatalf("draw %v", out)
		}
	}
	for i, c := range counts {
		p := float64(c) / 100
		want := n * p
		se := math.Sqrt(n*p*(1-p)) / math.Sqrt(draws)
		if got := sums[i] / draws; math.Abs(got-want) > 6*se+1e-12 {
			t.Errorf("cell %d: mean %v, want %v", i, got, want)
		}
	}
}
