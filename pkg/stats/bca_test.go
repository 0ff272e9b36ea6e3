package stats

import (
	"fmt"
	"math"
	"testing"
)

func bcaMean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// R's boot package on 16 values, as scipy's test_resampling.py
// (test_bootstrap_against_R) records it: boot(x, bcaMean, 1e6) then
// boot.ci gives BCa (32.31, 91.43) and percentile (28.86, 84.21) at 95%.
// scipy.stats.bootstrap(method = "BCa") is tested against these with a
// relative tolerance of 0.005 at 10⁶ resamples, and so is this test.
// The Monte Carlo spread is well inside it: seeds 1 to 4 give upper
// bounds 91.38, 91.28, 91.22, 91.47 and lower bounds 32.21 to 32.25
// (the BCa upper bound sits near the 99th percentile of the resampled
// bcaMean, where the draws are sparse; R's boot.ci also interpolates on the
// normal scale, which moves it by a few hundredths).
func TestBootstrapBCaAgainstR(t *testing.T) {
	x := []float64{10, 12, 12.5, 12.5, 13.9, 15, 21, 22, 23, 34, 50, 81, 89, 121, 134, 213}
	bca := BootstrapBCa(x, bcaMean, 1000000, 0.95, 1)
	if math.Abs(bca.Lo-32.31) > 0.005*32.31 || math.Abs(bca.Hi-91.43) > 0.005*91.43 {
		t.Errorf("BCa = [%.2f, %.2f], R (32.31, 91.43)", bca.Lo, bca.Hi)
	}
	if bca.Method != "bca" || bca.Warnings != nil {
		t.Errorf("method %q, warnings %v", bca.Method, bca.Warnings)
	}
	pct := BootstrapMeanInterval(x, 1000000, 0.95, 1)
	if math.Abs(pct.Lo-28.86) > 0.005*28.86 || math.Abs(pct.Hi-84.21) > 0.005*84.21 {
		t.Errorf("percentile = [%.2f, %.2f], R (28.86, 84.21)", pct.Lo, pct.Hi)
	}
	// The same seed gives the same interval.
	a, b := BootstrapBCa(x, bcaMean, 5000, 0.95, 9), BootstrapBCa(x, bcaMean, 5000, 0.95, 9)
	if a.Lo != b.Lo || a.Hi != b.Hi {
		t.Errorf("seed 9 gave [%v, %v] then [%v, %v]", a.Lo, a.Hi, b.Lo, b.Hi)
	}
}

// The acceleration by hand: for the bcaMean, θ₍ᵢ₎ = (S − xᵢ)/(n − 1), so
// θ̄ − θ₍ᵢ₎ = (xᵢ − x̄)/(n − 1) and a = Σ(xᵢ − x̄)³ / (6 (Σ(xᵢ − x̄)²)^{3/2}).
// For 1, 2, 3, 10: x̄ = 4, deviations −3, −2, −1, 6, Σd³ = −27 − 8 − 1 +
// 216 = 180, Σd² = 9 + 4 + 1 + 36 = 50, a = 180 / (6 · 50^{1.5}) = 0.0848528.
func TestJackknifeAccelerationByHand(t *testing.T) {
	got := jackknifeAcceleration([]float64{1, 2, 3, 10}, bcaMean)
	if want := 180 / (6 * math.Pow(50, 1.5)); math.Abs(got-want) > 1e-15 {
		t.Errorf("a = %v, want %v", got, want)
	}
	if a := jackknifeAcceleration([]float64{1, 2, 3}, bcaMean); a != 0 {
		t.Errorf("symmetric data: a = %v, want 0", a)
	}
}

func TestBootstrapBCaWarnings(t *testing.T) {
	same := BootstrapBCa([]float64{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}, bcaMean, 500, 0.95, 1)
	codes := map[string]bool{}
	for _, w := range same.Warnings {
		codes[w.Code] = true
	}
	// Every resample ties with the estimate: half count below, z₀ = 0, and
	// the interval is the point (before issue 28 ties counted as not
	// below, z₀ was −∞ and the percentile fallback was reported).
	if same.Lo != 3 || same.Hi != 3 || codes[CodeBCaFallback] || !codes[CodePointInterval] {
		t.Errorf("equal values: %+v", same)
	}
	few := BootstrapBCa([]float64{1, 2, 4}, bcaMean, 500, 0.95, 1)
	if len(few.Warnings) == 0 || few.Warnings[0].Code != CodeFewResampled {
		t.Errorf("three values: %+v", few.Warnings)
	}
	none := BootstrapBCa(nil, bcaMean, 500, 0.95, 1)
	if len(none.Warnings) != 1 || none.Warnings[0].Code != CodeNoData {
		t.Errorf("no values: %+v", none)
	}
}

// BootstrapBCaMean on the same data: the mean's fast path (15 distinct
// values, so exact multinomial counts) against R's boot.ci, with the
// tolerance of TestBootstrapBCaAgainstR.
func TestBootstrapBCaMeanAgainstR(t *testing.T) {
	x := []float64{10, 12, 12.5, 12.5, 13.9, 15, 21, 22, 23, 34, 50, 81, 89, 121, 134, 213}
	iv := BootstrapBCaMean(x, 1000000, 0.95, 1)
	if math.Abs(iv.Lo-32.31) > 0.005*32.31 || math.Abs(iv.Hi-91.43) > 0.005*91.43 || iv.Method != "bca" {
		t.Errorf("BCa of the mean = [%.2f, %.2f] (%s), R (32.31, 91.43)", iv.Lo, iv.Hi, iv.Method)
	}
}

// The closed-form acceleration of BootstrapBCaMean is the jackknife's,
// and with more than 32 distinct values (index resampling) the interval
// agrees with the generic BootstrapBCa within Monte Carlo error.
func TestBootstrapBCaMeanMatchesGeneric(t *testing.T) {
	x := make([]float64, 60)
	for i := range x {
		x[i] = math.Exp(float64(i%17)/4) + float64(i)/7 // skewed, 60 distinct values
	}
	m := bcaMean(x)
	var s2, s3 float64
	for _, v := range x {
		s2 += (v - m) * (v - m)
		s3 += (v - m) * (v - m) * (v - m)
	}
	if a := jackknifeAcceleration(x, bcaMean); math.Abs(a-s3/(6*math.Pow(s2, 1.5))) > 1e-14 {
		t.Errorf("jackknife a = %v, closed form %v", a, s3/(6*math.Pow(s2, 1.5)))
	}
	fast, slow := BootstrapBCaMean(x, 40000, 0.9, 3), BootstrapBCa(x, bcaMean, 40000, 0.9, 4)
	// The resampled mean has sd about 2.0 here; at 40,000 resamples the
	// bounds move by about 0.04 from seed to seed (seeds 1 to 4 gave upper
	// bounds 20.50 to 20.63), so the difference of two has sd about 0.06
	// and 0.25 is four of them.
	if math.Abs(fast.Lo-slow.Lo) > 0.25 || math.Abs(fast.Hi-slow.Hi) > 0.25 {
		t.Errorf("BootstrapBCaMean [%v, %v], BootstrapBCa [%v, %v]", fast.Lo, fast.Hi, slow.Lo, slow.Hi)
	}
}

func ExampleBootstrapBCa() {
	x := []float64{10, 12, 12.5, 12.5, 13.9, 15, 21, 22, 23, 34, 50, 81, 89, 121, 134, 213}
	iv := BootstrapBCa(x, bcaMean, 100000, 0.95, 1)
	fmt.Printf("%s [%.0f, %.0f]\n", iv.Method, iv.Lo, iv.Hi)
	// Output: bca [32, 91]
}

// The pass-rate form is the mean's on the 0/1 outcomes: with the
// outcomes listed successes first, BootstrapBCaMean's multinomial draw is
// the same Binomial(n, p̂) stream, so the intervals are identical; and
// its acceleration is the jackknife's, (1 − 2p̂)/(6√(np̂(1 − p̂))): for 15
// of 20, −0.5/(6·√3.75) = −0.0430331.
func TestBootstrapBCaProportion(t *testing.T) {
	x := make([]float64, 20)
	for i := range 15 {
		x[i] = 1
	}
	p, m := BootstrapBCaProportion(15, 20, 5000, 0.95, 11), BootstrapBCaMean(x, 5000, 0.95, 11)
	if p.Lo != m.Lo || p.Hi != m.Hi || p.Method != "bca" {
		t.Errorf("proportion [%v, %v] (%s), mean of outcomes [%v, %v]", p.Lo, p.Hi, p.Method, m.Lo, m.Hi)
	}
	if a, want := jackknifeAcceleration(x, bcaMean), -0.5/(6*math.Sqrt(3.75)); math.Abs(a-want) > 1e-14 {
		t.Errorf("a = %v, want %v", a, want)
	}
	// The BCa interval is shifted from the percentile one towards 1/2
	// here (a < 0 and p̂ > 1/2): its lower bound sits below.
	if pct := BootstrapProportionInterval(15, 20, 5000, 0.95, 11); !(p.Lo < pct.Lo) {
		t.Errorf("BCa [%v, %v], percentile [%v, %v]", p.Lo, p.Hi, pct.Lo, pct.Hi)
	}
	all := BootstrapBCaProportion(20, 20, 1000, 0.95, 1)
	codes := map[string]bool{}
	for _, w := range all.Warnings {
		codes[w.Code] = true
	}
	if all.Lo != 1 || all.Hi != 1 || codes[CodeBCaFallback] || !codes[CodePointInterval] {
		t.Errorf("20 of 20: %+v", all)
	}
	if none := BootstrapBCaProportion(0, 0, 10, 0.95, 1); none.Lo != 0 || none.Hi != 1 || none.Warnings[0].Code != CodeNoData {
		t.Errorf("no cases: %+v", none)
	}
}

// With rows (xᵢ, 1) and final = S₀/S₁ the corpus statistic is the mean:
// BootstrapStatisticBCa then draws the same indices as BootstrapBCa (one
// PCG stream per resample, derived from the seed) and its leave-one-out
// totals give the same jackknife, so the intervals agree to rounding.
func TestBootstrapStatisticBCaIsBCaOfTheMean(t *testing.T) {
	x := []float64{10, 12, 12.5, 12.5, 13.9, 15, 21, 22, 23, 34, 50, 81, 89, 121, 134, 213}
	rows := make([]float64, 0, 2*len(x))
	for _, v := range x {
		rows = append(rows, v, 1)
	}
	ratio := func(s []float64) float64 { return s[0] / s[1] }
	corpus, generic := BootstrapStatisticBCa(rows, 2, ratio, 20000, 0.95, 3), BootstrapBCa(x, bcaMean, 20000, 0.95, 3)
	if math.Abs(corpus.Lo-generic.Lo) > 1e-9 || math.Abs(corpus.Hi-generic.Hi) > 1e-9 || corpus.Method != "bca" {
		t.Errorf("corpus [%v, %v] (%s), generic [%v, %v]", corpus.Lo, corpus.Hi, corpus.Method, generic.Lo, generic.Hi)
	}
	if none := BootstrapStatisticBCa(nil, 2, ratio, 10, 0.95, 1); len(none.Warnings) != 1 || none.Warnings[0].Code != CodeNoData {
		t.Errorf("no rows: %+v", none)
	}
}
