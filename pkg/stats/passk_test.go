package stats

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"testing"
)

// pass@10 of 10 correct among 200 samples (issue 16):
//
//	1 − C(190, 10)/C(200, 10) = 1 − (181·182·…·190)/(191·192·…·200)
//	                          = 1 − 0.5914519… = 0.408548…
//
// The exact fraction is built with math/big, independently of the
// product form PassAtK uses.
func TestPassAtKIssueValue(t *testing.T) {
	num, den := big.NewInt(1), big.NewInt(1)
	for i := int64(181); i <= 190; i++ {
		num.Mul(num, big.NewInt(i))
	}
	for i := int64(191); i <= 200; i++ {
		den.Mul(den, big.NewInt(i))
	}
	q, _ := new(big.Rat).SetFrac(num, den).Float64()
	want := 1 - q
	got, err := PassAtK(200, 10, 10)
	if err != nil || math.Abs(got-want) > 1e-14 {
		t.Fatalf("pass@10 = %v, %v; exact %v", got, err, want)
	}
	if s := fmt.Sprintf("%.6f", got); s != "0.408548" {
		t.Errorf("pass@10 = %s, want 0.408548", s)
	}
}

// Issue 16's case of the biased estimate (verl #7240): 1 correct of 4
// samples and k = 4. Every 4-subset is all four samples, so pass@4 is 1;
// drawing with replacement, 1 − (3/4)⁴ = 0.684, is what must not be given.
func TestPassAtKNotWithReplacement(t *testing.T) {
	got, err := PassAtK(4, 1, 4)
	if err != nil || got != 1 {
		t.Errorf("pass@4 = %v, %v; want 1", got, err)
	}
}

func TestPassAtKEdges(t *testing.T) {
	for _, tc := range []struct {
		n, c, k int
		want    float64
	}{
		{200, 0, 10, 0},  // no correct sample
		{10, 5, 6, 1},    // n − c = 5 < k: every 6-subset holds a correct one
		{10, 10, 1, 1},   // all correct
		{5, 1, 1, 0.2},   // pass@1 is c/n
		{5, 2, 5, 1},     // k = n: any correct
		{4, 1, 2, 0.5},   // 1 − C(3,2)/C(4,2) = 1 − 3/6
		{6, 2, 3, 0.8},   // 1 − C(4,3)/C(6,3) = 1 − 4/20
		{100, 1, 100, 1}, // k = n with one correct
	} {
		got, err := PassAtK(tc.n, tc.c, tc.k)
		if err != nil || math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("PassAtK(%d, %d, %d) = %v, %v; want %v", tc.n, tc.c, tc.k, got, err, tc.want)
		}
	}
	for _, tc := range [][3]int{{5, 1, 6}, {5, 1, 0}, {5, 6, 1}, {5, -1, 1}} {
		if _, err := PassAtK(tc[0], tc[1], tc[2]); !errors.Is(err, ErrAtK) {
			t.Errorf("PassAtK%v: err %v, want ErrAtK", tc, err)
		}
	}
}

func TestPassHatK(t *testing.T) {
	for _, tc := range []struct {
		n, c, k int
		want    float64
	}{
		{10, 5, 2, 5.0 / 10 * 4 / 9}, // C(5,2)/C(10,2) = 10/45
		{10, 10, 3, 1},
		{10, 2, 3, 0}, // fewer correct than k
		{8, 3, 1, 3.0 / 8},
		{6, 4, 3, 4.0 / 20}, // C(4,3)/C(6,3)
	} {
		got, err := PassHatK(tc.n, tc.c, tc.k)
		if err != nil || math.Abs(got-tc.want) > 1e-15 {
			t.Errorf("PassHatK(%d, %d, %d) = %v, %v; want %v", tc.n, tc.c, tc.k, got, err, tc.want)
		}
	}
	if _, err := PassHatK(3, 1, 4); !errors.Is(err, ErrAtK) {
		t.Errorf("k > n: %v", err)
	}
}

// majBrute averages the majority vote over every k-subset of answers,
// breaking ties uniformly (a tied correct answer counts 1/ties).
func majBrute(answers []string, correct string, k int) float64 {
	n := len(answers)
	total, subsets := 0.0, 0
	var rec func(start int, chosen []int)
	rec = func(start int, chosen []int) {
		if len(chosen) == k {
			subsets++
			votes := map[string]int{}
			for _, i := range chosen {
				votes[answers[i]]++
			}
			best := 0
			for _, v := range votes {
				best = max(best, v)
			}
			if votes[correct] == best {
				ties := 0
				for _, v := range votes {
					if v == best {
						ties++
					}
				}
				total += 1 / float64(ties)
			}
			return
		}
		for i := start; i < n; i++ {
			rec(i+1, append(chosen, i))
		}
	}
	rec(0, nil)
	return total / float64(subsets)
}

func TestMajAtKAgainstEnumeration(t *testing.T) {
	cases := [][]string{
		{"4", "4", "5", "", "4", "6", "5", "5", "4", "7"},
		{"a", "b", "c", "a", "b", "c", "a", "b"},
		{"x", "x", "x", "y", "y", "y", "y", "z", "z", "x", "y", "z"},
		{"q", "q"},
	}
	for _, answers := range cases {
		for _, correct := range []string{answers[0], answers[len(answers)-1], "absent"} {
			for k := 1; k <= len(answers); k++ {
				got, err := MajAtK(answers, correct, k)
				want := majBrute(answers, correct, k)
				if err != nil || math.Abs(got-want) > 1e-12 {
					t.Errorf("MajAtK(%v, %q, %d) = %v, %v; enumeration %v", answers, correct, k, got, err, want)
				}
			}
		}
	}
	// A hand case: answers a, a, b and k = 2. Subsets {a,a} (a wins),
	// {a,b} twice (tie, a counts ½): maj@2 for a = (1 + ½ + ½)/3 = 2/3.
	if got, _ := MajAtK([]string{"a", "a", "b"}, "a", 2); math.Abs(got-2.0/3) > 1e-15 {
		t.Errorf("maj@2 = %v, want 2/3", got)
	}
	if _, err := MajAtK([]string{"a"}, "", 1); !errors.Is(err, ErrAtK) {
		t.Errorf("empty correct answer: %v", err)
	}
	if _, err := MajAtK([]string{"a"}, "a", 2); !errors.Is(err, ErrAtK) {
		t.Errorf("k > n: %v", err)
	}
}

// Large counts: C(m, v) alone would overflow a float64 at n = 2000, and
// C(m, v)/2^m underflows once m passes about 1,100.
func TestMajAtKLargeN(t *testing.T) {
	answers := make([]string, 2000)
	for i := range answers {
		answers[i] = []string{"a", "a", "b"}[i%3]
	}
	got, err := MajAtK(answers, "a", 2000)
	if err != nil || got != 1 {
		t.Errorf("maj@2000 with a 2:1 majority = %v, %v", got, err)
	}
	got, err = MajAtK(answers, "a", 25)
	if err != nil || !(got > 0.8 && got < 1) {
		t.Errorf("maj@25 with a 2:1 majority = %v, %v", got, err)
	}
	// Two answers, 3,000 samples each way but one: with k = 1 maj@1 is
	// the share of correct samples, m_g/n, whatever the sizes.
	two := make([]string, 6000)
	for i := range two {
		two[i] = "a"
		if i%2 == 1 || i == 0 {
			two[i] = "b"
		}
	}
	// (The log-gamma binomials keep about 12 digits at these sizes.)
	if got, err := MajAtK(two, "a", 1); err != nil || math.Abs(got-2999.0/6000) > 1e-10 {
		t.Errorf("maj@1 = %v, %v; want 2999/6000", got, err)
	}
	// k = 3 with two answers: "a" wins with 2 or 3 of the 3 drawn, a
	// hypergeometric tail computed here term by term.
	ma, mb := 2999.0, 3001.0
	want := (ma*(ma-1)*(ma-2) + 3*ma*(ma-1)*mb) / (6000 * 5999 * 5998)
	if got, err := MajAtK(two, "a", 3); err != nil || math.Abs(got-want) > 1e-10 {
		t.Errorf("maj@3 = %v, %v; want %v", got, err, want)
	}
}

func TestAtKItems(t *testing.T) {
	items := []SampleCount{{10, 0}, {10, 5}, {10, 10}, {20, 1}}
	est, err := PassAtKItems(items, 2, 2000, 0.95, 7)
	if err != nil {
		t.Fatal(err)
	}
	// pass@2 per item: 0; 1 − C(5,2)/C(10,2) = 1 − 10/45; 1; 1 − C(19,2)/C(20,2) = 1 − 171/190.
	want := (0 + (1 - 10.0/45) + 1 + (1 - 171.0/190)) / 4
	if math.Abs(est.Mean-want) > 1e-15 || est.K != 2 || est.Items != 4 || est.Metric != MetricPassAtK {
		t.Errorf("estimate %+v, want mean %v", est, want)
	}
	if !(est.Lo <= est.Mean && est.Mean <= est.Hi) || est.Method != "bootstrap" {
		t.Errorf("interval [%v, %v] (%s) around %v", est.Lo, est.Hi, est.Method, est.Mean)
	}
	codes := map[string]bool{}
	for _, w := range est.Warnings {
		codes[w.Code] = true
	}
	if !codes[CodeUnequalSamples] || !codes[CodeFewResampled] {
		t.Errorf("warnings %v, want unequal_samples and few_resampled", est.Warnings)
	}
	if _, err := PassHatKItems([]SampleCount{{10, 1}, {3, 1}}, 4, 100, 0.95, 1); !errors.Is(err, ErrAtK) || err.Error()[:6] != "item 1" {
		t.Errorf("item with k > n: %v", err)
	}
	vote, err := MajAtKItems([]VoteItem{{[]string{"a", "a", "b"}, "a"}, {[]string{"b", "b", "b"}, "a"}}, 2, 100, 0.95, 1)
	if err != nil || math.Abs(vote.Mean-1.0/3) > 1e-15 {
		t.Errorf("maj@2 over items = %+v, %v; want (2/3 + 0)/2", vote, err)
	}
}

func ExamplePassAtK() {
	p, _ := PassAtK(200, 10, 10)
	h, _ := PassHatK(200, 10, 2)
	fmt.Printf("pass@10 = %.6f, pass^2 = %.6f\n", p, h)
	// Output: pass@10 = 0.408548, pass^2 = 0.002261
}

func ExampleMajAtK() {
	// Five samples of one item: "42" three times, "41" twice. Of the
	// C(5, 3) = 10 three-subsets, "42" has a majority in C(3,2)·C(2,1) + 1
	// = 7, so maj@3 = 0.7.
	answers := []string{"42", "41", "42", "41", "42"}
	all, _ := MajAtK(answers, "42", 5)
	three, _ := MajAtK(answers, "42", 3)
	fmt.Printf("maj@5 = %g, maj@3 = %.1f\n", all, three)
	// Output: maj@5 = 1, maj@3 = 0.7
}
