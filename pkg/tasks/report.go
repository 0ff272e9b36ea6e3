package tasks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
)

// This file gives a task run its headline, charts and per-sample view for
// the shared report design (results.Headliner, results.Charter).

// metricID is m's id with its k ("pass@3").
func (m Metric) metricID() string {
	if m.K > 0 {
		return strings.Replace(m.ID, "@k", "@"+strconv.Itoa(m.K), 1)
	}
	return m.ID
}

// hasInterval reports whether m's interval says something: a bootstrap
// over items whose values are all alike (pass@3 of 0 on every item)
// has no width, and is not an interval (it would read "0.0% to 0.0%").
func (m Metric) hasInterval() bool { return m.CIHigh > m.CILow }

// ReportTitle names the model.
func (r *Result) ReportTitle() string {
	t := "Task run: " + r.Model
	if r.Shard != "" {
		t += " (shard " + r.Shard + ")"
	}
	return t
}

// Headline gives each task's first metric with its interval.
func (r *Result) Headline() results.Headline {
	h := results.Headline{Subject: fmt.Sprintf("model %s · %s items (%d failed) · seed %d", r.Model, results.Commas(int64(r.Samples)), r.Failed, r.Seed)}
	if r.Cost != nil && r.Cost.Amount != nil {
		h.Subject += fmt.Sprintf(" · cost %.4f %s", *r.Cost.Amount, r.Cost.Currency)
	}
	var parts []string
	for _, tr := range r.Tasks {
		if len(tr.Metrics) == 0 {
			continue
		}
		m := tr.Metrics[0]
		parts = append(parts, fmt.Sprintf("%s %s %s", tr.Task, m.metricID(), results.FormatUnit(results.UnitRate, m.Value)))
		if len(h.Cards) < 8 {
			c := results.Card{Label: tr.Task + ": " + m.metricID(), Value: m.Value, Unit: results.UnitRate, HasCI: m.hasInterval(), Low: m.CILow, High: m.CIHigh,
				Note: fmt.Sprintf("%s items", results.Commas(int64(m.N)))}
			if !m.hasInterval() {
				c.Note += "; no interval (every item alike)"
			}
			h.Cards = append(h.Cards, c)
		}
	}
	h.Verdict = strings.Join(parts, "; ") + "."
	if len(parts) == 0 {
		h.Verdict = "No task was scored."
	}
	if r.Failed > 0 {
		h.Tone = results.ToneWarn
		h.Notes = append(h.Notes, fmt.Sprintf("%d items failed after retries and are left out of every figure.", r.Failed))
	}
	return h
}

// Charts draws every task's metrics with their intervals.
func (r *Result) Charts() []results.ChartSpec {
	c := results.ChartSpec{Kind: results.ChartBars, Title: "Figures per task", Unit: results.UnitRate,
		Note:   fmt.Sprintf("bars: each metric over the task's items; whiskers: %g%% intervals (none where every item scored alike)", 100*r.Confidence),
		Series: []results.Series{{Name: "value"}}}
	for _, tr := range r.Tasks {
		for _, m := range tr.Metrics {
			c.Categories = append(c.Categories, tr.Task+" · "+m.metricID())
			c.Series[0].Points = append(c.Series[0].Points, results.Point{Value: m.Value, HasCI: m.hasInterval(), Low: m.CILow, High: m.CIHigh})
		}
	}
	if len(c.Categories) == 0 {
		return nil
	}
	return []results.ChartSpec{c}
}

// SampleTable is the per-sample view of a run: one row per item with its
// task, id, golden answer, the model's first response (or the choice it
// picked), its extracted answer and its value per metric; at most max
// rows (0: all), long text clipped to 500 characters.
func SampleTable(d *Details, max int) (results.Table, error) {
	t := results.Table{Title: "Samples", Note: "one row per item: the golden answer, the model's reply (the first sample of a generative task; the choice picked by acc for a log-likelihood one), the answer extracted from it, and the item's value per metric",
		Columns: []results.Column{{Name: "task"}, {Name: "id"}, {Name: "golden"}, {Name: "reply"}, {Name: "extracted"}, {Name: "metric values"}, {Name: "error"}}}
	outs, err := Outcomes(d)
	if err != nil {
		return t, err
	}
	clip := func(s string) string {
		if len(s) <= 500 {
			return s
		}
		k := 0
		for i := range s {
			if k == 499 {
				return s[:i] + "…"
			}
			k++
		}
		return s
	}
	for i, o := range outs {
		if max > 0 && i == max {
			t.Note += fmt.Sprintf(" (the first %s of %s items)", results.Commas(int64(max)), results.Commas(int64(len(outs))))
			break
		}
		s := o.Sample
		golden := s.Golden
		if golden == "" && s.Gold >= 0 && s.Gold < len(s.Choices) {
			golden = s.Choices[s.Gold]
		}
		reply, extracted := "", ""
		if len(s.Response) > 0 {
			reply = s.Response[0].Text
			if x := s.Response[0].Extracted; x != nil {
				extracted = *x
			}
		} else if len(s.Scored) > 0 && len(s.Choices) > 0 {
			acc, _ := s.Picks()
			if acc < len(s.Choices) {
				reply = s.Choices[acc]
			}
		}
		var vals []string
		for k, m := range o.Metrics {
			if k < len(o.Values) {
				vals = append(vals, m+" "+strconv.FormatFloat(o.Values[k], 'g', 4, 64))
			}
		}
		t.Rows = append(t.Rows, []string{s.Task, s.ID, clip(golden), clip(reply), clip(extracted), strings.Join(vals, ", "), s.Error})
	}
	return t, nil
}

// RunReport is a Result with its per-sample view, for a workbook and a
// page: its JSON and text are the Result's.
type RunReport struct {
	*Result
	Samples results.Table `json:"-"`
}

// Tables are the Result's and the samples.
func (r *RunReport) Tables() []results.Table {
	ts := r.Result.Tables()
	if len(r.Samples.Rows) == 0 {
		return ts
	}
	return append(ts[:1:1], append([]results.Table{r.Samples}, ts[1:]...)...)
}
