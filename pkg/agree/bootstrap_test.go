package agree

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestBootstrapKappa(t *testing.T) {
	a, b := seed30()
	iv, err := BootstrapKappa(a, b, nil, Unweighted, 10000, 0.95, 1)
	if err != nil {
		t.Fatal(err)
	}
	// statsmodels 0.13.5 cohens_kappa on the seed's table gives the
	// asymptotic interval 0.620 to 0.975 (κ 0.798, se 0.0906). Resampling
	// and a normal approximation differ, so only the neighbourhood is
	// checked (within 0.06), and the interval must hold the estimate.
	if !near(iv.Lo, 0.620, 0.06) || !near(iv.Hi, 0.975, 0.06) || iv.Lo > 473.0/593 || iv.Hi < 473.0/593 {
		t.Errorf("interval (%v, %v), want near (0.620, 0.975) around 0.798", iv.Lo, iv.Hi)
	}
	if iv.Warnings != nil || iv.Undefined != 0 || iv.Resamples != 10000 {
		t.Errorf("interval %+v", iv)
	}
	again, _ := BootstrapKappa(a, b, nil, Unweighted, 10000, 0.95, 1)
	other, _ := BootstrapKappa(a, b, nil, Unweighted, 10000, 0.95, 2)
	if again.Lo != iv.Lo || again.Hi != iv.Hi {
		t.Errorf("same seed gave (%v, %v) then (%v, %v)", iv.Lo, iv.Hi, again.Lo, again.Hi)
	}
	if other.Lo == iv.Lo && other.Hi == iv.Hi {
		t.Errorf("seeds 1 and 2 gave the same interval")
	}
	if _, err := BootstrapKappa(a, b[:3], nil, Unweighted, 10, 0.95, 1); !errors.Is(err, ErrLength) {
		t.Errorf("unequal lengths: %v", err)
	}
	small, _ := BootstrapKappa(strings.Fields("a b a b"), strings.Fields("a b b b"), nil, Unweighted, 100, 0.95, 1)
	if len(small.Warnings) != 1 || !strings.Contains(small.Warnings[0], "only 4 items") {
		t.Errorf("four items: %+v", small)
	}
}

func TestBootstrapFleissAndAlpha(t *testing.T) {
	data := krippendorffData()
	for _, l := range []Level{LevelNominal, LevelOrdinal, LevelInterval} {
		t.Run(l.String(), func(t *testing.T) {
			a, _ := KrippendorffAlpha(data, l, nil)
			iv, err := BootstrapAlpha(data, l, nil, 2000, 0.95, 1)
			if err != nil {
				t.Fatal(err)
			}
			if !(iv.Lo <= a.Alpha && a.Alpha <= iv.Hi && iv.Lo < iv.Hi && iv.Hi <= 1) {
				t.Errorf("interval (%v, %v) around %v", iv.Lo, iv.Hi, a.Alpha)
			}
		})
	}
	// Fleiss on complete units of the same data (units 2 to 9 have four
	// ratings each): every resample that drew only "all agree" units with
	// one label is undefined and counted.
	iv, err := BootstrapFleiss(data[1:9], 2000, 0.95, 1)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := FleissKappa(data[1:9])
	if !(iv.Lo <= f.Kappa && f.Kappa <= iv.Hi) {
		t.Errorf("Fleiss interval (%v, %v) misses %v", iv.Lo, iv.Hi, f.Kappa)
	}
	if _, err := BootstrapFleiss([][]string{{"a", "a"}}, 10, 0.95, 1); !errors.Is(err, ErrOneLabel) {
		t.Errorf("one label: %v", err)
	}
	iv, err = BootstrapFleiss([][]string{{"a", "a"}, {"b", "b"}}, 200, 0.95, 1)
	if err != nil || iv.Undefined == 0 || !strings.Contains(strings.Join(iv.Warnings, "|"), "left out") {
		t.Errorf("two items: %+v, %v; want undefined resamples reported", iv, err)
	}
}

func ExampleCohenKappa() {
	ann1 := strings.Fields("a a b b tie tie a b")
	ann2 := strings.Fields("a b b b tie a a b")
	k, _ := CohenKappa(ann1, ann2)
	fmt.Printf("observed %.2f expected %.3f kappa %.2f\n", k.Observed, k.Expected, k.Kappa)
	// Output: observed 0.75 expected 0.359 kappa 0.61
}

func ExampleWeightedKappa() {
	a := strings.Fields("1 2 3 4 5 3 2 4")
	b := strings.Fields("1 3 3 5 5 2 2 4")
	// statsmodels 0.13.5 cohens_kappa gives 0.5294 and 0.7447.
	plain, _ := WeightedKappa(a, b, nil, Unweighted)
	lin, _ := WeightedKappa(a, b, nil, Linear)
	fmt.Printf("unweighted %.3f linear %.3f\n", plain.Kappa, lin.Kappa)
	// Output: unweighted 0.529 linear 0.745
}

func ExampleNewConfusion() {
	c, _ := NewConfusion(strings.Fields("a a b tie"), strings.Fields("a b b a"), nil)
	fmt.Println(c.Labels, c.Counts)
	// Output: [a b tie] [[1 1 0] [0 1 0] [1 0 0]]
}

func ExampleFleissCounts() {
	// Three items, four raters, categories yes and no. By hand: Pᵢ = 1,
	// 4/12, 6/12, so P̄ = 0.611; p = 7/12, 5/12, so P̄ₑ = 74/144 = 0.514.
	f, _ := FleissCounts([][]int{{4, 0}, {2, 2}, {1, 3}})
	fmt.Printf("P̄ %.3f P̄e %.3f kappa %.3f\n", f.Observed, f.Expected, f.Kappa)
	// Output: P̄ 0.611 P̄e 0.514 kappa 0.200
}

func ExampleKrippendorffAlpha() {
	// Three raters, "" where a rater skipped the unit. (The same figures
	// come from an independent NumPy implementation of the paper's
	// coincidence-matrix method: 0.6129 and 0.8588.)
	units := [][]string{{"1", "1", ""}, {"2", "2", "3"}, {"3", "3", "3"}, {"", "4", "4"}, {"2", "1", "2"}}
	nominal, _ := KrippendorffAlpha(units, LevelNominal, nil)
	interval, _ := KrippendorffAlpha(units, LevelInterval, nil)
	fmt.Printf("nominal %.3f interval %.3f\n", nominal.Alpha, interval.Alpha)
	// Output: nominal 0.613 interval 0.859
}

func ExampleDisagreements() {
	items := [][]string{{"a", "a"}, {"a", "b"}, {"tie", "tie"}, {"b", "tie"}}
	fmt.Println(Disagreements(items))
	// Output: [1 3]
}

func ExampleBootstrapKappa() {
	ann1 := strings.Fields("a a b b tie tie a b a b a b b tie a")
	ann2 := strings.Fields("a b b b tie a a b a b a b tie tie a")
	iv, _ := BootstrapKappa(ann1, ann2, nil, Unweighted, 2000, 0.95, 1)
	fmt.Printf("%.2f to %.2f\n", iv.Lo, iv.Hi)
	// Output: 0.32 to 1.00
}

// BenchmarkKappa1M is the issue's budget: kappa over 1,000,000 label pairs
// in under 100 ms.
func BenchmarkKappa1M(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	labels := []string{"a", "b", "tie"}
	x, y := make([]string, 1000000), make([]string, 1000000)
	for i := range x {
		x[i] = labels[r.IntN(3)]
		y[i] = labels[r.IntN(3)]
	}
	for b.Loop() {
		if _, err := CohenKappa(x, y); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBootstrapKappa(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	labels := []string{"a", "b", "tie"}
	x, y := make([]string, 1000), make([]string, 1000)
	for i := range x {
		x[i] = labels[r.IntN(3)]
		y[i] = labels[r.IntN(3)]
	}
	for b.Loop() {
		BootstrapKappa(x, y, nil, Unweighted, 2000, 0.95, 1)
	}
}

func ExampleFleissKappa() {
	// Three raters; "" is a rating not given. By hand: Pᵢ = 1, 1/3, 1, 1/3,
	// so P̄ = 2/3; shares a 5/11, b 4/11, tie 2/11, so P̄ₑ = 45/121;
	// κ = (2/3 − 45/121)/(1 − 45/121) = 0.469.
	items := [][]string{{"a", "a", "a"}, {"a", "b", "a"}, {"b", "b", ""}, {"tie", "tie", "b"}}
	f, _ := FleissKappa(items)
	fmt.Printf("%d items, kappa %.3f\n", f.Items, f.Kappa)
	// Output: 4 items, kappa 0.469
}

func ExampleLabelOrder() {
	fmt.Println(LabelOrder([]string{"10", "9", "1"}), LabelOrder([]string{"tie", "b", "a"}))
	// Output: [1 9 10] [a b tie]
}

func ExampleObserved() {
	a := strings.Fields("y y y y y n n n n n")
	b := strings.Fields("y y y y n y y n n n")
	o, _ := Observed(a, b)
	e, _ := Expected(a, b)
	fmt.Println(o, e)
	// Output: 0.7 0.5
}
