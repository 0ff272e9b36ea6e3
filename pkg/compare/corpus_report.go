package compare

import (
	"fmt"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
)

// ReportTitle names the two files by their base names.
func (r *CorpusComparison) ReportTitle() string {
	return "Corpus " + r.Metric + ": " + results.DisplayName(r.Old) + " → " + results.DisplayName(r.New)
}

// Headline says whether the paired tests separate the two systems.
func (r *CorpusComparison) Headline() results.Headline {
	h := results.Headline{Subject: fmt.Sprintf("%s → %s · corpus %s over %s segments · references: %s", results.DisplayName(r.Old), results.DisplayName(r.New), r.Metric, results.Commas(int64(r.N)), r.References)}
	var ps []string
	sig := len(r.Tests) > 0
	for _, t := range r.Tests {
		ps = append(ps, t.Method+" "+results.PValueText(t.P))
		sig = sig && t.P < 0.05
	}
	change := fmt.Sprintf("%s %.2f → %.2f (%+.2f)", r.Metric, r.OldScore, r.NewScore, r.Diff)
	switch {
	case sig && r.Diff > 0:
		h.Verdict, h.Tone = "The new system is better: "+change+"; "+strings.Join(ps, ", ")+".", results.ToneGood
	case sig && r.Diff < 0:
		h.Verdict, h.Tone = "The new system is worse: "+change+"; "+strings.Join(ps, ", ")+".", results.ToneBad
	default:
		h.Verdict = "No clear difference: " + change + "; " + strings.Join(ps, ", ") + " (not below 0.05)."
	}
	h.Cards = []results.Card{
		{Label: "old " + r.Metric, Value: r.OldScore, Unit: results.UnitNumber, Note: results.DisplayName(r.Old)},
		{Label: "new " + r.Metric, Value: r.NewScore, Unit: results.UnitNumber, Note: results.DisplayName(r.New)},
		{Label: "change", Value: r.Diff, Unit: results.UnitNumber, Note: "new − old"},
	}
	for _, t := range r.Tests {
		h.Cards = append(h.Cards, results.Card{Label: t.Method + " p", Value: t.P, Unit: results.UnitP, Note: fmt.Sprintf("%s samples", results.Commas(int64(t.Samples)))})
	}
	return h
}

// Charts draws both systems' scores, with paired-bs's 95% half-widths
// when it ran.
func (r *CorpusComparison) Charts() []results.ChartSpec {
	c := results.ChartSpec{Kind: results.ChartBars, Title: "Corpus " + r.Metric, Unit: results.UnitNumber,
		Note: "dot: the corpus score; whisker: the bootstrap mean ± its 95% half-width (paired-bs), when it ran", Series: []results.Series{{Name: r.Metric}},
		Categories: []string{"old: " + results.DisplayName(r.Old), "new: " + results.DisplayName(r.New)}}
	old, nw := results.Point{Value: r.OldScore}, results.Point{Value: r.NewScore}
	for _, t := range r.Tests {
		if t.OldMean != nil && t.OldCI != nil && t.NewMean != nil && t.NewCI != nil {
			old.HasCI, old.Low, old.High = true, *t.OldMean-*t.OldCI, *t.OldMean+*t.OldCI
			nw.HasCI, nw.Low, nw.High = true, *t.NewMean-*t.NewCI, *t.NewMean+*t.NewCI
		}
	}
	c.Series[0].Points = []results.Point{old, nw}
	return []results.ChartSpec{c}
}
