package stats

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestWilson(t *testing.T) {
	// Newcombe (1998), "Two-sided confidence intervals for the single
	// proportion: comparison of seven methods", Statistics in Medicine 17,
	// Table II, method 3 (score interval), printed to 4 decimals; the same
	// figures come out of statsmodels 0.13.5 proportion_confint(method =
	// "wilson"). The 99% rows are statsmodels 0.13.5 only.
	tests := []struct {
		name       string
		k, n       int
		confidence float64
		lo, hi     float64
		tol        float64
	}{
		{"newcombe 81/263", 81, 263, 0.95, 0.2553, 0.3662, 5e-5},
		{"newcombe 15/148", 15, 148, 0.95, 0.0624, 0.1605, 5e-5},
		{"newcombe 0/20", 0, 20, 0.95, 0, 0.1611, 5e-5},
		{"newcombe 1/29", 1, 29, 0.95, 0.0061, 0.1718, 5e-5},
		{"statsmodels 81/263 at 99%", 81, 263, 0.99, 0.24013690268760773, 0.38528250231822986, 1e-12},
		{"statsmodels 29/29", 29, 29, 0.95, 0.8830302015002592, 1, 1e-12},
		{"statsmodels 7/8 (the seed's 7 of 8)", 7, 8, 0.95, 0.5291118177871466, 0.9775825085499434, 1e-12},
		{"statsmodels 6/8", 6, 8, 0.95, 0.40927543031016883, 0.9285207872478909, 1e-12},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lo, hi := Wilson(tc.k, tc.n, tc.confidence)
			if !near(lo, tc.lo, tc.tol) || !near(hi, tc.hi, tc.tol) {
				t.Errorf("Wilson(%d, %d, %v) = (%.6f, %.6f), want (%.6f, %.6f) ± %g", tc.k, tc.n, tc.confidence, lo, hi, tc.lo, tc.hi, tc.tol)
			}
		})
	}
}

func TestWilsonNoCases(t *testing.T) {
	iv := WilsonInterval(0, 0, 0.95)
	if iv.Lo != 0 || iv.Hi != 1 || codes(iv.Warnings) != CodeNoData || !strings.Contains(iv.Warnings[0].Message, "no cases") {
		t.Errorf("WilsonInterval(0, 0) = %+v, want [0, 1] with a no-cases warning", iv)
	}
	if iv := WilsonInterval(3, 10, 0.95); iv.Warnings != nil {
		t.Errorf("WilsonInterval(3, 10) warns %q", iv.Warnings)
	}
}

// A Wilson interval always contains p̂ and stays inside [0, 1]; a higher
// confidence never gives a narrower interval.
func TestWilsonProperties(t *testing.T) {
	for n := 1; n <= 60; n++ {
		for k := 0; k <= n; k++ {
			p := float64(k) / float64(n)
			lo, hi := Wilson(k, n, 0.95)
			if !(0 <= lo && lo <= p && p <= hi && hi <= 1) {
				t.Fatalf("Wilson(%d, %d) = (%v, %v) does not contain %v inside [0, 1]", k, n, lo, hi, p)
			}
			lo99, hi99 := Wilson(k, n, 0.99)
			if lo99 > lo+1e-15 || hi99 < hi-1e-15 {
				t.Fatalf("Wilson(%d, %d) at 99%% (%v, %v) is inside the 95%% one (%v, %v)", k, n, lo99, hi99, lo, hi)
			}
		}
	}
}

func TestNormalQuantile(t *testing.T) {
	// scipy 1.10.1 norm.ppf(0.975), norm.ppf(0.8), norm.ppf(0.9).
	for _, tc := range []struct{ p, z float64 }{
		{0.975, 1.959963984540054}, {0.8, 0.8416212335729143}, {0.9, 1.2815515655446004}, {0.5, 0},
	} {
		t.Run(fmt.Sprint(tc.p), func(t *testing.T) {
			if z := NormalQuantile(tc.p); !near(z, tc.z, 1e-12) {
				t.Errorf("NormalQuantile(%v) = %v, want %v", tc.p, z, tc.z)
			}
			if p := NormalCDF(tc.z); !near(p, tc.p, 1e-12) {
				t.Errorf("NormalCDF(%v) = %v, want %v", tc.z, p, tc.p)
			}
		})
	}
}

func TestPercentile(t *testing.T) {
	// Hand computation, type 7: for 1..5 at q = 0.1, h = 4·0.1 = 0.4, so
	// 1 + 0.4·(2 − 1) = 1.4; q = 0.5 is the median 3; q = 1 is the maximum.
	x := []float64{1, 2, 3, 4, 5}
	for _, tc := range []struct{ q, want float64 }{{0, 1}, {0.1, 1.4}, {0.5, 3}, {0.975, 4.9}, {1, 5}} {
		if got := Percentile(x, tc.q); !near(got, tc.want, 1e-12) {
			t.Errorf("Percentile(1..5, %v) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

func TestPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"confidence 1":        func() { Wilson(1, 2, 1) },
		"confidence 0":        func() { BootstrapProportion(1, 2, 10, 0, 1) },
		"successes above n":   func() { Wilson(3, 2, 0.95) },
		"no resamples":        func() { BootstrapMean([]float64{1}, 0, 0.95, 1) },
		"unequal pairs":       func() { PairedBootstrapDiff([]float64{1}, []float64{1, 0}, 10, 0.95, 1) },
		"unequal clusters":    func() { ClusterProportion([]float64{1}, nil, 0.95) },
		"NaN":                 func() { BootstrapMean([]float64{math.NaN(), 1}, 10, 0.95, 1) },
		"negative sign count": func() { SignTest(-1, 2) },
		"equal rates":         func() { SampleSizeUnpaired(0.5, 0.5, 0.05, 0.8) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil {
					t.Fatal("no panic")
				}
				if s, ok := r.(string); !ok || !strings.HasPrefix(s, "stats: ") {
					t.Errorf("panic %v lacks the stats: prefix", r)
				}
			}()
			f()
		})
	}
}
