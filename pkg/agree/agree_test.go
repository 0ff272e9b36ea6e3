package agree

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func repeat(label string, n int) []string { return slices.Repeat([]string{label}, n) }

func concat(parts ...[]string) []string { return slices.Concat(parts...) }

// seed30 rebuilds the seed's 30 labelled pairs (seed 003, SPEC.md section
// 3): annotator 1 gives a 10, b 11, tie 9; annotator 2 agrees on every a
// and b, and on the nine ties says a 3, b 1, tie 5.
func seed30() (ann1, ann2 []string) {
	ann1 = concat(repeat("a", 10), repeat("b", 11), repeat("tie", 9))
	ann2 = concat(repeat("a", 10), repeat("b", 11), repeat("a", 3), repeat("b", 1), repeat("tie", 5))
	return
}

func TestCohenKappaSeed(t *testing.T) {
	a30, b30 := seed30()
	tests := []struct {
		name               string
		a, b               []string
		observed, expected float64
		kappa              float64
		printed            string // the seed's printed figures
	}{
		// Observed 26/30, expected (10·13 + 11·12 + 9·5)/900 = 307/900,
		// kappa (26/30 − 307/900)/(1 − 307/900) = 473/593.
		{"30 pairs", a30, b30, 26.0 / 30, 307.0 / 900, 473.0 / 593, "0.867 0.341 0.798"},
		// 4 yes-yes, 1 yes-no, 2 no-yes, 3 no-no: observed 0.7, expected
		// 0.5·0.6 + 0.5·0.4 = 0.5, kappa 0.4.
		{"10 items yes/no", concat(repeat("y", 5), repeat("n", 5)), concat(repeat("y", 4), []string{"n"}, repeat("y", 2), repeat("n", 3)), 0.7, 0.5, 0.4, "0.700 0.500 0.400"},
		// Exercise: agree on 6 of 8; a 3/3, b 3/4, tie 2/1: expected
		// (9 + 12 + 2)/64 = 23/64; kappa (48/64 − 23/64)/(41/64) = 25/41.
		{"8 pairs", strings.Fields("a a b b tie tie a b"), strings.Fields("a b b b tie a a b"), 0.75, 23.0 / 64, 25.0 / 41, "0.750 0.359 0.610"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k, err := CohenKappa(tc.a, tc.b)
			if err != nil {
				t.Fatal(err)
			}
			if !near(k.Observed, tc.observed, 1e-15) || !near(k.Expected, tc.expected, 1e-15) || !near(k.Kappa, tc.kappa, 1e-15) {
				t.Errorf("got observed %v expected %v kappa %v, want %v %v %v", k.Observed, k.Expected, k.Kappa, tc.observed, tc.expected, tc.kappa)
			}
			if got := fmt.Sprintf("%.3f %.3f %.3f", k.Observed, k.Expected, k.Kappa); got != tc.printed {
				t.Errorf("rounded %s, the seed prints %s", got, tc.printed)
			}
			o, _ := Observed(tc.a, tc.b)
			e, _ := Expected(tc.a, tc.b)
			if o != k.Observed || e != k.Expected {
				t.Errorf("Observed, Expected = %v, %v; CohenKappa says %v, %v", o, e, k.Observed, k.Expected)
			}
		})
	}
}

func TestConfusionSeed(t *testing.T) {
	a, b := seed30()
	c, err := NewConfusion(a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The seed's table, annotator 1 in rows: a {a 10}, b {b 11}, tie {a 3, b 1, tie 5}.
	want := [][]int{{10, 0, 0}, {0, 11, 0}, {3, 1, 5}}
	if !slices.Equal(c.Labels, []string{"a", "b", "tie"}) || fmt.Sprint(c.Counts) != fmt.Sprint(want) || c.N() != 30 {
		t.Errorf("confusion %v %v, want [a b tie] %v", c.Labels, c.Counts, want)
	}
	// An explicit order puts unused labels in as zero rows.
	c, err = NewConfusion(a, b, []string{"tie", "b", "a", "skip"})
	if err != nil {
		t.Fatal(err)
	}
	want = [][]int{{5, 1, 3, 0}, {0, 11, 0, 0}, {0, 0, 10, 0}, {0, 0, 0, 0}}
	if fmt.Sprint(c.Counts) != fmt.Sprint(want) {
		t.Errorf("ordered confusion %v, want %v", c.Counts, want)
	}
	if _, err := NewConfusion(a, b, []string{"a", "b"}); err == nil {
		t.Error("a label outside the given order was accepted")
	}
}

func TestDisagreementsSeed(t *testing.T) {
	// The seed's exercise: pairs 2 and 6 go to adjudication.
	a := strings.Fields("a a b b tie tie a b")
	b := strings.Fields("a b b b tie a a b")
	items := make([][]string, len(a))
	for i := range a {
		items[i] = []string{a[i], b[i]}
	}
	if got := Disagreements(items); !slices.Equal(got, []int{1, 5}) {
		t.Errorf("Disagreements = %v, want indices [1 5] (pairs 2 and 6)", got)
	}
	// Missing ratings are ignored; one rating cannot disagree.
	if got := Disagreements([][]string{{"1", "", "1"}, {"", "2", ""}, {"3", "", "4"}}); !slices.Equal(got, []int{2}) {
		t.Errorf("with missing ratings: %v, want [2]", got)
	}
}

func TestWeightedKappa(t *testing.T) {
	// A 3-point table, rows rater 1: [[5 2 0] [1 6 2] [0 1 3]], n = 20.
	// Hand computation, linear weights 1, 0.5, 0: pₒ = (14 + 0.5·6)/20 =
	// 0.85; rows (7, 9, 4)/20, columns (6, 9, 5)/20, pₑ = 0.605;
	// κ = 0.245/0.395 = 0.620253. All three values agree with statsmodels
	// 0.13.5 cohens_kappa(table, wt=None | "linear" | "quadratic").
	a := concat(repeat("1", 7), repeat("2", 9), repeat("3", 4))
	b := concat(repeat("1", 5), repeat("2", 2), repeat("1", 1), repeat("2", 6), repeat("3", 2), repeat("2", 1), repeat("3", 3))
	for _, tc := range []struct {
		w    Weights
		want float64
	}{
		{Unweighted, 0.5330739299610894},
		{Linear, 0.620253164556962},
		{Quadratic, 0.7235023041474654},
	} {
		t.Run(tc.w.String(), func(t *testing.T) {
			k, err := WeightedKappa(a, b, nil, tc.w)
			if err != nil {
				t.Fatal(err)
			}
			if !near(k.Kappa, tc.want, 1e-12) {
				t.Errorf("kappa %v, want %v", k.Kappa, tc.want)
			}
		})
	}
	t.Run("two labels: weights make no difference", func(t *testing.T) {
		x := concat(repeat("y", 5), repeat("n", 5))
		z := concat(repeat("y", 4), []string{"n"}, repeat("y", 2), repeat("n", 3))
		for _, w := range []Weights{Linear, Quadratic} {
			if k, _ := WeightedKappa(x, z, nil, w); !near(k.Kappa, 0.4, 1e-15) {
				t.Errorf("%v: %v, want 0.4", w, k.Kappa)
			}
		}
	})
	t.Run("numeric order", func(t *testing.T) {
		if got := LabelOrder([]string{"10", "9", "2.5"}, []string{"1"}); !slices.Equal(got, []string{"1", "2.5", "9", "10"}) {
			t.Errorf("LabelOrder = %v", got)
		}
		if got := LabelOrder([]string{"tie", "b", "", "a", "10"}); !slices.Equal(got, []string{"10", "a", "b", "tie"}) {
			t.Errorf("LabelOrder = %v", got)
		}
	})
}

func TestKappaEdges(t *testing.T) {
	t.Run("expected 1 gives kappa 1 with a warning", func(t *testing.T) {
		k, err := CohenKappa(repeat("a", 12), repeat("a", 12))
		if err != nil {
			t.Fatal(err)
		}
		if k.Kappa != 1 || k.Expected != 1 || k.Observed != 1 || len(k.Warnings) != 1 || !strings.Contains(k.Warnings[0], "chance agreement is 1") {
			t.Errorf("got %+v", k)
		}
	})
	t.Run("errors", func(t *testing.T) {
		if _, err := CohenKappa([]string{"a"}, []string{"a", "b"}); !errors.Is(err, ErrLength) {
			t.Errorf("unequal lengths: %v", err)
		}
		if _, err := CohenKappa(nil, nil); !errors.Is(err, ErrNoItems) {
			t.Errorf("no items: %v", err)
		}
		if _, err := CohenKappa([]string{"a", ""}, []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "item 2") {
			t.Errorf("missing rating: %v", err)
		}
	})
	t.Run("few items warn", func(t *testing.T) {
		k, _ := CohenKappa(strings.Fields("a b a"), strings.Fields("a b b"))
		if len(k.Warnings) != 1 || !strings.Contains(k.Warnings[0], "only 3 items") {
			t.Errorf("warnings %q", k.Warnings)
		}
	})
}

// Properties over random label sequences: identical raters give 1,
// swapping raters changes nothing, kappa never exceeds 1, and the
// confusion of swapped raters is the transpose.
func TestKappaProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	labels := []string{"a", "b", "tie", "x"}
	for trial := range 200 {
		n := 2 + r.IntN(60)
		a, b := make([]string, n), make([]string, n)
		for i := range n {
			a[i] = labels[r.IntN(len(labels))]
			b[i] = labels[r.IntN(len(labels))]
			if r.IntN(3) == 0 {
				b[i] = a[i]
			}
		}
		for _, w := range []Weights{Unweighted, Linear, Quadratic} {
			self, _ := WeightedKappa(a, a, nil, w)
			ab, _ := WeightedKappa(a, b, nil, w)
			ba, _ := WeightedKappa(b, a, nil, w)
			if self.Kappa != 1 {
				t.Fatalf("trial %d %v: identical raters give %v", trial, w, self.Kappa)
			}
			if !near(ab.Kappa, ba.Kappa, 1e-12) || ab.Kappa > 1+1e-12 {
				t.Fatalf("trial %d %v: kappa(a, b) = %v, kappa(b, a) = %v", trial, w, ab.Kappa, ba.Kappa)
			}
			for i := range ab.Confusion.Counts {
				for j := range ab.Confusion.Counts {
					if ab.Confusion.Counts[i][j] != ba.Confusion.Counts[j][i] {
						t.Fatalf("trial %d: confusion not transposed", trial)
					}
				}
			}
		}
	}
}

func TestFleiss(t *testing.T) {
	// Wikipedia, "Fleiss' kappa", worked example: 10 subjects, 14 raters,
	// 5 categories; P̄ = 0.378, P̄ₑ = 0.213, κ = 0.210. statsmodels 0.13.5
	// fleiss_kappa gives 0.20993070442195522.
	counts := [][]int{
		{0, 0, 0, 0, 14}, {0, 2, 6, 4, 2}, {0, 0, 3, 5, 6}, {0, 3, 9, 2, 0}, {2, 2, 8, 1, 1},
		{7, 7, 0, 0, 0}, {3, 2, 6, 3, 0}, {2, 5, 3, 2, 2}, {6, 5, 2, 1, 0}, {0, 2, 2, 3, 7},
	}
	f, err := FleissCounts(counts)
	if err != nil {
		t.Fatal(err)
	}
	if !near(f.Observed, 0.378, 5e-4) || !near(f.Expected, 0.213, 5e-4) || !near(f.Kappa, 0.20993070442195522, 1e-12) || f.Warnings != nil {
		t.Errorf("got P̄ %v P̄ₑ %v κ %v warnings %q", f.Observed, f.Expected, f.Kappa, f.Warnings)
	}
	// The same table as ratings.
	ratings := make([][]string, len(counts))
	for i, row := range counts {
		for j, c := range row {
			ratings[i] = append(ratings[i], repeat(fmt.Sprint(j+1), c)...)
		}
	}
	g, err := FleissKappa(ratings)
	if err != nil || g.Kappa != f.Kappa || !slices.Equal(g.Categories, []string{"1", "2", "3", "4", "5"}) {
		t.Errorf("FleissKappa = %+v, %v", g, err)
	}

	t.Run("two raters give Scott's pi", func(t *testing.T) {
		// Seed 10 items: pooled shares y 11/20, n 9/20, P̄ₑ = 0.3025 +
		// 0.2025 = 0.505, P̄ = 0.7, π = 0.195/0.495 = 0.393939 (hand).
		x := concat(repeat("y", 5), repeat("n", 5))
		z := concat(repeat("y", 4), []string{"n"}, repeat("y", 2), repeat("n", 3))
		items := make([][]string, len(x))
		for i := range x {
			items[i] = []string{x[i], z[i]}
		}
		f, err := FleissKappa(items)
		if err != nil || !near(f.Kappa, 0.195/0.495, 1e-15) {
			t.Errorf("got %v, %v; want 0.393939", f.Kappa, err)
		}
	})
	t.Run("errors and warnings", func(t *testing.T) {
		if _, err := FleissKappa([][]string{{"a", "a"}, {"a", "a", "a"}}); !errors.Is(err, ErrOneLabel) {
			t.Errorf("one label: %v", err)
		}
		if _, err := FleissKappa(nil); !errors.Is(err, ErrNoItems) {
			t.Errorf("no items: %v", err)
		}
		if _, err := FleissKappa([][]string{{"a", ""}, {"", "b"}}); !errors.Is(err, ErrNoItems) {
			t.Errorf("no item with two ratings: %v", err)
		}
		// Items 2 and 4 have one rating each and are left out; items 1 and 3
		// have 3 and 2 ratings.
		f, err := FleissKappa([][]string{{"a", "a", "b"}, {"a", ""}, {"b", "b", ""}, {"c", "", ""}})
		if err != nil || f.Items != 2 || len(f.Warnings) != 3 || !strings.HasPrefix(f.Warnings[0], "2 items with fewer than two") {
			t.Errorf("got %+v, %v; want 2 items and warnings for the dropped items, varying raters, few items", f, err)
		}
	})
}

// krippendorffData is the reliability data of K. Krippendorff, "Computing
// Krippendorff's Alpha-Reliability" (2011), section C: 4 observers, 12
// units, values 1 to 5, "" where an observer gave no value.
func krippendorffData() [][]string {
	obs := [][]string{
		strings.Fields("1 2 3 3 2 1 4 1 2 . . ."),
		strings.Fields("1 2 3 3 2 2 4 1 2 5 . 3"),
		strings.Fields(". 3 3 3 2 3 4 2 2 5 1 ."),
		strings.Fields("1 2 3 3 2 4 4 1 2 5 1 ."),
	}
	units := make([][]string, 12)
	for u := range units {
		for _, o := range obs {
			v := o[u]
			if v == "." {
				v = ""
			}
			units[u] = append(units[u], v)
		}
	}
	return units
}

func TestKrippendorffAlpha(t *testing.T) {
	// Published in the same paper: nominal 0.743, ordinal 0.815, interval
	// 0.849, ratio 0.797. Nominal by hand: n = 40 pairable values with
	// n_c = 9, 13, 10, 5, 3; the coincidence diagonal sums to 32, so 8
	// values' worth of disagreement; Σ_{c≠k} n_c n_k = 40² − 384 = 1216;
	// α = 1 − 39·8/1216 = 0.743421.
	tests := []struct {
		level Level
		want  float64
		tol   float64
	}{
		{LevelNominal, 1 - 39.0*8/1216, 1e-12},
		{LevelOrdinal, 0.815, 5e-4},
		{LevelInterval, 0.849, 5e-4},
		{LevelRatio, 0.797, 5e-4},
	}
	for _, tc := range tests {
		t.Run(tc.level.String(), func(t *testing.T) {
			a, err := KrippendorffAlpha(krippendorffData(), tc.level, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !near(a.Alpha, tc.want, tc.tol) {
				t.Errorf("alpha %v, want %v", a.Alpha, tc.want)
			}
			if a.Units != 11 || a.Values != 40 {
				t.Errorf("units %d values %d, want 11 and 40", a.Units, a.Values)
			}
			// Agreement 32/40; chance Σ n_c(n_c − 1)/(40·39) =
			// (72 + 156 + 90 + 20 + 6)/1560 = 344/1560.
			if !near(a.Agreement, 0.8, 1e-12) || !near(a.ChanceAgreement, 344.0/1560, 1e-12) {
				t.Errorf("agreement %v chance %v", a.Agreement, a.ChanceAgreement)
			}
			if len(a.Warnings) != 1 || a.Warnings[0] != "1 unit with fewer than two ratings left out (not pairable)" {
				t.Errorf("warnings %q, want one about unit 12", a.Warnings)
			}
		})
	}
	t.Run("nominal alpha of two raters without missing values", func(t *testing.T) {
		// Krippendorff: α = 1 − (n − 1)·Dₒ/Dₑ with n = 20 values; for the
		// seed's 10 yes/no items, pooled 11 y and 9 n, 3 disagreeing items
		// give o_yn = o_ny = 3: α = 1 − 19·6/(2·11·9) = 1 − 114/198 =
		// 0.424242 (hand computation).
		x := concat(repeat("y", 5), repeat("n", 5))
		z := concat(repeat("y", 4), []string{"n"}, repeat("y", 2), repeat("n", 3))
		items := make([][]string, len(x))
		for i := range x {
			items[i] = []string{x[i], z[i]}
		}
		a, err := KrippendorffAlpha(items, LevelNominal, nil)
		if err != nil || !near(a.Alpha, 1-114.0/198, 1e-15) {
			t.Errorf("got %v, %v", a.Alpha, err)
		}
	})
	t.Run("errors", func(t *testing.T) {
		if _, err := KrippendorffAlpha([][]string{{"2", "2"}, {"2", ""}}, LevelInterval, nil); !errors.Is(err, ErrOneLabel) {
			t.Errorf("one value: %v", err)
		}
		if _, err := KrippendorffAlpha([][]string{{"1", ""}, {"", "2"}}, LevelNominal, nil); !errors.Is(err, ErrNoItems) {
			t.Errorf("nothing pairable: %v", err)
		}
		var ve *ValueError
		if _, err := KrippendorffAlpha([][]string{{"1", "2"}, {"3", "high"}}, LevelInterval, nil); !errors.As(err, &ve) || ve.Unit != 1 || ve.Rater != 1 {
			t.Errorf("non-number at interval level: %v", err)
		}
		if _, err := ParseLevel("cardinal"); err == nil {
			t.Error("ParseLevel accepted cardinal")
		}
	})
	t.Run("identical raters give 1, swapping raters changes nothing", func(t *testing.T) {
		data := krippendorffData()
		swapped := make([][]string, len(data))
		same := make([][]string, len(data))
		for u, r := range data {
			swapped[u] = []string{r[3], r[2], r[1], r[0]}
			same[u] = []string{r[1], r[1], r[1]}
		}
		for _, l := range []Level{LevelNominal, LevelOrdinal, LevelInterval} {
			a, _ := KrippendorffAlpha(data, l, nil)
			b, _ := KrippendorffAlpha(swapped, l, nil)
			if !near(a.Alpha, b.Alpha, 1e-12) {
				t.Errorf("%v: %v then %v after swapping raters", l, a.Alpha, b.Alpha)
			}
			s, err := KrippendorffAlpha(same, l, nil)
			if err != nil || s.Alpha != 1 {
				t.Errorf("%v identical raters: %v, %v", l, s.Alpha, err)
			}
		}
	})
}
