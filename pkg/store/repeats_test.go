package store

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
)

// Three A/A runs of four items, the hand vector of issue 28 item 5 (one
// run per sample): A 1,1,1; B 1,1,0; C 1,0,0; D 0,0,0. Item means 1,
// 2/3, 1/3, 0: mean 0.5, s² = (0.25+1/36+1/36+0.25)/3 = 5/27, SE
// √(5/108) = 0.215166; within (1/4)·(0 + (2/9)/3 + (2/9)/3 + 0) = 1/27
// = 0.037037, between 5/27 − 1/27 = 4/27 = 0.148148 (the figures
// evalbook repeats gives on the same vector); within share (1/27)/(5/27)
// = 0.2; mean per-item variance 1/9, unbiased ×3/2 = 1/6, so the rerun
// noise of a difference is √(2·(1/6)/4) = √(1/12) = 0.288675. Flaky: B
// and C.
func TestAAReplicates(t *testing.T) {
	s := openTemp(t)
	runs := [][]float64{{1, 1, 1, 0}, {1, 1, 0, 0}, {1, 0, 0, 0}}
	for _, v := range runs {
		r := synthRun(4, true, func(i int) float64 { return v[i] })
		r.Model = "m1"
		record(t, s, r)
	}
	r, err := s.AARuns(context.Background(), []string{"1", "2", "3"}, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Others) != 1 || r.Others[0].ID != 3 || len(r.Repeats) != 1 || r.Metrics[0].Flips != 1 {
		t.Fatalf("aa %+v", r)
	}
	q := r.Repeats[0]
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"mean", q.Mean, 0.5}, {"se", q.SE, math.Sqrt(5.0 / 108)}, {"within", q.Within, 1.0 / 27}, {"between", q.Between, 4.0 / 27},
		{"within_share", q.WithinShare, 0.2}, {"noise_sd", q.NoiseSD, math.Sqrt(1.0 / 12)}} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s %v, want %v", c.name, c.got, c.want)
		}
	}
	if math.Abs(q.SE-0.215166) > 5e-7 || math.Abs(q.Within-0.037037) > 5e-7 || math.Abs(q.Between-0.148148) > 5e-7 {
		t.Errorf("issue figures: se %v within %v between %v", q.SE, q.Within, q.Between)
	}
	if q.Items != 4 || q.LeftOut != 0 || q.FlakyItems != 2 || !slices.Equal(q.Flaky, []string{"s1", "s2"}) || !slices.Equal(q.Runs, []int64{1, 2, 3}) {
		t.Errorf("replicates %+v", q)
	}
	var b strings.Builder
	if err := r.WriteText(&b); err != nil || !strings.Contains(b.String(), "Repeated runs") || !strings.Contains(b.String(), "also: run 3") {
		t.Errorf("%v:\n%s", err, b.String())
	}
	if _, err := s.AARuns(context.Background(), []string{"1", "2", "1"}, 0.95); err == nil || !strings.Contains(err.Error(), "both run 1") {
		t.Errorf("a run given twice: %v", err)
	}

	// The gate of run 2 against a candidate finds runs 1 and 3 repeating
	// it; the decomposition over 2, 1, 3 is the same (the order of the
	// samples within an item does not matter).
	cand := synthRun(4, true, func(i int) float64 { return 0 })
	cand.Model = "m1"
	record(t, s, cand)
	record(t, s, synthRun(4, true, func(i int) float64 { return 1 })) // no model: not a replicate
	g, err := s.Gate(context.Background(), "2", "4", GateOptions{Metric: "m", Margin: 0.02})
	if err != nil {
		t.Fatal(err)
	}
	if g.Noise == nil || !slices.Equal(g.Noise.Runs, []int64{2, 1, 3}) || math.Abs(g.Noise.NoiseSD-math.Sqrt(1.0/12)) > 1e-12 || g.Noise.FlakyItems != 2 {
		t.Fatalf("gate noise %+v", g.Noise)
	}
	b.Reset()
	if err := g.WriteText(&b); err != nil || !strings.Contains(b.String(), "noise floor from 3 runs") {
		t.Errorf("%v:\n%s", err, b.String())
	}
}
