package stats

import (
	"math"
	"testing"
)

// TestRepeatsHand checks Repeats on issue 28's hand vector, four items of
// three samples each: A 1,1,1; B 1,1,0; C 1,0,0; D 0,0,0.
//
//	item means x̄_i        = 1, 2/3, 1/3, 0          mean = 0.5
//	s²(x̄_i), divisor n−1 = (1/4 + 1/36 + 1/36 + 1/4) / 3 = 5/27
//	SE = √(5/27 / 4)     = √(5/108) = 0.2151657415
//	σ̂²_i = p̂(1−p̂)        = 0, 2/9, 2/9, 0          WithinVar = 1/9
//	Within = mean σ̂²_i/3 = 1/27 = 0.0370370370
//	Between = 5/27 − 1/27 = 4/27 = 0.1481481481
//
// With 12 samples per item: √((4/27 + (1/9)/12) / 4) = √((16/108 + 1/108) / 4) = √(17/432).
func TestRepeatsHand(t *testing.T) {
	r := Repeats([][]float64{{1, 1, 1}, {1, 1, 0}, {1, 0, 0}, {0, 0, 0}})
	check := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %.12g, want %.12g", name, got, want)
		}
	}
	check("mean", r.Mean, 0.5)
	check("se", r.SE, math.Sqrt(5.0/108))
	check("within", r.Within, 1.0/27)
	check("between", r.Between, 4.0/27)
	check("within var", r.WithinVar, 1.0/9)
	check("project 3", r.ProjectSE(3), r.SE)
	check("project 12", r.ProjectSE(12), math.Sqrt(17.0/432))
	// The rounded figures.
	check("se (issue)", math.Round(r.SE*1e6)/1e6, 0.215166)
	check("within (issue)", math.Round(r.Within*1e6)/1e6, 0.037037)
	check("between (issue)", math.Round(r.Between*1e6)/1e6, 0.148148)
	if r.Items != 4 || r.Samples != 12 {
		t.Errorf("items %d samples %d, want 4 and 12", r.Items, r.Samples)
	}
}

// Between can come out negative when the items do not differ: two items
// that each pass once in two have s²(x̄_i) = 0 and Within = 1/8.
func TestRepeatsNegativeBetween(t *testing.T) {
	r := Repeats([][]float64{{1, 0}, {0, 1}})
	if r.Between != -0.125 || r.BetweenClamped != 0 || r.SE != 0 {
		t.Errorf("between %g clamped %g se %g, want -0.125, 0, 0", r.Between, r.BetweenClamped, r.SE)
	}
}
