package compare

import (
	"errors"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/stats"
)

// Options.CI takes every stats.ProportionInterval method: each pass
// rate's interval is that method's, and the text names the method.
func TestProportionIntervalMethods(t *testing.T) {
	ids := []string{"q1", "q2", "q3", "q4", "q5", "q6"}
	old, nw := []float64{0, 0, 0, 1, 1, 1}, []float64{1, 1, 1, 1, 1, 0}
	for _, m := range stats.ProportionMethods() {
		o := Options{Key: []string{"id"}, Metric: "pass", CI: m, Confidence: 0.95, Resamples: 200, Seed: 1}
		if err := o.Validate(); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		c, err := Versions(ids, old, nw, nil, o)
		if err != nil {
			t.Fatal(err)
		}
		wo, wn := stats.ProportionInterval(m, 3, 6, 0.95), stats.ProportionInterval(m, 5, 6, 0.95)
		if c.OldCILow != wo.Lo || c.OldCIHigh != wo.Hi || c.NewCILow != wn.Lo || c.NewCIHigh != wn.Hi || c.CI != m {
			t.Errorf("%s: old [%v, %v] new [%v, %v], want %+v and %+v", m, c.OldCILow, c.OldCIHigh, c.NewCILow, c.NewCIHigh, wo, wn)
		}
		var b strings.Builder
		if err := c.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		label := m
		if m == stats.MethodWilson {
			label = "Wilson"
		}
		if !strings.Contains(b.String(), "("+label+")") {
			t.Errorf("%s: text does not name the method:\n%s", m, b.String())
		}
	}
	o := Options{Metric: "pass", CI: "wald", Confidence: 0.95, Resamples: 1, Key: []string{"id"}}
	if err := o.Validate(); !errors.Is(err, ErrCI) {
		t.Errorf("wald: %v", err)
	}
}

// CI "bca": each pass rate's interval is stats.BootstrapBCaProportion
// with Seed and Seed+1, and the text says so.
func TestBCaPassRates(t *testing.T) {
	ids := []string{"q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8", "q9", "q10", "q11", "q12"}
	old := []float64{0, 0, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1}
	nw := []float64{1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1}
	o := Options{Key: []string{"id"}, Metric: "pass", CI: "bca", Confidence: 0.95, Resamples: 3000, Seed: 5}
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	c, err := Versions(ids, old, nw, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	wo, wn := stats.BootstrapBCaProportion(8, 12, 3000, 0.95, 5), stats.BootstrapBCaProportion(11, 12, 3000, 0.95, 6)
	if c.OldCILow != wo.Lo || c.OldCIHigh != wo.Hi || c.NewCILow != wn.Lo || c.NewCIHigh != wn.Hi {
		t.Errorf("old [%v, %v] new [%v, %v], want %+v and %+v", c.OldCILow, c.OldCIHigh, c.NewCILow, c.NewCIHigh, wo, wn)
	}
	var b strings.Builder
	if err := c.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "(BCa bootstrap, 3000 resamples, seed 5)") {
		t.Errorf("text:\n%s", b.String())
	}
}
