package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// binomialCDF is the exact Binomial(n, p) distribution function, summed
// from log-probabilities (independent of the sampler's recurrences).
func binomialCDF(n int, p float64) []float64 {
	cdf := make([]float64, n+1)
	s := 0.0
	for k := 0; k <= n; k++ {
		lp := lgamma(float64(n)+1) - lgamma(float64(k)+1) - lgamma(float64(n-k)+1)
		if p > 0 {
			lp += float64(k) * math.Log(p)
		} else if k > 0 {
			lp = math.Inf(-1)
		}
		if p < 1 {
			lp += float64(n-k) * math.Log1p(-p)
		} else if k < n {
			lp = math.Inf(-1)
		}
		s += math.Exp(lp)
		cdf[k] = s
	}
	return cdf
}

// The sampler must reproduce the binomial distribution: the largest gap
// between the empirical and exact distribution functions over 200,000
// draws stays under the Kolmogorov-Smirnov critical value at level 0.001,
// 1.95/√N (conservative for a discrete distribution). Cases cover both
// methods (inversion for n·p < 10, BTRS otherwise) and the p > 1/2 flip.
func TestBinomialSamplerKS(t *testing.T) {
	const draws = 200000
	for _, tc := range []struct {
		n int
		p float64
	}{
		{1, 0.5}, {20, 0.3}, {1000, 0.005}, {30, 0.633}, {100, 0.1}, {1000, 0.4}, {5000, 0.97}, {31, 25.0 / 31},
	} {
		t.Run(fmt.Sprintf("n=%d p=%.3f", tc.n, tc.p), func(t *testing.T) {
			g := makeBinomial(tc.n, tc.p)
			r := newRand(42, 0)
			counts := make([]int, tc.n+1)
			for range draws {
				k := g.draw(r)
				if k < 0 || k > tc.n {
					t.Fatalf("draw %d outside [0, %d]", k, tc.n)
				}
				counts[k]++
			}
			cdf := binomialCDF(tc.n, tc.p)
			worst, acc := 0.0, 0
			for k, c := range counts {
				acc += c
				worst = math.Max(worst, math.Abs(float64(acc)/draws-cdf[k]))
			}
			if crit := 1.95 / math.Sqrt(draws); worst > crit {
				t.Errorf("KS distance %.5f > %.5f", worst, crit)
			}
		})
	}
}

func TestBinomialEdges(t *testing.T) {
	r := newRand(1, 0)
	for _, tc := range []struct {
		n    int
		p    float64
		want int
	}{{10, 0, 0}, {10, 1, 10}, {0, 0.5, 0}, {1000000, 1, 1000000}} {
		g := makeBinomial(tc.n, tc.p)
		if k := g.draw(r); k != tc.want {
			t.Errorf("Binomial(%d, %v) drew %d, want %d", tc.n, tc.p, k, tc.want)
		}
	}
}

func TestBootstrapProportion(t *testing.T) {
	// The seed lesson's percentile intervals (seed 003, SPEC.md section 3)
	// come from a different resampler and seed, so only the neighbourhood
	// is checked: within 0.05 of each printed bound.
	tests := []struct {
		name   string
		k, n   int
		lo, hi float64
	}{
		{"seed calibration agreement 19/30 = 0.633", 19, 30, 0.467, 0.8},
		{"seed old version 25/31", 25, 31, 0.677, 0.935},
		{"seed new version 27/31", 27, 31, 0.742, 0.968},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lo, hi := BootstrapProportion(tc.k, tc.n, 10000, 0.95, 1)
			if !near(lo, tc.lo, 0.05) || !near(hi, tc.hi, 0.05) {
				t.Errorf("BootstrapProportion(%d, %d) = (%.3f, %.3f), want near (%.3f, %.3f)", tc.k, tc.n, lo, hi, tc.lo, tc.hi)
			}
		})
	}
	t.Run("large n agrees with the normal interval", func(t *testing.T) {
		// For 700 of 1000 the bootstrap distribution is close to normal:
		// 0.7 ∓ 1.96·√(0.7·0.3/1000) = 0.7 ∓ 0.0284 (hand computation).
		lo, hi := BootstrapProportion(700, 1000, 20000, 0.95, 7)
		if !near(lo, 0.7-0.0284, 0.003) || !near(hi, 0.7+0.0284, 0.003) {
			t.Errorf("got (%.4f, %.4f), want about (0.6716, 0.7284)", lo, hi)
		}
	})
	t.Run("same seed same interval, other seed other interval", func(t *testing.T) {
		a1, b1 := BootstrapProportion(500, 1000, 2000, 0.95, 3)
		a2, b2 := BootstrapProportion(500, 1000, 2000, 0.95, 3)
		a3, b3 := BootstrapProportion(500, 1000, 2000, 0.95, 4)
		if a1 != a2 || b1 != b2 {
			t.Errorf("seed 3 gave (%v, %v) then (%v, %v)", a1, b1, a2, b2)
		}
		if a1 == a3 && b1 == b3 {
			t.Errorf("seeds 3 and 4 gave the same interval (%v, %v)", a1, b1)
		}
	})
}

func TestBootstrapProportionWarnings(t *testing.T) {
	check := func(name string, iv Interval, lo, hi float64, want ...string) {
		t.Helper()
		t.Run(name, func(t *testing.T) {
			if iv.Lo != lo || iv.Hi != hi {
				t.Errorf("interval (%v, %v), want (%v, %v)", iv.Lo, iv.Hi, lo, hi)
			}
			if len(iv.Warnings) != len(want)/2 {
				t.Fatalf("warnings %q, want %q", iv.Warnings, want)
			}
			for i := range iv.Warnings {
				if w := iv.Warnings[i]; w.Code != want[2*i] || !strings.Contains(w.Message, want[2*i+1]) {
					t.Errorf("warning %+v, want code %s and a message with %q", w, want[2*i], want[2*i+1])
				}
			}
		})
	}
	check("no cases", BootstrapProportionInterval(0, 0, 100, 0.95, 1), 0, 1, CodeNoData, "no cases")
	check("all pass, few", BootstrapProportionInterval(4, 4, 100, 0.95, 1), 1, 1,
		CodeFewResampled, "only 4 cases", CodePointInterval, "single point")
	check("none pass", BootstrapProportionInterval(0, 50, 100, 0.95, 1), 0, 0, CodePointInterval, "single point")
}

func TestBootstrapMean(t *testing.T) {
	// Graded scores with many distinct values go through the parallel
	// index resampler. For n = 2000 values i/1999 (mean 0.5, population
	// variance ≈ 1/12 · 2001/1999) the bootstrap interval is close to the
	// normal one: 0.5 ∓ 1.96·√(0.0834/2000) = 0.5 ∓ 0.01266.
	x := make([]float64, 2000)
	for i := range x {
		x[i] = float64(i) / 1999
	}
	lo, hi := BootstrapMean(x, 10000, 0.95, 11)
	if !near(lo, 0.5-0.01266, 0.0015) || !near(hi, 0.5+0.01266, 0.0015) {
		t.Errorf("BootstrapMean = (%.5f, %.5f), want about (0.48734, 0.51266)", lo, hi)
	}

	t.Run("independent of GOMAXPROCS", func(t *testing.T) {
		prev := runtime.GOMAXPROCS(1)
		defer runtime.GOMAXPROCS(prev)
		lo1, hi1 := BootstrapMean(x, 500, 0.9, 5)
		runtime.GOMAXPROCS(4)
		lo4, hi4 := BootstrapMean(x, 500, 0.9, 5)
		if lo1 != lo4 || hi1 != hi4 {
			t.Errorf("GOMAXPROCS 1 gave (%v, %v), 4 gave (%v, %v)", lo1, hi1, lo4, hi4)
		}
	})

	t.Run("few distinct values use exact multinomial draws", func(t *testing.T) {
		// 0/1 outcomes: the interval must sit where the binomial one does.
		y := make([]float64, 1000)
		for i := range 700 {
			y[i] = 1
		}
		lo, hi := BootstrapMean(y, 20000, 0.95, 9)
		if !near(lo, 0.6716, 0.003) || !near(hi, 0.7284, 0.003) {
			t.Errorf("got (%.4f, %.4f), want about (0.6716, 0.7284)", lo, hi)
		}
		// Three levels (0, 0.5, 1), 100 each: mean 0.5, variance 1/6,
		// normal half-width 1.96·√(1/6/300) = 0.0462.
		z := make([]float64, 300)
		for i := range z {
			z[i] = float64(i%3) / 2
		}
		lo, hi = BootstrapMean(z, 20000, 0.95, 9)
		if !near(lo, 0.5-0.0462, 0.004) || !near(hi, 0.5+0.0462, 0.004) {
			t.Errorf("three levels: got (%.4f, %.4f), want about (0.4538, 0.5462)", lo, hi)
		}
	})

	t.Run("warnings", func(t *testing.T) {
		if iv := BootstrapMeanInterval(nil, 10, 0.95, 1); iv.Lo != 0 || iv.Hi != 0 || codes(iv.Warnings) != CodeNoData {
			t.Errorf("no data: %+v", iv)
		}
		if iv := BootstrapMeanInterval([]float64{0.5, 0.5, 0.5}, 10, 0.95, 1); iv.Lo != 0.5 || iv.Hi != 0.5 ||
			codes(iv.Warnings) != CodeFewResampled+" "+CodePointInterval {
			t.Errorf("three equal values: %+v", iv)
		}
	})
}

func TestResampledMeanIsUniform(t *testing.T) {
	// Each index must be drawn equally often: with x = indicator of index
	// j, the mean of many resampled means is 1/n. Over 20,000 resamples of
	// n = 7 the standard error of that average is √(1/7·6/7/7/20000) ≈
	// 0.00094; allow 5 standard errors.
	const n, reps = 7, 20000
	for j := range n {
		x := make([]float64, n)
		x[j] = 1
		means := resampleAll(reps, 1, func(p *pcg) float64 { return resampledMean(x, p) })
		sum := 0.0
		for _, m := range means {
			sum += m
		}
		if got := sum / reps; !near(got, 1.0/n, 5*0.00094) {
			t.Errorf("index %d drawn at rate %.4f, want %.4f", j, got, 1.0/n)
		}
	}
}

func TestPairedBootstrapDiff(t *testing.T) {
	// The seed's comparison: 31 cases, 2 better (p02, p09), 0 worse. The
	// resampled difference is (B − W)/31 with (B, W) multinomial, so the
	// lower bound is 0 whenever fewer than 2.5% of resamples have B = 0:
	// P(B = 0) = (29/31)^31 ≈ 0.127, so the 2.5% quantile is 0, and the
	// 97.5% quantile is a few flips: 5/31 ≈ 0.161 at most in practice.
	old := make([]float64, 31)
	new := make([]float64, 31)
	for i := range 25 {
		old[i], new[i] = 1, 1
	}
	new[25], new[26] = 1, 1
	lo, hi := PairedBootstrapDiff(old, new, 10000, 0.95, 1)
	if lo != 0 || hi < 3.0/31-1e-12 || hi > 5.0/31+1e-12 {
		t.Errorf("PairedBootstrapDiff = (%v, %v), want 0 and between 3/31 and 5/31", lo, hi)
	}
	iv := PairedBootstrapDiffInterval(old, old, 100, 0.95, 1)
	if iv.Lo != 0 || iv.Hi != 0 || codes(iv.Warnings) != CodePointInterval || !strings.Contains(iv.Warnings[0].Message, "same amount") {
		t.Errorf("identical versions: %+v", iv)
	}
}

func TestClusterProportion(t *testing.T) {
	// Hand computation: x = 1 1 1 | 0 0 0 | 1 0 in clusters a, b, c.
	// n = 8, mean 0.5, every eᵢ = ±0.5, Σe² = 2, s² = 2/7, s²/n = 1/28.
	// Cluster sums of e: 1.5, −1.5, 0; Σ(Σe)² = 4.5; (4.5 − 2)/64 = 0.0390625.
	// se² = 1/28 + 0.0390625 = 0.07477679, se = 0.27345344.
	// Cross-check: statsmodels 0.13.5 OLS(cov_type="cluster",
	// use_correction=False) gives the sandwich part 4.5/64 = 0.0703125;
	// adding Σe²/(n²(n−1)) = 2/448 gives the same 0.07477679.
	x := []float64{1, 1, 1, 0, 0, 0, 1, 0}
	c := []string{"a", "a", "a", "b", "b", "b", "c", "c"}
	mean, se, lo, hi := ClusterProportion(x, c, 0.8)
	// z(0.8) = 1.2815515655446004 (scipy 1.10.1): 0.5 ∓ 0.350444.
	if mean != 0.5 || !near(se, 0.27345344, 1e-8) || !near(lo, 0.5-1.2815515655446004*0.27345344, 1e-7) || !near(hi, 0.5+1.2815515655446004*0.27345344, 1e-7) {
		t.Errorf("ClusterProportion = %v %v (%v, %v), want 0.5 0.27345344 (0.149556, 0.850444)", mean, se, lo, hi)
	}
	_, _, lo95, hi95 := ClusterProportion(x, c, 0.95)
	if lo95 != 0 || hi95 != 1 {
		t.Errorf("95%% interval (%v, %v) should be clipped to [0, 1]", lo95, hi95)
	}

	t.Run("one case per cluster is the ordinary standard error", func(t *testing.T) {
		// s = √(2/7), se = s/√8 = 0.18898224 (hand computation).
		_, se, _, _ := ClusterProportion(x, []string{"1", "2", "3", "4", "5", "6", "7", "8"}, 0.95)
		if !near(se, math.Sqrt(2.0/7/8), 1e-12) {
			t.Errorf("se = %v, want %v", se, math.Sqrt(2.0/7/8))
		}
	})
	t.Run("warnings", func(t *testing.T) {
		e := ClusterProportionEstimate(x, c, 0.95)
		if e.Clusters != 3 || codes(e.Warnings) != CodeFewClusters || !strings.Contains(e.Warnings[0].Message, "only 3 clusters") {
			t.Errorf("estimate %+v", e)
		}
		if e := ClusterProportionEstimate(nil, nil, 0.95); codes(e.Warnings) != CodeNoData {
			t.Errorf("no data: %+v", e)
		}
	})
}

func TestClusterBootstrap(t *testing.T) {
	// 40 clusters of 5 identical outcomes, 28 passing: the cluster
	// bootstrap is the bootstrap of 28 of 40, whose normal half-width is
	// 1.96·√(0.7·0.3/40) = 0.142; the item bootstrap, wrongly treating 200
	// cases as independent, gives 1.96·√(0.21/200) = 0.0635.
	var x []float64
	var c []string
	for i := range 40 {
		v := 0.0
		if i < 28 {
			v = 1
		}
		for range 5 {
			x = append(x, v)
			c = append(c, fmt.Sprint("passage", i))
		}
	}
	lo, hi := ClusterBootstrap(x, c, 20000, 0.95, 2)
	if !near(hi-lo, 2*0.142, 0.03) {
		t.Errorf("cluster bootstrap width %.3f, want about 0.284", hi-lo)
	}
	ilo, ihi := BootstrapMean(x, 20000, 0.95, 2)
	if !near(ihi-ilo, 2*0.0635, 0.015) {
		t.Errorf("item bootstrap width %.3f, want about 0.127", ihi-ilo)
	}
	_, se, nlo, nhi := ClusterProportion(x, c, 0.95)
	if !near(nhi-nlo, hi-lo, 0.03) {
		t.Errorf("cluster-robust normal interval (%v, %v, se %v) and cluster bootstrap (%v, %v) disagree", nlo, nhi, se, lo, hi)
	}
	iv := ClusterBootstrapInterval(x[:15], c[:15], 100, 0.95, 1)
	if codes(iv.Warnings) != CodeFewResampled || !strings.Contains(iv.Warnings[0].Message, "only 3 clusters") {
		t.Errorf("three clusters: %+v", iv)
	}
	a1, b1 := ClusterBootstrap(x, c, 300, 0.95, 8)
	a2, b2 := ClusterBootstrap(x, c, 300, 0.95, 8)
	if a1 != a2 || b1 != b2 {
		t.Errorf("same seed gave (%v, %v) and (%v, %v)", a1, b1, a2, b2)
	}
}

func TestPCGMatchesStdlib(t *testing.T) {
	for _, s := range [][2]uint64{{0, 0}, {1, 2}, {0xdeadbeef, 1 << 63}} {
		want := rand.NewPCG(s[0], s[1])
		got := pcg{hi: s[0], lo: s[1]}
		for i := range 1000 {
			if g, w := got.Uint64(), want.Uint64(); g != w {
				t.Fatalf("seed %v draw %d: %#x, want %#x", s, i, g, w)
			}
		}
	}
}
