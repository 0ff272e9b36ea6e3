package stats

import (
	"fmt"
	"math"
	"testing"
)

// binomTail is P(Binomial(n, x) ≥ k), summed term by term: the integer
// identity I_x(k, n−k+1) = P(Binomial(n, x) ≥ k) lets the tests check the
// incomplete beta without it.
func binomTail(k, n int, x float64) float64 {
	s := 0.0
	for j := k; j <= n; j++ {
		c := 1.0 // C(n, j) built as a product
		for i := 1; i <= j; i++ {
			c = c * float64(n-j+i) / float64(i)
		}
		s += c * math.Pow(x, float64(j)) * math.Pow(1-x, float64(n-j))
	}
	return s
}

func TestBetaCDFIntegerIdentity(t *testing.T) {
	for _, tc := range []struct{ a, b int }{{1, 1}, {1, 5}, {3, 4}, {10, 2}, {18, 3}, {50, 51}} {
		for _, x := range []float64{0.01, 0.2, 0.5, 0.77, 0.99} {
			// I_x(a, b) = P(Binomial(a+b−1, x) ≥ a)
			want := binomTail(tc.a, tc.a+tc.b-1, x)
			if got := BetaCDF(x, float64(tc.a), float64(tc.b)); math.Abs(got-want) > 1e-13 {
				t.Errorf("I_%v(%d, %d) = %.16g, binomial tail %.16g", x, tc.a, tc.b, got, want)
			}
		}
	}
	// Closed forms: I_x(a, 1) = x^a and I_x(1/2, 1/2) = (2/π)·asin(√x).
	for _, x := range []float64{0.001, 0.3, 0.9} {
		if got, want := BetaCDF(x, 2.5, 1), math.Pow(x, 2.5); math.Abs(got-want) > 1e-14 {
			t.Errorf("I_%v(2.5, 1) = %v, want %v", x, got, want)
		}
		if got, want := BetaCDF(x, 0.5, 0.5), 2/math.Pi*math.Asin(math.Sqrt(x)); math.Abs(got-want) > 1e-14 {
			t.Errorf("I_%v(1/2, 1/2) = %v, want %v", x, got, want)
		}
	}
	if BetaCDF(0, 2, 3) != 0 || BetaCDF(1, 2, 3) != 1 {
		t.Error("BetaCDF at the ends is not 0 and 1")
	}
}

func TestBetaQuantileInverts(t *testing.T) {
	for _, tc := range []struct{ a, b float64 }{{0.5, 30.5}, {1, 200}, {18.5, 2.5}, {190, 11}, {1000, 3}, {2, 2}} {
		for _, p := range []float64{1e-6, 0.025, 0.5, 0.975, 1 - 1e-6} {
			x := BetaQuantile(p, tc.a, tc.b)
			if got := BetaCDF(x, tc.a, tc.b); math.Abs(got-p) > 1e-12*math.Max(1, 1/p)*p+1e-14 {
				t.Errorf("I(Q(%v; %v, %v)) = %v", p, tc.a, tc.b, got)
			}
		}
	}
}

// R's binom package, binom.confint(x, n, tol = 1e-8) at 95%, as recorded
// in statsmodels' statsmodels/stats/tests/results/results_proportion.py
// (res_binom; column "exact" is Clopper-Pearson, column "bayes" the
// Jeffreys interval that statsmodels' proportion_confint(method =
// "jeffreys") is tested against). Only the Jeffreys rows statsmodels
// asserts are used: at (1, 30) and (29, 30) R's "bayes" column is not the
// equal-tailed interval.
func TestProportionIntervalAgainstR(t *testing.T) {
	for _, tc := range []struct {
		method string
		k, n   int
		lo, hi float64
	}{
		{MethodClopperPearson, 18, 20, 0.6830172859809176, 0.9876514728297052},
		{MethodClopperPearson, 4, 20, 0.05733399705003284, 0.436614002996668},
		{MethodClopperPearson, 4, 200, 0.005475565879556443, 0.05041360908989634},
		{MethodClopperPearson, 190, 200, 0.9099724622986486, 0.975765834527891},
		{MethodClopperPearson, 1, 30, 8.435709e-04, 0.17216946},
		{MethodClopperPearson, 29, 30, 0.8278305, 0.9991564},
		{MethodClopperPearson, 0, 30, 0, 0.11570331},
		{MethodClopperPearson, 30, 30, 0.8842967, 1},
		{MethodJeffreys, 18, 20, 0.716146742695748, 0.97862751197755},
		{MethodJeffreys, 4, 20, 0.07152005247873425, 0.4082257625169254},
		{MethodJeffreys, 4, 200, 0.00678759879519299, 0.0468465669668423},
		{MethodWilson, 18, 20, 0.6989663547715128, 0.972133518786232},
		{MethodWilson, 4, 200, 0.00780442641634947, 0.05028708690582643},
	} {
		iv := ProportionInterval(tc.method, tc.k, tc.n, 0.95)
		// The R values carry 7 to 16 digits; compare at the digits given.
		tol := 1e-8
		if tc.n == 30 {
			tol = 6e-8
		}
		if math.Abs(iv.Lo-tc.lo) > tol || math.Abs(iv.Hi-tc.hi) > tol {
			t.Errorf("%s %d/%d = [%.12g, %.12g], R [%.12g, %.12g]", tc.method, tc.k, tc.n, iv.Lo, iv.Hi, tc.lo, tc.hi)
		}
		if iv.Method != tc.method || iv.Confidence != 0.95 || iv.Warnings != nil {
			t.Errorf("%s %d/%d: method %q, confidence %v, warnings %v", tc.method, tc.k, tc.n, iv.Method, iv.Confidence, iv.Warnings)
		}
	}
}

func TestProportionIntervalClosedForms(t *testing.T) {
	const alpha = 0.05
	for _, n := range []int{1, 7, 30, 500} {
		// Clopper-Pearson at k = 0: P(X = 0) = (1 − hi)^n = α/2.
		cp := ProportionInterval(MethodClopperPearson, 0, n, 0.95)
		if want := 1 - math.Pow(alpha/2, 1/float64(n)); cp.Lo != 0 || math.Abs(cp.Hi-want) > 1e-14 {
			t.Errorf("CP 0/%d = [%v, %v], want [0, %v]", n, cp.Lo, cp.Hi, want)
		}
		// Beta(1, n+1) at k = 0: I_x(1, n+1) = 1 − (1 − x)^(n+1).
		b := ProportionInterval(MethodBeta, 0, n, 0.95)
		wlo, whi := 1-math.Pow(1-alpha/2, 1/float64(n+1)), 1-math.Pow(alpha/2, 1/float64(n+1))
		if math.Abs(b.Lo-wlo) > 1e-14 || math.Abs(b.Hi-whi) > 1e-14 {
			t.Errorf("beta 0/%d = [%v, %v], want [%v, %v]", n, b.Lo, b.Hi, wlo, whi)
		}
		// Every method is symmetric: k of n mirrors n − k of n.
		for _, m := range ProportionMethods() {
			for _, k := range []int{0, 1, n / 2, n} {
				a, z := ProportionInterval(m, k, n, 0.95), ProportionInterval(m, n-k, n, 0.95)
				if math.Abs(a.Lo-(1-z.Hi)) > 1e-13 || math.Abs(a.Hi-(1-z.Lo)) > 1e-13 {
					t.Errorf("%s %d/%d = [%v, %v] but %d/%d = [%v, %v]", m, k, n, a.Lo, a.Hi, n-k, n, z.Lo, z.Hi)
				}
			}
		}
	}
	// Jeffreys 0 of 1: the upper bound solves I_x(1/2, 3/2) = 0.975, where
	// I_x(1/2, 3/2) = I_x(1/2, 1/2) + x^½(1 − x)^½ / (½·B(½, ½))
	//             = (2/π)(asin √x + √(x(1 − x))).
	j := ProportionInterval(MethodJeffreys, 0, 1, 0.95)
	if got := 2 / math.Pi * (math.Asin(math.Sqrt(j.Hi)) + math.Sqrt(j.Hi*(1-j.Hi))); j.Lo != 0 || math.Abs(got-0.975) > 1e-13 {
		t.Errorf("Jeffreys 0/1 = [%v, %v], closed form at hi %v", j.Lo, j.Hi, got)
	}
}

// The beta interval's bounds with integer shapes are binomial tails:
// I_lo(k+1, n−k+1) = P(Binomial(n+1, lo) ≥ k+1) = α/2, and at hi 1 − α/2.
// Clopper-Pearson's are the two one-sided binomial tests it inverts:
// P(X ≥ k | lo) = α/2 and P(X ≤ k | hi) = α/2.
func TestProportionIntervalBinomialTails(t *testing.T) {
	for _, c := range []struct{ k, n int }{{3, 10}, {7, 10}, {12, 50}, {1, 25}} {
		b := ProportionInterval(MethodBeta, c.k, c.n, 0.9)
		if lo, hi := binomTail(c.k+1, c.n+1, b.Lo), binomTail(c.k+1, c.n+1, b.Hi); math.Abs(lo-0.05) > 1e-12 || math.Abs(hi-0.95) > 1e-12 {
			t.Errorf("beta %d/%d at 90%%: tails %v and %v, want 0.05 and 0.95", c.k, c.n, lo, hi)
		}
		cp := ProportionInterval(MethodClopperPearson, c.k, c.n, 0.9)
		if lo, hi := binomTail(c.k, c.n, cp.Lo), 1-binomTail(c.k+1, c.n, cp.Hi); math.Abs(lo-0.05) > 1e-12 || math.Abs(hi-0.05) > 1e-12 {
			t.Errorf("CP %d/%d at 90%%: P(X ≥ k | lo) = %v, P(X ≤ k | hi) = %v, want 0.05", c.k, c.n, lo, hi)
		}
	}
}

func TestProportionIntervalNoCases(t *testing.T) {
	for _, m := range ProportionMethods() {
		iv := ProportionInterval(m, 0, 0, 0.95)
		if iv.Lo != 0 || iv.Hi != 1 || len(iv.Warnings) != 1 || iv.Warnings[0].Code != CodeNoData || iv.Method != m {
			t.Errorf("%s of no cases = %+v", m, iv)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("an unknown method did not panic")
		}
	}()
	ProportionInterval("wald", 1, 2, 0.95)
}

// Coverage at n = 10 by hand. Wilson's interval at 95% for k of 10:
// k = 0 → [0, 0.2775], 1 → [0.0179, 0.4042], 2 → [0.0567, 0.5098], ...
// At p = 0.3 every k from 1 to 6 has lo ≤ 0.3 ≤ hi (6 of 10 gives
// [0.3127, 0.8318], which misses, and 0 of 10 gives hi = 0.2775, which
// misses), so the coverage is P(1 ≤ X ≤ 5) for X ~ Binomial(10, 0.3):
// 1 − 0.7¹⁰ − P(X ≥ 6) = 1 − 0.0282475249 − 0.0473489874 = 0.9244034877.
func TestCoverageByHand(t *testing.T) {
	for k, want := range map[int][2]float64{0: {0, 0.2775}, 5: {0.2366, 0.7634}, 6: {0.3127, 0.8318}} {
		iv := ProportionInterval(MethodWilson, k, 10, 0.95)
		if math.Abs(iv.Lo-want[0]) > 5e-5 || math.Abs(iv.Hi-want[1]) > 5e-5 {
			t.Errorf("Wilson %d/10 = [%.4f, %.4f], want %v", k, iv.Lo, iv.Hi, want)
		}
	}
	want := 1 - math.Pow(0.7, 10) - binomTail(6, 10, 0.3)
	if got, _ := Coverage(MethodWilson, 10, 0.3, 0.95); math.Abs(got-want) > 1e-12 || math.Abs(want-0.9244034877) > 1e-9 {
		t.Errorf("Wilson coverage at n = 10, p = 0.3 = %.10f, by hand %.10f", got, want)
	}
	// Clopper-Pearson 0 of 10 is [0, 0.3085] and 1 of 10 [0.0025, 0.4450]
	// (lo solves 1 − (1 − lo)¹⁰ = 0.025): at p = 0.001 only k = 0 covers,
	// so the coverage is P(X = 0) = 0.999¹⁰ = 0.990044880...
	if lo1 := ProportionInterval(MethodClopperPearson, 1, 10, 0.95).Lo; math.Abs(lo1-(1-math.Pow(0.975, 0.1))) > 1e-14 {
		t.Errorf("CP 1/10 lo = %v", lo1)
	}
	cp := math.Pow(0.999, 10)
	if got, _ := Coverage(MethodClopperPearson, 10, 0.001, 0.95); math.Abs(got-cp) > 1e-12 {
		t.Errorf("CP coverage at n = 10, p = 0.001 = %v, want %v", got, cp)
	}
	// The beta interval never contains 0: at p = 0 it covers nothing,
	// while Clopper-Pearson (lo = 0 at k = 0) always covers.
	if b, _ := Coverage(MethodBeta, 10, 0, 0.95); b != 0 {
		t.Errorf("beta coverage at p = 0 = %v, want 0", b)
	}
	if c, w := Coverage(MethodClopperPearson, 10, 0, 0.95); c != 1 || math.Abs(w-(1-math.Pow(0.025, 0.1))) > 1e-14 {
		t.Errorf("CP coverage at p = 0 = %v, width %v", c, w)
	}
}

func ExampleProportionInterval() {
	for _, m := range ProportionMethods() {
		iv := ProportionInterval(m, 18, 20, 0.95)
		fmt.Printf("%-15s [%.4f, %.4f]\n", m, iv.Lo, iv.Hi)
	}
	// Output:
	// wilson          [0.6990, 0.9721]
	// clopper-pearson [0.6830, 0.9877]
	// jeffreys        [0.7161, 0.9786]
	// beta            [0.6962, 0.9695]
}

// Every bound of the Beta-quantile methods solves its defining equation,
// from n = 1 to n = 10⁶ and at levels up to 1 − 10⁻⁶: I_lo(a, b) = α/2 to
// a relative 1e-9, and at the upper bound the mirrored I_{1−hi}(b, a) =
// α/2 to 1e-9 plus the float spacing at 1 − hi (a bound within 1e-12 of
// 1 is only known to the 2.2e-16 steps of the floats near 1).
func TestProportionIntervalSweep(t *testing.T) {
	for _, n := range []int{1, 2, 5, 10, 50, 333, 1000, 10000, 100000, 1000000} {
		for _, k := range []int{0, 1, 2, n / 3, n / 2, n - 2, n - 1, n} {
			if k < 0 || k > n {
				continue
			}
			for _, c := range []float64{0.5, 0.9, 0.95, 0.999999} {
				a := (1 - c) / 2
				kf, ff := float64(k), float64(n-k)
				for _, m := range []string{MethodClopperPearson, MethodJeffreys, MethodBeta} {
					iv := ProportionInterval(m, k, n, c)
					if !(iv.Lo >= 0 && iv.Lo <= iv.Hi && iv.Hi <= 1) {
						t.Fatalf("%s %d/%d at %v: [%v, %v]", m, k, n, c, iv.Lo, iv.Hi)
					}
					alo, blo, ahi, bhi := kf+1, ff+1, kf+1, ff+1 // beta
					switch m {
					case MethodClopperPearson:
						alo, blo, ahi, bhi = kf, ff+1, kf+1, ff
					case MethodJeffreys:
						alo, blo, ahi, bhi = kf+0.5, ff+0.5, kf+0.5, ff+0.5
					}
					if iv.Lo > 0 {
						if e := math.Abs(BetaCDF(iv.Lo, alo, blo)-a) / a; e > 1e-9 {
							t.Errorf("%s %d/%d at %v: lower tail off by %g", m, k, n, c, e)
						}
					}
					if iv.Hi < 1 {
						if e := math.Abs(BetaCDF(1-iv.Hi, bhi, ahi)-a) / a; e > 1e-9+1e-15/(1-iv.Hi) {
							t.Errorf("%s %d/%d at %v: upper tail off by %g (hi %v)", m, k, n, c, e, iv.Hi)
						}
					}
				}
			}
		}
	}
}

// Reference values from mpmath 1.3.0 at 40 digits,
// mpmath.betainc(a, b, 0, x, regularized=True), rounded to 20 digits.
// Large shapes are where computing B(a, b) from lgamma would lose digits
// (at a = 500, b = 501 that gave a relative error of 2.6e-13).
func TestBetaCDFAgainstMpmath(t *testing.T) {
	for _, c := range []struct{ x, a, b, want float64 }{
		{0.5, 500, 501, 0.51261250908918040095},
		{0.49, 500, 501, 0.27390144426949583628},
		{0.45, 1000, 1200, 0.33466234267154131582},
		{0.46, 1000, 1200, 0.69662619594404040614},
		{0.3, 3, 8, 0.61721721359999997038},
		{0.001, 0.5, 1000.5, 0.84285647663448116073},
		{0.02, 4.5, 300.5, 0.79839679600771866022},
		{0.7, 12.5, 5.5, 0.49349485015256740982},
		{0.05, 10.5, 190.5, 0.48035701863145241979},
		{0.97, 190.5, 10.5, 0.94248328131517480356},
		{0.9, 90, 11, 0.58315551226649209598},
	} {
		if got := BetaCDF(c.x, c.a, c.b); math.Abs(got-c.want) > 3e-14*c.want {
			t.Errorf("I_%v(%v, %v) = %.17g, mpmath %.17g (relative error %.2g)", c.x, c.a, c.b, got, c.want, math.Abs(got-c.want)/c.want)
		}
	}
}
