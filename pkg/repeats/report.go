package repeats

import (
	"fmt"
	"strconv"

	"github.com/evalbook/evalbook/pkg/results"
)

// ReportTitle names the file by its base name.
func (r *Result) ReportTitle() string { return "Repeated samples: " + results.DisplayName(r.Source) }

// Headline gives the mean with its interval and the flaky items.
func (r *Result) Headline() results.Headline {
	h := results.Headline{Subject: fmt.Sprintf("%s · %s items × %s samples", results.DisplayName(r.Source), results.Commas(int64(r.Items)), results.Commas(int64(r.Samples)))}
	h.Verdict = fmt.Sprintf("Mean %s (%g%% interval %s to %s); %d of %d items are flaky (their samples disagree).", results.FormatUnit(results.UnitRate, r.Mean), 100*r.Confidence,
		results.FormatUnit(results.UnitRate, r.CILow), results.FormatUnit(results.UnitRate, r.CIHigh), r.FlakyItems, r.Items)
	if r.FlakyItems > 0 {
		h.Tone = results.ToneWarn
	}
	h.Cards = []results.Card{
		{Label: "mean", Value: r.Mean, Unit: results.UnitRate, HasCI: true, Low: r.CILow, High: r.CIHigh},
		{Label: "flaky items", Value: float64(r.FlakyItems), Unit: results.UnitCount},
		{Label: "mean stability", Value: r.MeanStability, Unit: results.UnitRate, Note: "share of samples agreeing with the item's majority"},
	}
	return h
}

// Charts draws the interval's half-width as samples per item grow.
func (r *Result) Charts() []results.ChartSpec {
	if len(r.Projections) < 2 {
		return nil
	}
	c := results.ChartSpec{Kind: results.ChartLine, Title: "Precision as samples per item grow", Unit: results.UnitPP, XLabel: "samples per item",
		Note: "the half-width of the mean's interval with this many samples of each item", Series: []results.Series{{Name: "half-width"}}}
	for _, p := range r.Projections {
		c.Categories = append(c.Categories, strconv.Itoa(p.SamplesPerItem))
		c.Series[0].Points = append(c.Series[0].Points, results.Point{Value: p.HalfWidth})
	}
	return []results.ChartSpec{c}
}
