package design

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
)

// This file gives the design results their headline and charts for the
// shared report design (results.Headliner, results.Charter).

// Headline says whether the plan has problems and, for a plan read (not
// a check decoded from JSON), counts its blocking metrics and the
// high-cost failures a blocking metric guards.
func (c *PlanCheck) Headline() results.Headline {
	h := results.Headline{Verdict: "The plan has no problems.", Tone: results.ToneGood}
	if len(c.Problems) > 0 {
		h = results.Headline{Verdict: fmt.Sprintf("The plan has %d %s: see below.", len(c.Problems), nouns(len(c.Problems), "problem", "problems")), Tone: results.ToneBad}
	}
	h.Cards = []results.Card{{Label: "problems", Value: float64(len(c.Problems)), Unit: results.UnitCount}}
	if p := c.plan; p != nil {
		block := 0
		for _, m := range p.Metrics {
			if m.Gate == "block" {
				block++
			}
		}
		high, guarded := 0, 0
		for _, f := range p.Failures {
			if f.Cost != "high" {
				continue
			}
			high++
			if m, ok := p.Metric(f.Metric); ok && m.Gate == "block" {
				guarded++
			}
		}
		h.Subject = fmt.Sprintf("dataset %s %s · %d metrics · %d failures", p.Dataset.Name, p.Dataset.Version, len(p.Metrics), len(p.Failures))
		h.Cards = append(h.Cards,
			results.Card{Label: "blocking metrics", Value: float64(block), Unit: results.UnitCount, Note: fmt.Sprintf("of %d metrics", len(p.Metrics))},
			results.Card{Label: "high-cost failures guarded", Value: float64(guarded), Unit: results.UnitCount, Note: fmt.Sprintf("of %d, by a blocking metric", high)})
	}
	return h
}

// Charts draws the threshold of each of the plan's metrics, the side
// that passes and whether it blocks a release beside it; a metric with
// no threshold is an empty place marked so. A check decoded from JSON
// (no plan) draws none.
func (c *PlanCheck) Charts() []results.ChartSpec {
	if c.plan == nil || len(c.plan.Metrics) == 0 {
		return nil
	}
	zero, one := 0.0, 1.0
	ch := results.ChartSpec{Kind: results.ChartBars, Title: "Thresholds the plan gates on", Unit: results.UnitRate, Min: &zero, Max: &one,
		Note:   "each metric's threshold on its share of cases: a run passes at or above it (at or below for an “at most” metric); “blocks”: a miss stops the release, “report only”: it is shown",
		Series: []results.Series{{Name: "threshold"}}}
	for _, m := range c.plan.Metrics {
		gate := "report only"
		if m.Gate == "block" {
			gate = "blocks"
		}
		pt := results.Point{Missing: true, Mark: "no threshold, " + gate}
		if m.Threshold != nil {
			if m.Direction == "max" {
				gate = "at most, " + gate
			}
			pt = results.Point{Value: *m.Threshold, Mark: gate}
		}
		ch.Categories = append(ch.Categories, m.Name)
		ch.Series[0].Points = append(ch.Series[0].Points, pt)
	}
	return []results.ChartSpec{ch}
}

// Headline is the plan gate's decision as a badge and in words.
func (v *GateDecision) Headline() results.Headline {
	h := results.Headline{Badge: "RELEASE", Tone: results.ToneGood, Verdict: "Every gated metric passes its threshold."}
	if !v.Release {
		h.Badge, h.Tone = "NO RELEASE", results.ToneBad
		h.Verdict = fmt.Sprintf("No release: %d %s.", len(v.Reasons), nouns(len(v.Reasons), "reason", "reasons"))
		h.Notes = append(h.Notes, v.Reasons...)
	}
	for _, r := range v.Metrics {
		if r.Value == nil || len(h.Cards) == 8 {
			continue
		}
		c := results.Card{Label: r.Metric, Value: *r.Value, Unit: results.UnitRate}
		c.Low, c.High, c.HasCI = r.interval()
		cells := r.cells()
		c.Note = r.threshold() + " · " + cells[6]
		if r.Threshold == nil {
			c.Note = cells[6]
		}
		if r.N > 0 {
			c.Note += " · n " + strconv.Itoa(r.N)
		}
		h.Cards = append(h.Cards, c)
	}
	if h.Cards != nil {
		h.Notes = append(h.Notes, "Intervals are 95% Wilson intervals of each share of cases; the gate compares the measured value with its threshold.")
	}
	return h
}

// interval is the 95% Wilson interval of the row's value as a share of
// its N cases (every plan metric is one: MinThreshold, MaxThreshold),
// which holds at small n (7 cases) where the normal one does not; ok is
// false when the value is not measured or is not k/N for a whole k.
func (r GateRow) interval() (lo, hi float64, ok bool) {
	if r.Value == nil || r.N <= 0 {
		return 0, 0, false
	}
	k := math.Round(*r.Value * float64(r.N))
	if math.Abs(k-*r.Value*float64(r.N)) > 1e-6 || k < 0 || k > float64(r.N) {
		return 0, 0, false
	}
	lo, hi = stats.Wilson(int(k), r.N, 0.95)
	return lo, hi, true
}

// Charts draws each measured metric's value with its Wilson interval,
// its threshold and result beside it.
func (v *GateDecision) Charts() []results.ChartSpec {
	zero, one := 0.0, 1.0
	c := results.ChartSpec{Kind: results.ChartBars, Title: "Gated metrics", Unit: results.UnitRate, Min: &zero, Max: &one,
		Note:   "each metric's measured share of cases with its 95% Wilson interval (whiskers), its threshold and result beside it",
		Series: []results.Series{{Name: "value"}}}
	for _, r := range v.Metrics {
		if r.Value == nil {
			continue
		}
		lo, hi, ok := r.interval()
		cells := r.cells()
		c.Categories = append(c.Categories, r.Metric)
		c.Series[0].Points = append(c.Series[0].Points, results.Point{Value: *r.Value, HasCI: ok, Low: lo, High: hi, Mark: strings.TrimSpace(r.threshold() + " " + cells[6])})
	}
	if len(c.Categories) == 0 {
		return nil
	}
	return []results.ChartSpec{c}
}

// ReportTitle names the matrix.
func (r *CoverageReport) ReportTitle() string {
	return "Coverage: " + r.Coverage.Rows + " × " + r.Coverage.Cols
}

// Headline counts the thin and empty cells.
func (r *CoverageReport) Headline() results.Headline {
	cov := r.Coverage
	cells := len(cov.RowValues) * len(cov.ColValues)
	h := results.Headline{Subject: fmt.Sprintf("%d %s · hash %s", r.N, nouns(r.N, "case", "cases"), r.Hash)}
	switch {
	case len(cov.Empty) > 0:
		h.Verdict, h.Tone = fmt.Sprintf("%d of %d cells %s empty and %d more %s fewer than %d cases: no figure can be reported for the empty ones.",
			len(cov.Empty), cells, verb(len(cov.Empty), "is", "are"), len(cov.UnderMin)-len(cov.Empty), verb(len(cov.UnderMin)-len(cov.Empty), "holds", "hold"), cov.Min), results.ToneBad
	case len(cov.UnderMin) > 0:
		h.Verdict, h.Tone = fmt.Sprintf("%d of %d cells %s fewer than %d cases: their figures will be rough.", len(cov.UnderMin), cells, verb(len(cov.UnderMin), "holds", "hold"), cov.Min), results.ToneWarn
	default:
		h.Verdict, h.Tone = fmt.Sprintf("Every one of the %d cells holds at least %d cases.", cells, cov.Min), results.ToneGood
	}
	h.Cards = []results.Card{
		{Label: "cases", Value: float64(r.N), Unit: results.UnitCount},
		{Label: "cells", Value: float64(cells), Unit: results.UnitCount, Note: fmt.Sprintf("%d %s × %d %s", len(cov.RowValues), cov.Rows, len(cov.ColValues), cov.Cols)},
		{Label: "thin cells", Value: float64(len(cov.UnderMin)), Unit: results.UnitCount, Note: fmt.Sprintf("fewer than %d cases", cov.Min)},
		{Label: "empty cells", Value: float64(len(cov.Empty)), Unit: results.UnitCount},
	}
	return h
}

// Charts draws the matrix as a heatmap of counts.
func (r *CoverageReport) Charts() []results.ChartSpec {
	cov := r.Coverage
	c := results.ChartSpec{Kind: results.ChartHeatmap, Title: "Cases per cell", Unit: results.UnitCount,
		Note: fmt.Sprintf("cases in each %s × %s cell; ! marks a cell with fewer than %d", cov.Rows, cov.Cols, cov.Min),
		Rows: cov.RowValues, Columns: cov.ColValues}
	for i := range cov.RowValues {
		row := make([]float64, len(cov.ColValues))
		marks := make([]string, len(cov.ColValues))
		for j := range cov.ColValues {
			row[j] = float64(cov.Counts[i][j])
			if cov.Counts[i][j] < cov.Min {
				marks[j] = " !"
			}
		}
		c.Cells = append(c.Cells, row)
		c.Marks = append(c.Marks, marks)
	}
	if len(c.Cells) == 0 {
		return nil
	}
	return []results.ChartSpec{c}
}

// verb is one or many's form of a verb for a count of n.
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
