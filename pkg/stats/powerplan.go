package stats

import (
	"errors"
	"fmt"
	"math"
)

// ErrPowerQuery is wrapped by PlanPower's errors: a query that no plan
// can answer (a rate outside [0, 1], equal rates, impossible discordance).
var ErrPowerQuery = errors.New("bad power query")

// CodeNoDetectableEffect: PlanPower found no target rate, in the
// direction searched, that the given number of cases detects with the
// requested power.
const CodeNoDetectableEffect = "no_detectable_effect"

// PowerQuery asks PlanPower for a sample size or a minimum detectable
// effect.
type PowerQuery struct {
	// Baseline is the pass rate of the current version (p1) and Target
	// that of the new one (p2). Target may be nil only when N is set.
	Baseline float64
	Target   *float64
	// Paired: both versions run on the same cases and are compared by
	// McNemar's test (PowerPaired); else on different cases by the
	// two-sample test of proportions (PowerUnpaired).
	Paired bool
	// Discordant, for Paired, is the probability that a case changes
	// outcome between the versions (better or worse). Zero means to
	// derive it as if the two outcomes of a case were independent:
	// P(better) = p2(1 − p1), P(worse) = p1(1 − p2). Real versions agree
	// on most cases, so independence overstates the discordance and the
	// sample size; give the share of flips from an earlier comparison
	// when there is one.
	Discordant float64
	// Alpha is the two-sided significance level (default 0.05) and Power
	// the wanted power (default 0.8).
	Alpha, Power float64
	// N, if positive, fixes the cases per group: PlanPower then finds the
	// minimum detectable effect instead of the sample size.
	N int
}

// PowerPlan is PlanPower's answer.
type PowerPlan struct {
	// Mode is "sample_size" (N solved for) or "mde" (effect solved for).
	Mode     string
	Baseline float64
	Target   *float64
	Paired   bool
	Alpha    float64
	Power    float64
	// Discordance says where the paired flip probabilities came from:
	// "independence" or "given"; empty when unpaired.
	Discordance string
	// PBetter and PWorse are the paired flip probabilities at the target
	// (sample_size) or at the detectable rate (mde).
	PBetter, PWorse float64
	// NPerGroup is the number of cases per group: each version's cases
	// when unpaired, the shared cases when paired.
	NPerGroup int
	// MDE is |Detectable − Baseline|, the smallest change detected with
	// the wanted power at NPerGroup cases; in sample_size mode it is the
	// planned |Target − Baseline|. Nil when no change is detectable.
	MDE        *float64
	Detectable *float64
	// AchievedPower is the power at NPerGroup cases against Target; 0
	// in mde mode without a target.
	AchievedPower float64
	Warnings      []Warning
}

// PlanPower answers a PowerQuery. Without N it returns the sample size
// per group to detect Baseline against Target (SampleSizeUnpaired, or
// SampleSizePaired with the query's flip probabilities), and the power
// that size achieves. With N it returns the minimum detectable effect:
// the target rate closest to Baseline, towards Target if given and else
// upwards, whose power at N cases reaches Power. It is found by scanning
// 2,000 steps to the edge of [0, 1] for the first rate past the wanted
// power, then bisecting to 1e-12 within that step, so it does not rely
// on the power growing steadily with the change; with none found the MDE
// is nil and CodeNoDetectableEffect is given.
//
// 0.8 against 0.9 with power 0.8 and alpha 0.05, unpaired, needs 199
// cases per group, as R's power.prop.test(p1 = 0.8, p2 = 0.9, power =
// 0.8) (198.96, rounded up). It returns an error wrapping ErrPowerQuery
// for rates outside [0, 1], equal rates without N, a level outside
// (0, 1), a negative N, or flip probabilities no pair of rates can have.
func PlanPower(q PowerQuery) (PowerPlan, error) {
	if q.Alpha == 0 {
		q.Alpha = 0.05
	}
	if q.Power == 0 {
		q.Power = 0.8
	}
	bad := func(format string, args ...any) (PowerPlan, error) {
		return PowerPlan{}, fmt.Errorf("%w: %s", ErrPowerQuery, fmt.Sprintf(format, args...))
	}
	switch {
	case !inClosedUnit(q.Baseline):
		return bad("baseline rate %v is outside [0, 1]", q.Baseline)
	case q.Target != nil && !inClosedUnit(*q.Target):
		return bad("target rate %v is outside [0, 1]", *q.Target)
	case !(q.Alpha > 0 && q.Alpha < 1):
		return bad("alpha %v is not strictly between 0 and 1", q.Alpha)
	case !(q.Power > 0 && q.Power < 1):
		return bad("power %v is not strictly between 0 and 1", q.Power)
	case q.N < 0:
		return bad("%d cases", q.N)
	case q.N == 0 && q.Target == nil:
		return bad("give a target rate, or a number of cases for the minimum detectable effect")
	case q.N == 0 && *q.Target == q.Baseline:
		return bad("baseline and target are both %v: no sample detects no change", q.Baseline)
	case !(q.Discordant >= 0 && q.Discordant <= 1):
		return bad("discordant probability %v is outside [0, 1]", q.Discordant)
	}
	p := PowerPlan{Baseline: q.Baseline, Target: q.Target, Paired: q.Paired, Alpha: q.Alpha, Power: q.Power}
	if q.Paired {
		p.Discordance = "independence"
		if q.Discordant > 0 {
			p.Discordance = "given"
		}
	}
	flips := func(p2 float64) (pb, pw float64, ok bool) { return flipProbs(q.Baseline, p2, q.Discordant) }
	power := func(n int, p2 float64) (float64, bool) {
		if !q.Paired {
			return PowerUnpaired(n, q.Baseline, p2, q.Alpha), true
		}
		pb, pw, ok := flips(p2)
		if !ok {
			return 0, false
		}
		return PowerPaired(n, pb, pw, q.Alpha), true
	}
	if q.N == 0 {
		p.Mode = "sample_size"
		p2 := *q.Target
		if q.Paired {
			pb, pw, ok := flips(p2)
			if !ok {
				return bad("a discordant probability of %v cannot go with rates %v and %v (it must be at least |p2 − p1| = %v and fit both rates)", q.Discordant, q.Baseline, p2, math.Abs(p2-q.Baseline))
			}
			p.PBetter, p.PWorse = pb, pw
			p.NPerGroup = SampleSizePaired(pb, pw, q.Alpha, q.Power)
		} else {
			p.NPerGroup = SampleSizeUnpaired(q.Baseline, p2, q.Alpha, q.Power)
		}
		p.AchievedPower, _ = power(p.NPerGroup, p2)
		d := math.Abs(p2 - q.Baseline)
		p.MDE, p.Detectable = &d, &p2
		return p, nil
	}
	p.Mode = "mde"
	p.NPerGroup = q.N
	if q.Target != nil {
		if pw, ok := power(q.N, *q.Target); ok {
			p.AchievedPower = pw
		}
	}
	dir := 1.0
	if q.Target != nil && *q.Target < q.Baseline || q.Target == nil && q.Baseline == 1 {
		dir = -1
	}
	edge := 1.0
	if dir < 0 {
		edge = 0
	}
	reaches := func(p2 float64) bool {
		pw, ok := power(q.N, p2)
		return ok && pw >= q.Power && p2 != q.Baseline
	}
	const steps = 2000
	prev := q.Baseline
	found := false
	for i := 1; i <= steps; i++ {
		x := q.Baseline + (edge-q.Baseline)*float64(i)/steps
		if reaches(x) {
			lo, hi := prev, x // lo does not reach, hi does
			for hi-lo > 1e-12 || lo-hi > 1e-12 {
				mid := lo + (hi-lo)/2
				if mid == lo || mid == hi {
					break
				}
				if reaches(mid) {
					hi = mid
				} else {
					lo = mid
				}
			}
			d := math.Abs(hi - q.Baseline)
			det := hi
			p.MDE, p.Detectable = &d, &det
			p.PBetter, p.PWorse, _ = flips(hi)
			found = true
			break
		}
		prev = x
	}
	if !q.Paired {
		p.PBetter, p.PWorse = 0, 0
	}
	if !found {
		way := "above"
		if dir < 0 {
			way = "below"
		}
		p.Warnings = append(p.Warnings, warning(CodeNoDetectableEffect,
			"no pass rate %s %v is detected with power %v at %d cases per group", way, q.Baseline, q.Power, q.N))
	}
	return p, nil
}

// flipProbs returns the paired probabilities that a case gets better
// (fails under p1, passes under p2) and worse, from the total discordance
// psi, or under independence when psi is 0. ok is false when psi cannot
// go with the two rates.
func flipProbs(p1, p2, psi float64) (pb, pw float64, ok bool) {
	if psi == 0 {
		return p2 * (1 - p1), p1 * (1 - p2), true
	}
	d := p2 - p1
	pb, pw = (psi+d)/2, (psi-d)/2
	const tol = 1e-12
	if pw < -tol || pb < -tol || pb > math.Min(1-p1, p2)+tol || pw > math.Min(p1, 1-p2)+tol {
		return 0, 0, false
	}
	return math.Max(0, pb), math.Max(0, pw), true
}

func inClosedUnit(x float64) bool { return x >= 0 && x <= 1 }
