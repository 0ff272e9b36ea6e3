package stats

import (
	"math"
	"strings"
	"testing"
)

// TestComparePairedByHand: old 0,0,0,1,1,1 and new 1,1,1,1,1,0 (cases 0,
// 1, 2 better, 5 worse). By hand: passes 3 and 5 of 6, change 1/3; the
// sign test of 3 against 1 is 2 · (1 + 4)/16 = 0.625; McNemar's χ² is
// (|3 − 1| − 1)²/4 = 0.25 with p = erfc(√0.125) = 0.617075; the Wilson
// intervals (z = 1.959964) are 0.187616 to 0.812384 for 3/6 and
// 0.436497 to 0.969947 for 5/6, as worked out in pkg/compare's test.
func TestComparePairedByHand(t *testing.T) {
	old, new := []float64{0, 0, 0, 1, 1, 1}, []float64{1, 1, 1, 1, 1, 0}
	c := ComparePaired(old, new, CompareOptions{Method: "wilson", Confidence: 0.95, Resamples: 1000, Seed: 5})
	if c.N != 6 || c.OldPass != 3 || c.NewPass != 5 || len(c.Better) != 3 || len(c.Worse) != 1 || c.Worse[0] != 5 || c.Unchanged != 2 {
		t.Errorf("counts: %+v", c.PairedResult)
	}
	for _, f := range []struct {
		name      string
		got, want float64
	}{
		{"diff", c.Diff, 1.0 / 3}, {"sign", c.SignP, 0.625}, {"McNemar", c.McNemarP, 0.617075},
		{"old lo", c.Old.Lo, 0.187616}, {"old hi", c.Old.Hi, 0.812384},
		{"new lo", c.New.Lo, 0.436497}, {"new hi", c.New.Hi, 0.969947},
	} {
		if math.Abs(f.got-f.want) > 5e-7 {
			t.Errorf("%s = %.7f, want %.6f", f.name, f.got, f.want)
		}
	}
	if c.Old.Method != "wilson" || c.DiffInterval.Method != "paired-bootstrap" {
		t.Errorf("methods %s, %s", c.Old.Method, c.DiffInterval.Method)
	}
	// The documented seeds: Seed+2 for the change, Seed and Seed+1 for a
	// bootstrap of the pass rates.
	if d := PairedBootstrapDiffInterval(old, new, 1000, 0.95, 7); d.Lo != c.DiffInterval.Lo || d.Hi != c.DiffInterval.Hi {
		t.Errorf("change interval %v, want %v", c.DiffInterval, d)
	}
	b := ComparePaired(old, new, CompareOptions{Method: "bootstrap", Confidence: 0.9, Resamples: 1000, Seed: 5})
	if o, n := BootstrapProportionInterval(3, 6, 1000, 0.9, 5), BootstrapProportionInterval(5, 6, 1000, 0.9, 6); b.Old.Lo != o.Lo || b.Old.Hi != o.Hi || b.New.Lo != n.Lo || b.New.Hi != n.Hi {
		t.Errorf("bootstrap intervals %v %v, want %v %v", b.Old, b.New, o, n)
	}
}

func TestComparePairedMisuse(t *testing.T) {
	ok := CompareOptions{Method: "wilson", Confidence: 0.95, Resamples: 10}
	for _, tc := range []struct {
		name     string
		old, new []float64
		opt      CompareOptions
		want     string
	}{
		{"method", []float64{1}, []float64{0}, CompareOptions{Method: "exact", Confidence: 0.95, Resamples: 10}, `method "exact"`},
		{"not 0/1", []float64{1, 0.5}, []float64{0, 1}, ok, "needs 0/1 outcomes, got 0.5 and 1 at index 1"},
		{"lengths", []float64{1}, []float64{0, 1}, ok, "1 old values and 2 new ones"},
		{"resamples", []float64{1}, []float64{0}, CompareOptions{Method: "wilson", Confidence: 0.95}, "0 resamples"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.HasPrefix(s, "stats: ") || !strings.Contains(s, tc.want) {
					t.Errorf("panic %v, want one with %q", r, tc.want)
				}
			}()
			ComparePaired(tc.old, tc.new, tc.opt)
		})
	}
}
