package store

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
)

// This file gives the run store's results their headline and charts for
// the shared report design (results.Headliner, results.Charter,
// results.Titled): gate, history, runs diff and aa.

// label names a run as a report shows it: its title, else its model,
// else its command, with its id.
func (r RunRef) label() string {
	name := r.Title
	if name == "" {
		name = r.Model
	}
	if name == "" {
		name = r.Command
	}
	if name == "" {
		return "run " + strconv.FormatInt(r.ID, 10)
	}
	return fmt.Sprintf("run %d “%s”", r.ID, show(name))
}

// ReportTitle names the gate by its runs.
func (g *GateResult) ReportTitle() string {
	return "Release gate: " + g.Candidate.label() + " against " + g.Baseline.label()
}

// Headline is the gate's decision as a badge (RELEASE, NO RELEASE, or
// NOT DECIDED when a sequential gate needs more rows) and in words.
func (g *GateResult) Headline() results.Headline {
	level := confText(g.Confidence)
	h := results.Headline{Badge: "RELEASE", Tone: results.ToneGood,
		Subject: fmt.Sprintf("baseline %s → candidate %s · metric %s · margin %s", g.Baseline.label(), g.Candidate.label(), show(g.Metric), results.FormatUnit(results.UnitPP, -g.Margin))}
	change := results.FormatUnit(results.UnitPP, g.Delta)
	switch {
	case g.Regression:
		h.Badge, h.Tone = "NO RELEASE", results.ToneBad
		h.Verdict = fmt.Sprintf("The candidate regressed: %s → %s (%s), worse than the allowed margin of %s at %s confidence.",
			pctText(g.BaselineMean), pctText(g.CandidateMean), change, results.FormatUnit(results.UnitPP, -g.Margin), level)
	case g.Sequential != nil && g.Sequential.Decision == "continue":
		h.Badge, h.Tone = "NOT DECIDED", results.ToneWarn
		h.Verdict = fmt.Sprintf("Not decided yet: %s → %s (%s); neither a regression beyond the margin nor its absence is established. More rows are needed.",
			pctText(g.BaselineMean), pctText(g.CandidateMean), change)
	case g.N == 0:
		h.Badge, h.Tone = "NOT DECIDED", results.ToneWarn
		h.Verdict = "No paired rows with verdicts: nothing to decide on."
	case g.Delta >= 0:
		h.Verdict = fmt.Sprintf("The candidate is not worse: %s → %s (%s).", pctText(g.BaselineMean), pctText(g.CandidateMean), change)
	case g.Delta >= -g.Margin:
		h.Verdict = fmt.Sprintf("No regression beyond the margin: %s → %s (%s), within the allowed %s.", pctText(g.BaselineMean), pctText(g.CandidateMean), change, results.FormatUnit(results.UnitPP, -g.Margin))
	default:
		h.Tone = results.ToneWarn
		h.Verdict = fmt.Sprintf("Released, but look closer: %s → %s (%s) is a drop beyond the margin of %s that this sample cannot tell from noise (it detects drops of %s or more).",
			pctText(g.BaselineMean), pctText(g.CandidateMean), change, results.FormatUnit(results.UnitPP, -g.Margin), results.FormatUnit(results.UnitPP, -g.MDE))
	}
	h.Notes = append(h.Notes, g.Decision+".")
	if len(g.Warnings) > 0 {
		h.Notes = append(h.Notes, warningsNote(len(g.Warnings))+" before releasing.")
	}
	h.Cards = []results.Card{
		{Label: "baseline", Value: g.BaselineMean, Unit: results.UnitRate, Note: g.Baseline.label()},
		{Label: "candidate", Value: g.CandidateMean, Unit: results.UnitRate, Note: g.Candidate.label()},
		{Label: "change", Value: g.Delta, Unit: results.UnitPP, Note: fmt.Sprintf("one-sided %s upper bound %s", level, results.FormatUnit(results.UnitPP, g.Upper))},
		{Label: "allowed drop", Value: -g.Margin, Unit: results.UnitPP, Note: "the margin; one-sided test of a larger drop: " + results.PValueText(g.P)},
		{Label: "pairs", Value: float64(g.N), Unit: results.UnitCount, Note: fmt.Sprintf("%s better, %s worse; %s without a verdict left out", results.Commas(int64(g.Better)), results.Commas(int64(g.Worse)), results.Commas(int64(g.Excluded)))},
		{Label: "smallest drop detected", Value: -g.MDE, Unit: results.UnitPP, Note: "at " + confText(g.Power) + " power with these rows"},
	}
	return h
}

// Charts draws the change with its one-sided bound against the margin.
func (g *GateResult) Charts() []results.ChartSpec {
	m := -g.Margin
	c := results.ChartSpec{Kind: results.ChartBars, Title: "Change against the allowed drop", Unit: results.UnitPP, Reference: &m,
		Note:       fmt.Sprintf("dot: candidate − baseline; whisker: up to its one-sided %s upper bound; dashed line: the margin. The gate says no release when the whole whisker lies beyond the line (left of it on the page, below it in the workbook).", confText(g.Confidence)),
		Categories: []string{show(g.Metric)},
		Series:     []results.Series{{Name: "change", Points: []results.Point{{Value: g.Delta, HasCI: true, Low: g.Delta, High: g.Upper}}}}}
	out := []results.ChartSpec{c}
	if q := g.Sequential; q != nil {
		out = append(out, results.ChartSpec{Kind: results.ChartBars, Title: "Sequential decision", Unit: results.UnitPP, Reference: &m,
			Note:       fmt.Sprintf("the change after %d pairs with its anytime-valid interval (%s); dashed line: the margin", q.N, q.Method),
			Categories: []string{show(g.Metric)},
			Series:     []results.Series{{Name: "change", Points: []results.Point{{Value: q.Delta, HasCI: true, Low: q.CILow, High: q.CIHigh, Mark: q.Decision}}}}})
	}
	return out
}

// ReportTitle names the trend.
func (h *HistoryResult) ReportTitle() string {
	t := "History of " + show(h.Metric)
	if h.By != "" {
		t += " by " + show(h.By)
	}
	return t
}

// pointLabel names a history point's run on a chart's axis.
func (p HistoryPoint) runLabel() string {
	r := RunRef{ID: p.Run, Title: p.Title, Model: p.Model, Command: p.Command}
	return r.label()
}

// Headline says where the newest run stands against the one before it
// on the same dataset, or that there is one run.
func (h *HistoryResult) Headline() results.Headline {
	hl := results.Headline{}
	runs := map[int64]bool{}
	for _, p := range h.Points {
		runs[p.Run] = true
	}
	hl.Subject = fmt.Sprintf("metric %s · %d runs · newest dataset %s", show(h.Metric), len(runs), h.Reference)
	// The overall (or first group's) series, newest two comparable points.
	var series []HistoryPoint
	first := ""
	if len(h.Points) > 0 {
		first = h.Points[0].Group
	}
	for _, p := range h.Points {
		if p.Group == first && p.Comparable {
			series = append(series, p)
		}
	}
	if len(series) == 0 {
		hl.Verdict = "No run on the newest dataset."
		return hl
	}
	last := series[len(series)-1]
	hl.Cards = append(hl.Cards, results.Card{Label: "newest: " + last.runLabel(), Value: last.Accuracy, Unit: results.UnitRate, HasCI: true, Low: last.CILow, High: last.CIHigh,
		Note: fmt.Sprintf("%s rows, %s", results.Commas(int64(last.N)), last.Time.UTC().Format("2006-01-02 15:04"))})
	if len(series) == 1 {
		hl.Verdict = fmt.Sprintf("One run on this dataset: %s (%s to %s).", pctText(last.Accuracy), pctText(last.CILow), pctText(last.CIHigh))
		return hl
	}
	prev := series[len(series)-2]
	hl.Cards = append(hl.Cards, results.Card{Label: "before: " + prev.runLabel(), Value: prev.Accuracy, Unit: results.UnitRate, HasCI: true, Low: prev.CILow, High: prev.CIHigh,
		Note: fmt.Sprintf("%s rows, %s", results.Commas(int64(prev.N)), prev.Time.UTC().Format("2006-01-02 15:04"))},
		results.Card{Label: "change", Value: last.Accuracy - prev.Accuracy, Unit: results.UnitPP, Note: "newest − the run before it"})
	what := "overall"
	if first != "" {
		what = "for " + show(first)
	}
	switch {
	case last.CILow > prev.CIHigh:
		hl.Verdict, hl.Tone = fmt.Sprintf("The newest run is better %s: %s after %s, and the intervals do not overlap.", what, pctText(last.Accuracy), pctText(prev.Accuracy)), results.ToneGood
	case last.CIHigh < prev.CILow:
		hl.Verdict, hl.Tone = fmt.Sprintf("The newest run is worse %s: %s after %s, and the intervals do not overlap.", what, pctText(last.Accuracy), pctText(prev.Accuracy)), results.ToneBad
	default:
		hl.Verdict = fmt.Sprintf("The newest run is at %s %s after %s: the intervals overlap (evalbook runs diff, a paired test, says whether the change is real).", pctText(last.Accuracy), what, pctText(prev.Accuracy))
	}
	return hl
}

// Charts draws each run's figure with its interval over the runs, one
// series per group, runs labelled by their titles.
func (h *HistoryResult) Charts() []results.ChartSpec {
	c := results.ChartSpec{Kind: results.ChartPoints, Title: "Trend over runs", Unit: results.UnitRate,
		Note: "each run's figure (dot) with the interval it recorded (error bar), oldest first; runs on another dataset are marked “other dataset”"}
	runIdx := map[int64]int{}
	groupIdx := map[string]int{}
	for _, p := range h.Points {
		if _, ok := runIdx[p.Run]; !ok {
			runIdx[p.Run] = len(c.Categories)
			label := p.runLabel()
			if !p.Comparable {
				label += " (other dataset)"
			}
			c.Categories = append(c.Categories, label)
		}
		if _, ok := groupIdx[p.Group]; !ok {
			groupIdx[p.Group] = len(c.Series)
			name := p.Group
			if name == "" {
				name = show(h.Metric)
			}
			c.Series = append(c.Series, results.Series{Name: show(name)})
		}
	}
	for k := range c.Series {
		c.Series[k].Points = make([]results.Point, len(c.Categories))
		for i := range c.Series[k].Points {
			c.Series[k].Points[i].Missing = true
		}
	}
	for _, p := range h.Points {
		c.Series[groupIdx[p.Group]].Points[runIdx[p.Run]] = results.Point{Value: p.Accuracy, HasCI: true, Low: p.CILow, High: p.CIHigh}
	}
	return []results.ChartSpec{c}
}

// ReportTitle names the two runs compared.
func (d *DiffResult) ReportTitle() string {
	return "Runs compared: " + d.A.label() + " → " + d.B.label()
}

// named is the run's label with the base name of its input file.
func (r RunRef) named() string {
	if r.Input == "" {
		return r.label()
	}
	return r.label() + " (" + show(r.Input) + ")"
}

// Headline says, for the first metric, which run is better and by how
// many percentage points, and whether that is beyond noise (the paired
// interval of the change excludes 0); the other metrics follow as notes.
func (d *DiffResult) Headline() results.Headline {
	h := results.Headline{Subject: fmt.Sprintf("A: %s → B: %s · %s rows paired by %s; %s only in A, %s only in B",
		d.A.named(), d.B.named(), results.Commas(int64(d.Paired)), keyWord(d), results.Commas(int64(d.OnlyA)), results.Commas(int64(d.OnlyB)))}
	if !d.Comparable {
		h.Notes = append(h.Notes, "The runs are not comparable (forced): the figures pair rows that may differ.")
	}
	if len(d.Metrics) == 0 {
		h.Verdict = "No metric in common: nothing to compare."
		return h
	}
	level := confText(d.Confidence)
	for i, m := range d.Metrics {
		pp := results.FormatUnit(results.UnitPP, m.Delta)
		iv := fmt.Sprintf("%s interval %s to %s", level, results.FormatUnit(results.UnitPP, m.DeltaLow), results.FormatUnit(results.UnitPP, m.DeltaHigh))
		flips := fmt.Sprintf("%s rows better, %s worse; sign test %s", results.Commas(int64(m.Better)), results.Commas(int64(m.Worse)), results.PValueText(m.SignP))
		var sentence, tone string
		switch {
		case m.N == 0:
			sentence, tone = fmt.Sprintf("%s: no paired row has a verdict in both runs.", show(m.Metric)), results.ToneWarn
		case m.DeltaLow > 0:
			sentence, tone = fmt.Sprintf("B is better than A on %s by %s (%s → %s), beyond noise: the %s excludes no change; %s.",
				show(m.Metric), strings.TrimPrefix(pp, "+"), pctText(m.MeanA), pctText(m.MeanB), iv, flips), results.ToneGood
		case m.DeltaHigh < 0:
			sentence, tone = fmt.Sprintf("B is worse than A on %s by %s (%s → %s), beyond noise: the %s excludes no change; %s.",
				show(m.Metric), strings.TrimPrefix(pp, "−"), pctText(m.MeanA), pctText(m.MeanB), iv, flips), results.ToneBad
		default:
			sentence, tone = fmt.Sprintf("No clear difference between A and B on %s: %s → %s (%s), within noise: the %s includes no change; %s.",
				show(m.Metric), pctText(m.MeanA), pctText(m.MeanB), pp, iv, flips), results.ToneNeutral
		}
		if i > 0 {
			h.Notes = append(h.Notes, sentence)
			continue
		}
		h.Verdict, h.Tone = sentence, tone
		if !d.Comparable {
			h.Tone = results.ToneWarn
		}
		ca, cb := d.runPoint(m, m.MeanA), d.runPoint(m, m.MeanB)
		h.Cards = []results.Card{
			{Label: "A: " + show(m.Metric), Value: m.MeanA, Unit: results.UnitRate, HasCI: ca.HasCI, Low: ca.Low, High: ca.High, Note: d.A.named()},
			{Label: "B: " + show(m.Metric), Value: m.MeanB, Unit: results.UnitRate, HasCI: cb.HasCI, Low: cb.Low, High: cb.High, Note: d.B.named()},
			{Label: "change B − A", Value: m.Delta, Unit: results.UnitPP, HasCI: true, Low: m.DeltaLow, High: m.DeltaHigh,
				Note: fmt.Sprintf("%s interval (%s) over %s pairs", level, m.Method, results.Commas(int64(m.N)))},
			{Label: "better / worse", Text: results.Commas(int64(m.Better)) + " / " + results.Commas(int64(m.Worse)),
				Note: "rows that flipped; sign test " + results.PValueText(m.SignP) + ", McNemar " + results.PValueText(m.McNemarP)},
		}
	}
	if len(d.Warnings) > 0 {
		h.Notes = append(h.Notes, warningsNote(len(d.Warnings))+" before quoting the figures.")
	}
	return h
}

// runPoint is one run's figure over the pairs of m with, for a binary
// metric, its Wilson interval at the diff's confidence (a graded
// metric's mean has none here: the diff keeps no spread of one run).
func (d *DiffResult) runPoint(m MetricDiff, mean float64) results.Point {
	p := results.Point{Value: mean}
	if !m.Graded && m.N > 0 {
		k := int(math.Round(mean * float64(m.N)))
		p.Low, p.High = stats.Wilson(k, m.N, d.Confidence)
		p.HasCI = true
	}
	return p
}

// Charts draws each run's figure per metric with its interval, and the
// change of each metric, and of each group, with its paired interval.
func (d *DiffResult) Charts() []results.ChartSpec {
	runs := results.ChartSpec{Kind: results.ChartBars, Title: "A and B on each metric", Unit: results.UnitRate,
		Note:   fmt.Sprintf("bars: each run's figure over the paired rows; whiskers: %s Wilson intervals (binary metrics)", confText(d.Confidence)),
		Series: []results.Series{{Name: "A: " + d.A.label()}, {Name: "B: " + d.B.label()}}}
	for _, m := range d.Metrics {
		runs.Categories = append(runs.Categories, show(m.Metric))
		runs.Series[0].Points = append(runs.Series[0].Points, d.runPoint(m, m.MeanA))
		runs.Series[1].Points = append(runs.Series[1].Points, d.runPoint(m, m.MeanB))
	}
	return append([]results.ChartSpec{runs}, d.changeChart())
}

// changeChart draws the change of each metric, and of each group, with
// its paired interval.
func (d *DiffResult) changeChart() results.ChartSpec {
	zero := 0.0
	c := results.ChartSpec{Kind: results.ChartBars, Title: "Change B − A with its interval", Unit: results.UnitPP, Reference: &zero,
		Note:   fmt.Sprintf("dot: B − A over paired rows; whisker: its %s paired interval; dashed line: no change", confText(d.Confidence)),
		Series: []results.Series{{Name: "change"}}}
	for _, m := range d.Metrics {
		c.Categories = append(c.Categories, show(m.Metric))
		c.Series[0].Points = append(c.Series[0].Points, results.Point{Value: m.Delta, HasCI: true, Low: m.DeltaLow, High: m.DeltaHigh})
		for _, g := range m.Groups {
			c.Categories = append(c.Categories, show(m.Metric)+" · "+show(g.Group))
			c.Series[0].Points = append(c.Series[0].Points, results.Point{Value: g.Delta, HasCI: true, Low: g.DeltaLow, High: g.DeltaHigh})
		}
	}
	return c
}

// ReportTitle names the two runs.
func (r *AAResult) ReportTitle() string {
	return "Noise floor: " + r.A.label() + " and " + r.B.label()
}

// Headline gives the suggested gate margin of the first metric.
func (r *AAResult) Headline() results.Headline {
	h := results.Headline{Subject: fmt.Sprintf("two runs of the same system: %s and %s", r.A.label(), r.B.label())}
	if len(r.Metrics) == 0 {
		h.Verdict = "No metric in common."
		return h
	}
	m := r.Metrics[0]
	h.Verdict = fmt.Sprintf("Noise alone flips %s of rows on %s and moves it by up to %s: set a gate's margin no tighter than %s.",
		pctText(m.FlipRate), show(m.Metric), results.FormatUnit(results.UnitPP, m.SuggestedMargin)[1:], results.FormatUnit(results.UnitPP, m.SuggestedMargin)[1:])
	h.Cards = []results.Card{
		{Label: "flip rate", Value: m.FlipRate, Unit: results.UnitRate, HasCI: true, Low: m.FlipLow, High: m.FlipHigh, Note: fmt.Sprintf("%s of %s rows", results.Commas(int64(m.Flips)), results.Commas(int64(m.N)))},
		{Label: "change B − A", Value: m.Delta, Unit: results.UnitPP, HasCI: true, Low: m.DeltaLow, High: m.DeltaHigh, Note: "paired normal interval"},
		{Label: "suggested margin", Value: m.SuggestedMargin, Unit: results.UnitPP, Note: "a tighter margin fires on noise"},
	}
	for _, o := range r.Metrics[1:] {
		h.Notes = append(h.Notes, fmt.Sprintf("%s: flip rate %s, suggested margin %s.", show(o.Metric), pctText(o.FlipRate), results.FormatUnit(results.UnitPP, o.SuggestedMargin)[1:]))
	}
	return h
}

// Charts draws each metric's flip rate with its interval.
func (r *AAResult) Charts() []results.ChartSpec {
	c := results.ChartSpec{Kind: results.ChartBars, Title: "Flip rate between the two runs", Unit: results.UnitRate,
		Note: "rows whose verdict differs between two runs of the same system; whiskers: " + confText(r.Confidence) + " Wilson intervals", Series: []results.Series{{Name: "flip rate"}}}
	for _, m := range r.Metrics {
		c.Categories = append(c.Categories, show(m.Metric))
		c.Series[0].Points = append(c.Series[0].Points, results.Point{Value: m.FlipRate, HasCI: true, Low: m.FlipLow, High: m.FlipHigh})
	}
	return []results.ChartSpec{c}
}

// warningsNote says how many warnings follow.
func warningsNote(n int) string {
	if n == 1 {
		return "1 warning below: read it"
	}
	return strconv.Itoa(n) + " warnings below: read them"
}
