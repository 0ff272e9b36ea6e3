package stats

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

func TestPaired(t *testing.T) {
	old := []float64{1, 0, 1, 1, 0, 0.5}
	new := []float64{1, 1, 0, 1, 1, 0.5}
	r := Paired(old, new)
	if r.N != 6 || !slices.Equal(r.Better, []int{1, 4}) || !slices.Equal(r.Worse, []int{2}) || r.Unchanged != 3 {
		t.Errorf("Paired = %+v", r)
	}
	// Hand computation: old sum 3.5, new sum 4.5, over 6.
	if !near(r.OldMean, 3.5/6, 1e-15) || !near(r.NewMean, 4.5/6, 1e-15) {
		t.Errorf("means %v %v, want %v %v", r.OldMean, r.NewMean, 3.5/6, 4.5/6)
	}
	if r := Paired(nil, nil); r.N != 0 || r.OldMean != 0 || r.Unchanged != 0 {
		t.Errorf("Paired(nil, nil) = %+v", r)
	}
}

func TestSignTest(t *testing.T) {
	tests := []struct {
		name          string
		better, worse int
		want, tol     float64
	}{
		// The seed's comparison (SPEC.md section 3): 2 better, 0 worse, p = 0.5.
		{"seed 2 versus 0", 2, 0, 0.5, 1e-15},
		{"mirror 0 versus 2", 0, 2, 0.5, 1e-15},
		{"no flips", 0, 0, 1, 0},
		{"balanced", 5, 5, 1, 0},
		{"one flip", 1, 0, 1, 0},
		// Hand computation: 2·(1 + 13 + 78 + 286)/2¹³ = 756/8192.
		{"10 versus 3", 10, 3, 756.0 / 8192, 1e-15},
		// scipy 1.10.1 binomtest(k, n, 0.5).pvalue.
		{"scipy 12 versus 30", 12, 30, 0.007915897334896727, 1e-12},
		{"scipy 150 versus 86", 150, 86, 3.715936139571387e-05, 1e-15},
		{"scipy 3000 versus 3100", 3000, 3100, 0.20494954465156054, 1e-10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SignTest(tc.better, tc.worse); !near(got, tc.want, tc.tol) {
				t.Errorf("SignTest(%d, %d) = %v, want %v", tc.better, tc.worse, got, tc.want)
			}
		})
	}
}

func TestMcNemar(t *testing.T) {
	// Agresti, Categorical Data Analysis (2nd ed. 2002), Table 10.1:
	// approval of the President's performance in two surveys of 1600
	// people; 150 approve then disapprove, 86 disapprove then approve.
	// Agresti gives z² = (86 − 150)²/(86 + 150) = 17.36 without correction.
	// Statistics and p-values from statsmodels 0.13.5
	// mcnemar([[794, 150], [86, 570]], exact=...).
	tests := []struct {
		name       string
		correction bool
		chi2, p    float64
	}{
		{"agresti without correction", false, 17.35593220338983, 3.099293441045215e-05},
		{"agresti with continuity correction", true, 16.81779661016949, 4.114562281345944e-05},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			chi2, p := McNemarChiSquare(86, 150, tc.correction)
			if !near(chi2, tc.chi2, 1e-12) || !near(p, tc.p, 1e-14) {
				t.Errorf("McNemarChiSquare = (%v, %v), want (%v, %v)", chi2, p, tc.chi2, tc.p)
			}
		})
	}
	if p := McNemar(86, 150); !near(p, 4.114562281345944e-05, 1e-14) {
		t.Errorf("McNemar(86, 150) = %v", p)
	}
	// statsmodels 0.13.5 mcnemar(exact=True) on the same table: 3.715936139571387e-05.
	if p := McNemarExact(86, 150); !near(p, 3.715936139571387e-05, 1e-15) {
		t.Errorf("McNemarExact(86, 150) = %v", p)
	}
	// Hand computation for the seed's 2 versus 0: (|2 − 0| − 1)²/2 = 0.5,
	// p = erfc(√0.25) = erfc(0.5) = 0.4795001221869535.
	if p := McNemar(2, 0); !near(p, 0.4795001221869535, 1e-15) {
		t.Errorf("McNemar(2, 0) = %v", p)
	}
	if p := McNemar(0, 0); p != 1 {
		t.Errorf("McNemar(0, 0) = %v, want 1", p)
	}
	if _, p := McNemarChiSquare(3, 4, true); !near(p, 1, 0) {
		// |3 − 4| − 1 = 0: no evidence at all.
		t.Errorf("McNemar(3, 4) = %v, want 1", p)
	}
	// Hand computation: 10 better, 3 worse: χ² = (|10 − 3| − 1)²/13 =
	// 36/13, p = erfc(√(18/13)). R's mcnemar.test and statsmodels agree
	// here (b ≠ w).
	if chi2, p := McNemarChiSquare(10, 3, true); !near(chi2, 36.0/13, 1e-15) || !near(p, math.Erfc(math.Sqrt(18.0/13)), 1e-15) || !near(p, 0.0960923294556733, 1e-15) {
		t.Errorf("McNemarChiSquare(10, 3, true) = (%v, %v), want (36/13, 0.0960923294556733)", chi2, p)
	}
}

// TestMcNemarBalanced pins the rule at better = worse: the continuity
// correction is not applied (R's mcnemar.test applies it only when the
// discordant cells differ), so χ² = 0 and p = 1 with or without it.
// statsmodels' mcnemar(exact=False, correction=True) computes
// (|1 − 1| − 1)²/2 = 0.5 at (1, 1) and p = erfc(√0.25) = 0.4795: it
// would call perfectly balanced changes as surprising as 2 against 0.
// The exact sign test (SignTest(1, 1) = 1) sides with p = 1.
func TestMcNemarBalanced(t *testing.T) {
	for _, n := range []int{1, 5, 40} {
		for _, corr := range []bool{true, false} {
			if chi2, p := McNemarChiSquare(n, n, corr); chi2 != 0 || p != 1 {
				t.Errorf("McNemarChiSquare(%d, %d, %v) = (%v, %v), want (0, 1)", n, n, corr, chi2, p)
			}
		}
		if p, exact := McNemar(n, n), SignTest(n, n); p != 1 || exact != 1 {
			t.Errorf("McNemar(%d, %d) = %v, SignTest = %v, want 1 and 1", n, n, p, exact)
		}
	}
	// What statsmodels gives at (1, 1), for the record: the same p as (2, 0).
	if sm := math.Erfc(math.Sqrt(0.5 / 2)); !near(sm, McNemar(2, 0), 1e-15) || !near(sm, 0.4795001221869535, 1e-15) {
		t.Errorf("erfc(√0.25) = %v", sm)
	}
}

func TestPower(t *testing.T) {
	// R's documentation of power.prop.test gives, in its examples,
	//   power.prop.test(n = 50, p1 = .50, p2 = .75)      ## => power = 0.740
	//   power.prop.test(p1 = .50, p2 = .75, power = .90) ## =>     n = 76.7
	if got := PowerUnpaired(50, 0.5, 0.75, 0.05); !near(got, 0.740, 0.0005) {
		t.Errorf("PowerUnpaired(50, 0.5, 0.75) = %v, want 0.740", got)
	}
	if got := SampleSizeUnpaired(0.5, 0.75, 0.05, 0.9); got != 77 {
		t.Errorf("SampleSizeUnpaired(0.5, 0.75, 0.9) = %d, want 77 (76.7 rounded up)", got)
	}
	// Hand computation (Connor 1987): pBetter 0.10, pWorse 0.05, ψ = 0.15,
	// δ = 0.05; z₀.₉₇₅·√ψ = 1.959964·0.387298 = 0.759091 and
	// z₀.₈·√(ψ − δ²) = 0.841621·0.384057 = 0.323231; (1.082322)²/0.0025 =
	// 468.57, so 469 pairs.
	if got := SampleSizePaired(0.10, 0.05, 0.05, 0.8); got != 469 {
		t.Errorf("SampleSizePaired(0.10, 0.05) = %d, want 469", got)
	}
	// Power at the rounded-up size is just over the target: 0.80036 (same
	// formula evaluated with scipy 1.10.1).
	if got := PowerPaired(469, 0.10, 0.05, 0.05); !near(got, 0.800363432288833, 1e-9) {
		t.Errorf("PowerPaired(469) = %v", got)
	}
	// The paired design needs fewer cases than the unpaired one for the
	// same gain (0.70 → 0.75 with 10% better, 5% worse).
	if p, u := SampleSizePaired(0.10, 0.05, 0.05, 0.8), SampleSizeUnpaired(0.70, 0.75, 0.05, 0.8); p >= u {
		t.Errorf("paired %d not below unpaired %d", p, u)
	}
	for n := 10; n < 2000; n += 97 {
		if PowerPaired(n, 0.1, 0.05, 0.05) > PowerPaired(n+97, 0.1, 0.05, 0.05) {
			t.Fatalf("power falls between n = %d and %d", n, n+97)
		}
	}
}

func ExampleWilson() {
	// 7 of 8 questions pass: how sure are we?
	lo, hi := Wilson(7, 8, 0.95)
	fmt.Printf("%.3f to %.3f\n", lo, hi)
	// Output: 0.529 to 0.978
}

func ExampleBootstrapProportion() {
	// The seed's judge calibration: 19 of 30 agreements.
	lo, hi := BootstrapProportion(19, 30, 10000, 0.95, 1)
	fmt.Printf("%.3f to %.3f\n", lo, hi)
	// Output: 0.467 to 0.800
}

func ExampleBootstrapMean() {
	f1 := []float64{1, 0.5, 0.8, 0, 1, 0.67, 0.4, 1, 0.9, 0.25, 1, 0.75}
	lo, hi := BootstrapMean(f1, 10000, 0.95, 1)
	fmt.Printf("%.2f to %.2f\n", lo, hi)
	// Output: 0.50 to 0.86
}

func ExampleClusterProportion() {
	// Three questions on each of two passages and two on a third: the
	// questions of a passage pass or fail together.
	x := []float64{1, 1, 1, 0, 0, 0, 1, 0}
	passage := []string{"a", "a", "a", "b", "b", "b", "c", "c"}
	mean, se, _, _ := ClusterProportion(x, passage, 0.95)
	fmt.Printf("mean %.2f, clustered se %.3f (naive %.3f)\n", mean, se, 0.189)
	// Output: mean 0.50, clustered se 0.273 (naive 0.189)
}

func ExampleClusterBootstrap() {
	x := []float64{1, 1, 1, 0, 0, 0, 1, 0, 1, 1, 0, 1}
	passage := []string{"a", "a", "a", "b", "b", "b", "c", "c", "d", "d", "e", "e"}
	lo, hi := ClusterBootstrap(x, passage, 10000, 0.95, 1)
	fmt.Printf("%.2f to %.2f\n", lo, hi)
	// Output: 0.23 to 0.92
}

func ExamplePaired() {
	old := []float64{1, 0, 1, 1, 0, 1}
	new := []float64{1, 1, 1, 1, 1, 1}
	r := Paired(old, new)
	fmt.Println("better", r.Better, "worse", r.Worse, "unchanged", r.Unchanged)
	// Output: better [1 4] worse [] unchanged 4
}

func ExampleSignTest() {
	// Two cases got better and none worse: that happens by chance half the time.
	fmt.Println(SignTest(2, 0))
	// Output: 0.5
}

func ExampleMcNemar() {
	fmt.Printf("%.4f %.4f\n", McNemar(2, 0), McNemarExact(2, 0))
	// Output: 0.4795 0.5000
}

func ExamplePairedBootstrapDiff() {
	old := []float64{1, 1, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1}
	new := []float64{1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1}
	lo, hi := PairedBootstrapDiff(old, new, 10000, 0.95, 1)
	fmt.Printf("%.3f to %.3f\n", lo, hi)
	// Output: -0.167 to 0.500
}

func ExampleSampleSizePaired() {
	// A change that fixes 10% of cases and breaks 5%: how many cases to
	// see it with 80% power at the 5% level?
	fmt.Println(SampleSizePaired(0.10, 0.05, 0.05, 0.8))
	// Output: 469
}

func ExampleSampleSizeUnpaired() {
	fmt.Println(SampleSizeUnpaired(0.50, 0.75, 0.05, 0.9))
	// Output: 77
}

func ExampleWilsonInterval() {
	iv := WilsonInterval(0, 0, 0.95)
	fmt.Println(iv.Lo, iv.Hi)
	for _, w := range iv.Warnings {
		fmt.Println(w.Code, "-", w.Message)
	}
	// Output:
	// 0 1
	// no_data - no cases: the interval is all of [0, 1]
}

func ExampleBootstrapProportionInterval() {
	// Four of four: the bootstrap has nothing to resample, and says so.
	iv := BootstrapProportionInterval(4, 4, 1000, 0.95, 1)
	fmt.Println(iv.Lo, iv.Hi)
	for _, w := range iv.Warnings {
		fmt.Println(w.Code, "-", w.Message)
	}
	// Output:
	// 1 1
	// few_resampled - bootstrap over only 4 cases: the interval is rough and too narrow
	// point_interval - all 4 cases have the same outcome: the bootstrap interval is a single point; use the Wilson interval
}

func ExamplePowerUnpaired() {
	// R's power.prop.test(n = 50, p1 = .50, p2 = .75) prints power = 0.740.
	fmt.Printf("%.3f\n", PowerUnpaired(50, 0.50, 0.75, 0.05))
	// Output: 0.740
}

func ExamplePowerPaired() {
	fmt.Printf("%.3f\n", PowerPaired(469, 0.10, 0.05, 0.05))
	// Output: 0.800
}

func ExampleMcNemarChiSquare() {
	// Agresti's presidential approval table: 150 and 86 changed their minds.
	chi2, p := McNemarChiSquare(86, 150, false)
	fmt.Printf("%.2f %.1e\n", chi2, p)
	// Output: 17.36 3.1e-05
}

func ExamplePercentile() {
	fmt.Println(Percentile([]float64{1, 2, 3, 4, 5}, 0.1))
	// Output: 1.4
}
