package main

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestGrid(t *testing.T) {
	g := grid(0.05)
	if len(g) != 19 || g[0] != 0.05 || math.Abs(g[18]-0.95) > 1e-15 {
		t.Errorf("grid(0.05) = %v", g)
	}
	if len(grid(0.01)) != 99 {
		t.Errorf("grid(0.01) has %d rates, want 99", len(grid(0.01)))
	}
}

// At n = 10 and p = 0.3 Wilson's 95% interval covers for k = 1 … 5 (see
// stats.TestCoverageByHand): coverage 1 − 0.7¹⁰ − P(X ≥ 6) = 0.9244034877.
// Over the two rates 0.3 and 0.7 (mirror images) the mean and minimum are
// that same number, and both are below 94%.
func TestSummarizeByHand(t *testing.T) {
	s := Summarize("wilson", 10, []float64{0.3, 0.7}, 0.95)
	if math.Abs(s.Mean-0.9244034877) > 1e-9 || math.Abs(s.Min-0.9244034877) > 1e-9 || s.ShareLow != 1 {
		t.Errorf("summary %+v", s)
	}
	var b bytes.Buffer
	if err := write(&b, []int{10}, []float64{0.3, 0.7}, 0.95); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| 10 | wilson | 0.9244 | 0.9244 | 100% |") || strings.Count(b.String(), "\n| 10 |") != 4 {
		t.Errorf("table:\n%s", b.String())
	}
}
