package correct

import (
	"fmt"

	"github.com/evalbook/evalbook/pkg/results"
)

// ReportTitle names the two files.
func (r *Result) ReportTitle() string {
	return "Corrected pass rate: " + results.DisplayName(r.Unlabelled)
}

// Headline gives the corrected pass rate over all rows with its interval.
func (r *Result) Headline() results.Headline {
	h := results.Headline{Subject: fmt.Sprintf("judged rows %s, human labels %s · method %s", results.DisplayName(r.Unlabelled), results.DisplayName(r.Labelled), r.Method)}
	for _, e := range r.Estimates {
		label := "all rows"
		if e.Group != "" {
			label = e.Group
		}
		c := results.Card{Label: label + " (" + e.Method + ")", Value: e.Estimate, Unit: results.UnitRate, HasCI: true, Low: e.CILow, High: e.CIHigh,
			Note: fmt.Sprintf("%s labelled, %s judged", results.Commas(int64(e.NLabelled)), results.Commas(int64(e.NUnlabelled)))}
		if e.Group == "" && h.Verdict == "" {
			h.Verdict = fmt.Sprintf("Corrected for the judge's errors, the pass rate is %s (%g%% interval %s to %s).", c.Shown(), 100*r.Confidence, results.FormatUnit(results.UnitRate, e.CILow), results.FormatUnit(results.UnitRate, e.CIHigh))
		}
		if len(h.Cards) < 8 {
			h.Cards = append(h.Cards, c)
		}
	}
	if len(r.Warnings) > 0 {
		h.Tone = results.ToneWarn
		h.Notes = append(h.Notes, fmt.Sprintf("%d warnings below.", len(r.Warnings)))
	}
	return h
}
