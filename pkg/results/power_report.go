package results

import (
	"fmt"
	"strconv"

	"github.com/evalbook/evalbook/pkg/stats"
)

// ReportTitle names the plan.
func (r *Power) ReportTitle() string {
	if r.Mode == "sample_size" {
		return "Power plan: cases needed"
	}
	return "Power plan: smallest detectable change"
}

// Headline says the plan in one sentence.
func (r *Power) Headline() Headline {
	per := "cases per version"
	if r.Paired {
		per = "cases, each run by both versions"
	}
	h := Headline{Subject: r.design() + fmt.Sprintf(" · α = %g, power %s", r.Alpha, FormatUnit(UnitRate, r.Power))}
	if r.Mode == "sample_size" && r.Target != nil {
		h.Verdict = fmt.Sprintf("To tell %s from %s (%s) with %s power, run %s %s.", FormatUnit(UnitRate, *r.Target), FormatUnit(UnitRate, r.Baseline),
			FormatUnit(UnitPP, *r.Target-r.Baseline), FormatUnit(UnitRate, r.Power), Commas(int64(r.NPerGroup)), per)
	} else if r.MDE != nil {
		h.Verdict = fmt.Sprintf("With %s %s, a change of %s from %s (to %s) is detected with %s power; smaller changes may be missed.",
			Commas(int64(r.NPerGroup)), per, FormatUnit(UnitPP, *r.MDE), FormatUnit(UnitRate, r.Baseline), FormatUnit(UnitRate, *r.Detectable), FormatUnit(UnitRate, r.Power))
	} else {
		h.Verdict, h.Tone = fmt.Sprintf("With %s %s, no change from %s is detectable with %s power.", Commas(int64(r.NPerGroup)), per, FormatUnit(UnitRate, r.Baseline), FormatUnit(UnitRate, r.Power)), ToneWarn
	}
	h.Cards = []Card{{Label: "baseline", Value: r.Baseline, Unit: UnitRate}}
	if r.Target != nil {
		h.Cards = append(h.Cards, Card{Label: "target", Value: *r.Target, Unit: UnitRate})
	}
	h.Cards = append(h.Cards, Card{Label: "cases", Value: float64(r.NPerGroup), Unit: UnitCount, Note: per})
	if r.MDE != nil {
		h.Cards = append(h.Cards, Card{Label: "smallest detectable change", Value: *r.MDE, Unit: UnitPP})
	}
	if r.Mode == "sample_size" || r.Target != nil {
		h.Cards = append(h.Cards, Card{Label: "power reached", Value: r.AchievedPower, Unit: UnitRate})
	}
	return h
}

// Charts draws the power curve: with a target, the power reached as the
// cases grow (from a tenth to twice the plan's); without one, the
// smallest detectable change.
func (r *Power) Charts() []ChartSpec {
	if r.NPerGroup < 2 {
		return nil
	}
	q := stats.PowerQuery{Baseline: r.Baseline, Target: r.Target, Paired: r.Paired, Alpha: r.Alpha, Power: r.Power}
	if r.Paired && r.Discordance == "given" {
		q.Discordant = r.PBetter + r.PWorse
	}
	c := ChartSpec{Kind: ChartLine, XLabel: "cases", Series: []Series{{Name: "power"}}}
	if r.Target != nil {
		c.Title, c.Unit = "Power as the cases grow", UnitRate
		c.Note = fmt.Sprintf("the chance of detecting %s → %s at α = %g; dashed line: the wanted power", FormatUnit(UnitRate, r.Baseline), FormatUnit(UnitRate, *r.Target), r.Alpha)
		want := r.Power
		c.Reference = &want
	} else {
		c.Title, c.Unit = "Smallest detectable change as the cases grow", UnitPP
		c.Note = fmt.Sprintf("the change from %s detected with %s power at α = %g", FormatUnit(UnitRate, r.Baseline), FormatUnit(UnitRate, r.Power), r.Alpha)
		c.Series[0].Name = "detectable change"
	}
	for i := 1; i <= 20; i++ {
		n := max(2, r.NPerGroup*i/10)
		q.N = n
		p, err := stats.PlanPower(q)
		if err != nil {
			continue
		}
		pt := Point{}
		if r.Target != nil {
			pt.Value = p.AchievedPower
		} else if p.MDE != nil {
			pt.Value = *p.MDE
		} else {
			pt.Missing = true
		}
		c.Categories = append(c.Categories, strconv.Itoa(n))
		c.Series[0].Points = append(c.Series[0].Points, pt)
	}
	return []ChartSpec{c}
}
