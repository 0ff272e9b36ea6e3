package irt

import (
	"fmt"

	"github.com/evalbook/evalbook/pkg/results"
)

// ReportTitle names the file by its base name.
func (r *Result) ReportTitle() string {
	return "Item response theory: " + results.DisplayName(r.Source)
}

// Headline gives the fit and the top subject's estimate.
func (r *Result) Headline() results.Headline {
	h := results.Headline{Subject: fmt.Sprintf("%s · %s model · %d items, %d subjects", results.DisplayName(r.Source), r.Model, len(r.Items), len(r.Subjects))}
	h.Verdict = fmt.Sprintf("Fitted %d items over %d subjects.", len(r.Items), len(r.Subjects))
	if !r.Converged {
		h.Tone = results.ToneWarn
		h.Verdict += fmt.Sprintf(" The fit did not converge in %d iterations: read the figures with care.", r.Iterations)
	}
	for _, s := range r.Subjects {
		if len(h.Cards) == 6 {
			break
		}
		h.Cards = append(h.Cards, results.Card{Label: s.Subject, Value: s.Estimate, Unit: results.UnitRate, HasCI: s.CIHigh > s.CILow, Low: s.CILow, High: s.CIHigh,
			Note: fmt.Sprintf("%d of %d answered right", s.Right, s.Answered)})
	}
	if r.Alpha != nil {
		h.Notes = append(h.Notes, fmt.Sprintf("Cronbach's alpha %.3f over %d subjects.", *r.Alpha, r.AlphaSubjects))
	}
	return h
}

// Charts draws each subject's estimated score with its interval.
func (r *Result) Charts() []results.ChartSpec {
	c := results.ChartSpec{Kind: results.ChartBars, Title: "Estimated score per subject", Unit: results.UnitRate,
		Note:   fmt.Sprintf("bars: the expected share right of all fitted items; whiskers: %g%% intervals", 100*r.Confidence),
		Series: []results.Series{{Name: "estimate"}}}
	for _, s := range r.Subjects {
		c.Categories = append(c.Categories, s.Subject)
		c.Series[0].Points = append(c.Series[0].Points, results.Point{Value: s.Estimate, HasCI: s.CIHigh > s.CILow, Low: s.CILow, High: s.CIHigh})
	}
	if len(c.Categories) == 0 || len(c.Categories) > 60 {
		return nil
	}
	return []results.ChartSpec{c}
}
