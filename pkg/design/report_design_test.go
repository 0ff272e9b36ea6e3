package design

import "testing"

// A gate row's interval is the 95% Wilson interval of k/N, and none
// when the value is not a whole number of its N cases.
func TestGateRowInterval(t *testing.T) {
	v := 4.0 / 7
	// 4 of 7, z = 1.96: centre (p + z²/2n)/(1 + z²/n) = 0.5461, half-width
	// z·sqrt(p(1−p)/n + z²/4n²)/(1 + z²/n) = 0.2957.
	lo, hi, ok := GateRow{Value: &v, N: 7}.interval()
	if !ok || lo < 0.2500 || lo > 0.2510 || hi < 0.8413 || hi > 0.8423 {
		t.Errorf("4/7: %v %.4f %.4f, want 0.2505 0.8418", ok, lo, hi)
	}
	half := 0.5
	if _, _, ok := (GateRow{Value: &half, N: 7}).interval(); ok {
		t.Error("0.5 of 7 cases is no k/7, yet it has an interval")
	}
	if _, _, ok := (GateRow{N: 7}).interval(); ok {
		t.Error("an unmeasured metric has an interval")
	}
}

// A check decoded from JSON has no plan and draws no chart; one from a
// plan draws each metric's threshold, a missing one as an empty place.
func TestPlanCheckCharts(t *testing.T) {
	if c := (&PlanCheck{Kind: "plan_check"}).Charts(); c != nil {
		t.Errorf("decoded check draws %v", c)
	}
	th := 0.8
	p := &Plan{Metrics: []Metric{{Name: "a", Gate: "block", Threshold: &th, Direction: "max"}, {Name: "b", Gate: "report"}}}
	c := p.Check().Charts()
	if len(c) != 1 || len(c[0].Categories) != 2 {
		t.Fatalf("charts %+v", c)
	}
	pts := c[0].Series[0].Points
	if pts[0].Value != 0.8 || pts[0].Mark != "at most, blocks" || !pts[1].Missing || pts[1].Mark != "no threshold, report only" {
		t.Errorf("points %+v", pts)
	}
}
