package interop

import (
	"fmt"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
)

// ReportTitle names the harness output by its base name.
func (s *Summary) ReportTitle() string {
	return "Imported " + s.Format + " output: " + results.DisplayName(s.Source)
}

// taskName is a task as a report labels it: model / task when the run
// holds several models.
func (t SummaryTask) label() string {
	if t.Model != "" {
		return t.Model + " / " + t.Task
	}
	return t.Task
}

func (m SummaryMetric) unit() string {
	if m.Interval == "wilson" {
		return results.UnitRate
	}
	return results.UnitNumber
}

// Headline says what was read and gives each task's first metric with
// its interval.
func (s *Summary) Headline() results.Headline {
	h := results.Headline{Subject: fmt.Sprintf("%s output %s · %s records in %d file(s) · %d reported figures",
		s.Format, results.DisplayName(s.Source), results.Commas(int64(s.Records)), len(s.Files), s.Reported)}
	if s.Model != "" {
		h.Subject = "model " + s.Model + " · " + h.Subject
	}
	h.Verdict = fmt.Sprintf("Read %s per-sample records over %d tasks; each task's means below carry 95%% intervals.", results.Commas(int64(s.Records)), len(s.Tasks))
	for _, t := range s.Tasks {
		if len(t.Metrics) == 0 {
			h.Notes = append(h.Notes, fmt.Sprintf("%s has %d samples but no per-sample metric.", t.label(), t.N))
		}
	}
	if s.Partial {
		h.Tone = results.ToneWarn
		h.Notes = append(h.Notes, "The log was still being written: what was flushed is read.")
	}
	if s.Reported > 0 {
		h.Notes = append(h.Notes, "evalbook import --check recomputes the harness's reported figures from these records.")
	}
	for _, t := range s.Tasks {
		if len(h.Cards) == 8 {
			h.Notes = append(h.Notes, fmt.Sprintf("%d more tasks in the table.", len(s.Tasks)-8))
			break
		}
		if len(t.Metrics) == 0 {
			continue
		}
		m := t.Metrics[0]
		h.Cards = append(h.Cards, results.Card{Label: t.label() + ": " + m.Name, Value: m.Mean, Unit: m.unit(), HasCI: m.Interval != "none", Low: m.CILow, High: m.CIHigh,
			Note: fmt.Sprintf("%s samples", results.Commas(int64(m.N)))})
	}
	return h
}

// Charts draws each task's means with their intervals: one bar per
// task and metric.
func (s *Summary) Charts() []results.ChartSpec {
	// One chart per unit: a chart has one axis, and a rate (a mean of
	// 0/1 values, shown as 60.0% on its card) must not share an axis of
	// plain numbers 0 to 1 with a mean of scores.
	rates := results.ChartSpec{Kind: results.ChartBars, Title: "Mean per task", Unit: results.UnitRate,
		Note: "the share of samples scored 1 (metrics of 0/1 values); whiskers: 95% Wilson intervals", Series: []results.Series{{Name: "mean"}}}
	others := results.ChartSpec{Kind: results.ChartBars, Title: "Mean per task", Unit: results.UnitNumber,
		Note: "the mean of the per-sample values; whiskers: 95% intervals (mean ± 1.96·sd/√n)", Series: []results.Series{{Name: "mean"}}}
	for _, t := range s.Tasks {
		for _, m := range t.Metrics {
			c := &others
			if m.unit() == results.UnitRate {
				c = &rates
			}
			c.Categories = append(c.Categories, t.label()+" · "+m.Name)
			c.Series[0].Points = append(c.Series[0].Points, results.Point{Value: m.Mean, HasCI: m.Interval != "none", Low: m.CILow, High: m.CIHigh})
		}
	}
	if len(rates.Categories) > 0 && len(others.Categories) > 0 {
		rates.Title, others.Title = "Rate per task (0/1 metrics)", "Mean per task (other metrics)"
	}
	var out []results.ChartSpec
	for _, c := range []results.ChartSpec{rates, others} {
		if len(c.Categories) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// ReportTitle names the harness output by its base name.
func (c *CheckReport) ReportTitle() string {
	return "Check of " + c.Format + " output: " + results.DisplayName(c.Source)
}

// Headline is the check's status as a badge and its message.
func (c *CheckReport) Headline() results.Headline {
	h := results.Headline{Subject: fmt.Sprintf("%s output %s · %s records · %d figures recomputed, %d not", c.Format, results.DisplayName(c.Source), results.Commas(int64(c.Records)), len(c.Tasks), len(c.Skipped)),
		Verdict: c.Message}
	switch c.Status {
	case StatusMatch:
		h.Badge, h.Tone = "MATCH", results.ToneGood
	case StatusDiffers:
		h.Badge, h.Tone = "DIFFERS", results.ToneBad
	default:
		h.Badge, h.Tone = strings.ToUpper(c.Status), results.ToneWarn
	}
	match := 0
	for _, t := range c.Tasks {
		if t.Match {
			match++
		}
	}
	h.Cards = []results.Card{
		{Label: "figures that match", Value: float64(match), Unit: results.UnitCount, Note: fmt.Sprintf("of %s recomputed", results.Commas(int64(len(c.Tasks))))},
		{Label: "not recomputed", Value: float64(len(c.Skipped)), Unit: results.UnitCount},
	}
	return h
}
