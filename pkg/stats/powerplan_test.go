package stats

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

func ratePtr(x float64) *float64 { return &x }

// R: power.prop.test(p1 = 0.8, p2 = 0.9, power = 0.8) gives n = 198.96
// per group (sig.level 0.05, two-sided): 199 rounded up (issue 16).
func TestPlanPowerMatchesPowerPropTest(t *testing.T) {
	p, err := PlanPower(PowerQuery{Baseline: 0.8, Target: ratePtr(0.9)})
	if err != nil {
		t.Fatal(err)
	}
	if p.NPerGroup != 199 || p.Mode != "sample_size" || p.Alpha != 0.05 || p.Power != 0.8 {
		t.Errorf("plan %+v, want 199 per group", p)
	}
	// 199 reaches the power and 198 does not.
	if !(p.AchievedPower >= 0.8) || PowerUnpaired(198, 0.8, 0.9, 0.05) >= 0.8 {
		t.Errorf("power at 199 = %v, at 198 = %v", p.AchievedPower, PowerUnpaired(198, 0.8, 0.9, 0.05))
	}
	if math.Abs(*p.MDE-0.1) > 1e-15 {
		t.Errorf("mde %v", *p.MDE)
	}
}

// The minimum detectable effect inverts the sample size: at 199 cases the
// detectable rate lies between 0.9 − ε (power just short) and 0.9.
func TestPlanPowerMDE(t *testing.T) {
	p, err := PlanPower(PowerQuery{Baseline: 0.8, N: 199})
	if err != nil {
		t.Fatal(err)
	}
	if p.Mode != "mde" || p.MDE == nil || !(*p.Detectable <= 0.9 && *p.Detectable > 0.899) {
		t.Fatalf("plan %+v", p)
	}
	if got := PowerUnpaired(199, 0.8, *p.Detectable, 0.05); math.Abs(got-0.8) > 1e-9 {
		t.Errorf("power at the detectable rate %v = %v, want 0.8", *p.Detectable, got)
	}
	// Downwards when the target is below the baseline.
	down, _ := PlanPower(PowerQuery{Baseline: 0.9, Target: ratePtr(0.8), N: 199})
	if down.MDE == nil || !(*down.Detectable < 0.9 && *down.Detectable > 0.8) {
		t.Errorf("downwards: %+v", down)
	}
	// Five cases cannot detect anything above 0.99.
	none, _ := PlanPower(PowerQuery{Baseline: 0.99, N: 5})
	if none.MDE != nil || len(none.Warnings) != 1 || none.Warnings[0].Code != CodeNoDetectableEffect {
		t.Errorf("undetectable: %+v", none)
	}
}

// Paired: with independence, p_better = 0.9·0.2 = 0.18 and p_worse =
// 0.8·0.1 = 0.08, ψ = 0.26, δ = 0.1, and Connor's formula gives
//
//	n = (1.959964·√0.26 + 0.841621·√(0.26 − 0.01))² / 0.01 = (0.999389 + 0.420811)² / 0.01 = 201.70 → 202
//
// With a given discordance 0.15: p_better = 0.125, p_worse = 0.025,
//
//	n = (1.959964·√0.15 + 0.841621·√0.14)² / 0.01 = (0.759091 + 0.314906)² / 0.01 = 115.35 → 116
func TestPlanPowerPaired(t *testing.T) {
	ind, err := PlanPower(PowerQuery{Baseline: 0.8, Target: ratePtr(0.9), Paired: true})
	if err != nil || ind.NPerGroup != 202 || math.Abs(ind.PBetter-0.18) > 1e-15 || math.Abs(ind.PWorse-0.08) > 1e-15 || ind.Discordance != "independence" {
		t.Errorf("independence: %+v, %v", ind, err)
	}
	given, err := PlanPower(PowerQuery{Baseline: 0.8, Target: ratePtr(0.9), Paired: true, Discordant: 0.15})
	if err != nil || given.NPerGroup != 116 || math.Abs(given.PBetter-0.125) > 1e-15 || given.Discordance != "given" {
		t.Errorf("given: %+v, %v", given, err)
	}
	// A discordance below |δ| cannot be.
	if _, err := PlanPower(PowerQuery{Baseline: 0.8, Target: ratePtr(0.9), Paired: true, Discordant: 0.05}); !errors.Is(err, ErrPowerQuery) {
		t.Errorf("discordance 0.05 with δ = 0.1: %v", err)
	}
}

func TestPlanPowerBadQueries(t *testing.T) {
	for _, q := range []PowerQuery{
		{Baseline: 1.2, Target: ratePtr(0.5)},
		{Baseline: 0.5, Target: ratePtr(-0.1)},
		{Baseline: 0.5, Target: ratePtr(0.5)},
		{Baseline: 0.5},
		{Baseline: 0.5, Target: ratePtr(0.6), Alpha: 1.5},
		{Baseline: 0.5, Target: ratePtr(0.6), Power: 1},
		{Baseline: 0.5, N: -3},
		{Baseline: 0.5, Target: ratePtr(0.6), Paired: true, Discordant: 2},
	} {
		if _, err := PlanPower(q); !errors.Is(err, ErrPowerQuery) {
			t.Errorf("%+v: err %v, want ErrPowerQuery", q, err)
		}
	}
}

func ExamplePlanPower() {
	target := 0.9
	p, _ := PlanPower(PowerQuery{Baseline: 0.8, Target: &target, Power: 0.8, Alpha: 0.05})
	fmt.Println(p.NPerGroup, "cases per group")
	// Output: 199 cases per group
}
