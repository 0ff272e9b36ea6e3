package jury

import (
	"fmt"

	"github.com/evalbook/evalbook/pkg/results"
)

// ReportTitle names the verdict file by its base name.
func (r *Result) ReportTitle() string { return "Jury: " + results.DisplayName(r.Source) }

// Headline gives the classes' shares and each rater's accuracy.
func (r *Result) Headline() results.Headline {
	h := results.Headline{Subject: fmt.Sprintf("%s · method %s · %d items, %d labels (%d errored)", results.DisplayName(r.Source), r.Method, len(r.Items), r.Labels, r.Errored)}
	best, bestAcc := "", -1.0
	for _, ra := range r.Raters {
		if ra.Accuracy != nil && *ra.Accuracy > bestAcc {
			best, bestAcc = ra.Rater, *ra.Accuracy
		}
	}
	h.Verdict = fmt.Sprintf("%d items labelled by %d raters; %d ties.", len(r.Items), len(r.Raters), len(r.Ties))
	if best != "" {
		h.Verdict = fmt.Sprintf("The most accurate rater is %s (%s of its labels match the item's class); %d of %d items are ties.", best, results.FormatUnit(results.UnitRate, bestAcc), len(r.Ties), len(r.Items))
	}
	if r.Method == "dawid-skene" && !r.Converged {
		h.Tone = results.ToneWarn
		h.Notes = append(h.Notes, fmt.Sprintf("Dawid-Skene did not converge in %d iterations.", r.Iterations))
	}
	for i, c := range r.Classes {
		if i < len(r.Marginals) && len(h.Cards) < 8 {
			h.Cards = append(h.Cards, results.Card{Label: "class " + c, Value: r.Marginals[i], Unit: results.UnitRate, Note: "share of items"})
		}
	}
	return h
}

// Charts draws each rater's accuracy.
func (r *Result) Charts() []results.ChartSpec {
	c := results.ChartSpec{Kind: results.ChartBars, Title: "Rater accuracy", Unit: results.UnitRate, Note: "the share of a rater's labels that match the item's class", Series: []results.Series{{Name: "accuracy"}}}
	for _, ra := range r.Raters {
		c.Categories = append(c.Categories, ra.Rater)
		p := results.Point{Missing: ra.Accuracy == nil}
		if ra.Accuracy != nil {
			p.Value = *ra.Accuracy
		}
		c.Series[0].Points = append(c.Series[0].Points, p)
	}
	if len(c.Categories) == 0 {
		return nil
	}
	return []results.ChartSpec{c}
}
