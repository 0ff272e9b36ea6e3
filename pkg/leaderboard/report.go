package leaderboard

import (
	"fmt"
	"math"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
)

// This file gives the boards their headline and charts for the shared
// report design (results.Headliner, results.Charter): the models ×
// languages grid first, coloured by value, with each cell's interval,
// tier and a * where the leader's lead is significant.

// unit is the unit of the board's values: a rate when every value and
// bound lies in [0, 1], else a plain number.
func (b *Board) unit() string {
	for _, c := range b.Cells {
		if c.Value < 0 || c.Value > 1 || c.CIHigh > 1 || c.CILow < 0 {
			return results.UnitNumber
		}
	}
	return results.UnitRate
}

// ReportTitle names the boards' metrics.
func (bs Boards) ReportTitle() string {
	var ids []string
	for _, b := range bs {
		ids = append(ids, b.Metric.ID)
	}
	return "Leaderboard: " + strings.Join(ids, ", ")
}

// Headline names the leader of each language (or task) of the first
// board and whether its lead is significant.
func (bs Boards) Headline() results.Headline {
	h := results.Headline{}
	if len(bs) == 0 {
		return h
	}
	b := bs[0]
	one, many := b.axisNouns()
	h.Subject = fmt.Sprintf("%s (%s) · %s × %s", b.Metric.ID, b.Metric.Name, plural(len(b.Models), "model", "models"), plural(len(b.Languages), one, many))
	unit := b.unit()
	sig := 0
	wins := map[string]int{}
	for _, ld := range b.Leaders {
		if ld.Significant {
			sig++
			wins[ld.Best]++
		}
	}
	switch {
	case len(b.Leaders) == 0:
		h.Verdict = "One model per " + one + ": nothing to rank."
	case sig == 0:
		h.Verdict = fmt.Sprintf("No model leads significantly in any %s: each leader's margin over the runner-up is within the noise (sign test, α = %g).", one, b.Settings.Alpha)
	default:
		top, n := "", 0
		for _, m := range b.Models {
			if wins[m] > n {
				top, n = m, wins[m]
			}
		}
		h.Verdict = fmt.Sprintf("%s leads significantly in %d of %d %s; %d %s have no significant leader.", top, n, len(b.Leaders), many, len(b.Leaders)-sig, many)
		if n != sig {
			h.Verdict = fmt.Sprintf("Significant leaders in %d of %d %s, %s the most often (%d).", sig, len(b.Leaders), many, top, n)
		}
		h.Tone = results.ToneGood
	}
	for _, ld := range b.Leaders {
		note := fmt.Sprintf("%s ahead of %s (%s), sign test %s", results.FormatUnit(unit, ld.BestValue), ld.RunnerUp, results.FormatUnit(unit, ld.RunnerValue), results.PValueText(ld.P))
		label := "best in " + ld.Language
		if !ld.Significant {
			label = "ahead in " + ld.Language + " (not significant)"
		}
		h.Cards = append(h.Cards, results.Card{Label: label, Text: ld.Best, Note: note})
		if len(h.Cards) == 8 {
			h.Notes = append(h.Notes, fmt.Sprintf("%d more %s in the Leaders table.", len(b.Leaders)-8, many))
			break
		}
	}
	for _, o := range bs[1:] {
		h.Notes = append(h.Notes, "Also ranked by "+o.Metric.ID+": see its grid below.")
	}
	return h
}

// Charts draws each board's grid (a heatmap of the values, with each
// cell's interval and tier and a * on a significant leader) and, when
// the grid is small enough to read as bars, each model's value with its
// interval per language.
func (bs Boards) Charts() []results.ChartSpec {
	var out []results.ChartSpec
	for _, b := range bs {
		out = append(out, b.Charts()...)
	}
	return out
}

// Charts draws one board's grid and bars.
func (b *Board) Charts() []results.ChartSpec {
	one, _ := b.axisNouns()
	unit := b.unit()
	ivText := "no intervals"
	if b.Settings.Interval != "none" {
		ivText = fmt.Sprintf("%.0f%% %s interval", b.Settings.Confidence*100, b.Settings.Interval)
	}
	grid := results.ChartSpec{Kind: results.ChartHeatmap, Title: fmt.Sprintf("%s: models × %ss", b.Metric.ID, one), Unit: unit,
		Note: fmt.Sprintf("each cell: the value (darker is higher), * where the %s's leader is significantly ahead of the runner-up (sign test, α = %g); below it the %s and the tier (T1: not separable from the best)",
			one, b.Settings.Alpha, ivText),
		Rows: b.Models, Columns: b.Languages}
	bars := results.ChartSpec{Kind: results.ChartBars, Title: fmt.Sprintf("%s by %s, with intervals", b.Metric.ID, one), Unit: unit,
		Note: "bars: each model's value; whiskers: the " + ivText, Categories: b.Languages}
	for _, m := range b.Models {
		row := make([]float64, len(b.Languages))
		marks := make([]string, len(b.Languages))
		sub := make([]string, len(b.Languages))
		s := results.Series{Name: m}
		for j, l := range b.Languages {
			c, ok := b.cell(m, l)
			if !ok {
				row[j] = math.NaN()
				s.Points = append(s.Points, results.Point{Missing: true})
				continue
			}
			row[j] = c.Value
			if c.Best {
				marks[j] = " *"
			}
			var parts []string
			if b.Settings.Interval != "none" {
				parts = append(parts, ivShort(unit, c.CILow, c.CIHigh))
			}
			if c.Tier > 0 {
				parts = append(parts, fmt.Sprintf("T%d", c.Tier))
			}
			sub[j] = strings.Join(parts, " · ")
			p := results.Point{Value: c.Value, HasCI: b.Settings.Interval != "none", Low: c.CILow, High: c.CIHigh}
			if c.Best {
				p.Mark = "*"
			}
			s.Points = append(s.Points, p)
		}
		grid.Cells = append(grid.Cells, row)
		grid.Marks = append(grid.Marks, marks)
		grid.Sub = append(grid.Sub, sub)
		bars.Series = append(bars.Series, s)
	}
	out := []results.ChartSpec{grid}
	if len(b.Models)*len(b.Languages) <= 48 {
		out = append(out, bars)
	}
	return out
}

// ivShort is an interval in a narrow cell: "58–67%" for rates.
func ivShort(unit string, lo, hi float64) string {
	if unit == results.UnitRate {
		return fmt.Sprintf("%.0f–%.0f%%", 100*lo, 100*hi)
	}
	return results.FormatUnit(unit, lo) + "–" + results.FormatUnit(unit, hi)
}
