package mc

import (
	"fmt"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
)

// ReportTitle names the prediction file by its base name.
func (r *Report) ReportTitle() string {
	if r.Source == "" {
		return "Multiple choice"
	}
	return "Multiple choice: " + results.DisplayName(r.Source)
}

// Headline gives each metric over all questions with its interval.
func (r *Report) Headline() results.Headline {
	level := fmt.Sprintf("%g%%", 100*r.Settings.Confidence)
	h := results.Headline{Subject: fmt.Sprintf("%s questions · %d languages · %d subjects", results.Commas(int64(r.Overall.N)), len(r.Languages), len(r.Subjects))}
	if r.Hash != "" {
		h.Subject += " · hash " + r.Hash
	}
	var parts []string
	for _, m := range r.Metrics {
		x, ok := r.Overall.Metrics[m]
		if !ok {
			continue
		}
		unit := results.UnitRate
		parts = append(parts, fmt.Sprintf("%s %s (%s interval %s to %s)", m, results.FormatUnit(unit, x.Value), level, results.FormatUnit(unit, x.CILow), results.FormatUnit(unit, x.CIHigh)))
		h.Cards = append(h.Cards, results.Card{Label: m, Value: x.Value, Unit: unit, HasCI: true, Low: x.CILow, High: x.CIHigh, Note: x.Method})
	}
	h.Verdict = "Over all questions: " + strings.Join(parts, "; ") + "."
	if len(r.Warnings) > 0 {
		h.Tone = results.ToneWarn
		h.Notes = append(h.Notes, fmt.Sprintf("%d warnings below: read them before quoting the figures.", len(r.Warnings)))
	}
	return h
}

// Charts draws the first metric by language and by subject, with the
// intervals.
func (r *Report) Charts() []results.ChartSpec {
	if len(r.Metrics) == 0 {
		return nil
	}
	var out []results.ChartSpec
	for _, sec := range []struct {
		title  string
		groups []Group
	}{{"by language", r.Languages}, {"by subject", r.Subjects}} {
		if len(sec.groups) == 0 {
			continue
		}
		c := results.ChartSpec{Kind: results.ChartBars, Title: strings.Join(r.Metrics[:min(len(r.Metrics), 2)], " and ") + " " + sec.title, Unit: results.UnitRate,
			Note: fmt.Sprintf("bars: the figure; whiskers: %g%% intervals", 100*r.Settings.Confidence)}
		for _, m := range r.Metrics[:min(len(r.Metrics), 2)] {
			s := results.Series{Name: m}
			for _, g := range sec.groups {
				x, ok := g.Metrics[m]
				s.Points = append(s.Points, results.Point{Value: x.Value, HasCI: ok, Low: x.CILow, High: x.CIHigh, Missing: !ok})
			}
			c.Series = append(c.Series, s)
		}
		for _, g := range sec.groups {
			c.Categories = append(c.Categories, g.Group)
		}
		out = append(out, c)
	}
	return out
}
