package repeats

import (
	"fmt"
	"strconv"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
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

// maxChartItems caps the flaky items drawn beside the mean.
const maxChartItems = 20

// Charts draws the mean with its interval and, beside it, each flaky
// item's pass rate with the Wilson interval of its samples (at most
// maxChartItems), then the interval's half-width as samples per item
// grow.
func (r *Result) Charts() []results.ChartSpec {
	m := results.ChartSpec{Kind: results.ChartBars, Title: "Mean pass rate and the flaky items", Unit: results.UnitRate,
		Note:       fmt.Sprintf("bars: the pass rate; whiskers: %g%% intervals (the mean's over items and samples, each item's Wilson interval over its own samples)", 100*r.Confidence),
		Categories: []string{"mean of all items"},
		Series:     []results.Series{{Name: "pass rate", Points: []results.Point{{Value: r.Mean, HasCI: r.CIHigh > r.CILow, Low: r.CILow, High: r.CIHigh}}}}}
	drawn := 0
	for _, it := range r.PerItem {
		if !it.Flaky {
			continue
		}
		if drawn == maxChartItems {
			m.Note += fmt.Sprintf("; the first %d flaky items of %d drawn", maxChartItems, r.FlakyItems)
			break
		}
		lo, hi := stats.Wilson(it.Passes, it.Samples, r.Confidence)
		m.Categories = append(m.Categories, it.Item)
		m.Series[0].Points = append(m.Series[0].Points, results.Point{Value: it.Rate, HasCI: true, Low: lo, High: hi})
		drawn++
	}
	charts := []results.ChartSpec{m}
	if len(r.Projections) < 2 {
		return charts
	}
	c := results.ChartSpec{Kind: results.ChartLine, Title: "Precision as samples per item grow", Unit: results.UnitPP, XLabel: "samples per item",
		Note: "the half-width of the mean's interval with this many samples of each item", Series: []results.Series{{Name: "half-width"}}}
	for _, p := range r.Projections {
		c.Categories = append(c.Categories, strconv.Itoa(p.SamplesPerItem))
		c.Series[0].Points = append(c.Series[0].Points, results.Point{Value: p.HalfWidth})
	}
	return append(charts, c)
}
