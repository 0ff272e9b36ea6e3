package harness

import (
	"fmt"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
)

// ReportTitle names the summary.
func (r *Report) ReportTitle() string { return "Answer-or-abstain summary" }

// rateCard is a count over a total as a card with its 95% Wilson interval.
func rateCard(label string, k, n int, note string) results.Card {
	c := results.Card{Label: label, Text: "–", Note: note}
	if n > 0 {
		lo, hi := stats.Wilson(k, n, 0.95)
		c = results.Card{Label: label, Value: float64(k) / float64(n), Unit: results.UnitRate, HasCI: true, Low: lo, High: hi, Note: fmt.Sprintf("%s of %s; %s", results.Commas(int64(k)), results.Commas(int64(n)), note)}
	}
	return c
}

// Headline gives task success, coverage and answered accuracy with their
// 95% Wilson intervals.
func (r *Report) Headline() results.Headline {
	h := results.Headline{Subject: fmt.Sprintf("%d cases · %d answered · %d errors · %d missing", r.Total, r.Answered, r.Errors, r.Missing)}
	h.Cards = []results.Card{
		rateCard("task success", r.Success, r.Total, "answered right or rightly abstained"),
		rateCard("answer coverage", r.Answered, r.Total, "cases answered"),
		rateCard("answered accuracy", r.CorrectAnswers, r.Answered, "right among the answered"),
	}
	h.Verdict = fmt.Sprintf("Task success %s: %d of %d cases answered right or rightly abstained.", h.Cards[0].Shown(), r.Success, r.Total)
	if r.Errors+r.Missing > 0 {
		h.Tone = results.ToneWarn
		h.Notes = append(h.Notes, fmt.Sprintf("%d errors and %d missing results count as failures.", r.Errors, r.Missing))
	}
	return h
}

// Charts draws task success per slice with its 95% Wilson interval.
func (r *Report) Charts() []results.ChartSpec {
	c := results.ChartSpec{Kind: results.ChartBars, Title: "Task success by slice", Unit: results.UnitRate, Note: "bars: task success; whiskers: 95% Wilson intervals",
		Series: []results.Series{{Name: "task success"}}}
	for _, n := range r.sliceNames() {
		s := r.Slices[n]
		if s.Total == 0 {
			continue
		}
		lo, hi := stats.Wilson(s.Success, s.Total, 0.95)
		c.Categories = append(c.Categories, n)
		c.Series[0].Points = append(c.Series[0].Points, results.Point{Value: float64(s.Success) / float64(s.Total), HasCI: true, Low: lo, High: hi})
	}
	if len(c.Categories) == 0 {
		return nil
	}
	return []results.ChartSpec{c}
}

// ReportTitle names the cases run by their base name.
func (s *RunReport) ReportTitle() string { return "Run of " + results.DisplayName(s.Cases) }

// Headline gives the pass rate and each plan metric's with their 95%
// Wilson intervals, and how the cases ended (answered, abstained, error).
func (s *RunReport) Headline() results.Headline {
	h := results.Headline{Subject: fmt.Sprintf("%s cases from %s (hash %s) · %s chunks, %s documents", results.Commas(int64(s.N)), results.DisplayName(s.Cases), s.DatasetHash,
		results.Commas(int64(s.System.Chunks)), results.Commas(int64(s.System.Documents)))}
	h.Cards = append(h.Cards, rateCard("pass", s.Passed, s.N, "cases passed"))
	for _, m := range s.Metrics {
		h.Cards = append(h.Cards, rateCard(m.Name, m.Passed, m.N, "cases the metric applies to"))
	}
	h.Cards = append(h.Cards, rateCard("answers citing a listed document", s.Cited, s.AnsweredAnswerCases, "answered answer cases"))
	if s.N == 0 {
		h.Verdict, h.Tone = "No case was run.", results.ToneWarn
		return h
	}
	h.Verdict = fmt.Sprintf("%s of %s cases passed: %s (95%% interval %s).", results.Commas(int64(s.Passed)), results.Commas(int64(s.N)), h.Cards[0].Shown(), h.Cards[0].Interval())
	switch {
	case s.Passed == s.N:
		h.Tone = results.ToneGood
	case s.Outcomes[KindError] > 0:
		h.Tone = results.ToneWarn
	}
	h.Notes = append(h.Notes, fmt.Sprintf("Outcomes: %d answered, %d abstained, %d errors (an error fails its case).", s.Outcomes[KindAnswer], s.Outcomes[KindAbstain], s.Outcomes[KindError]))
	return h
}

// Charts draws the pass rate per task with its 95% Wilson interval.
func (s *RunReport) Charts() []results.ChartSpec {
	c := results.ChartSpec{Kind: results.ChartBars, Title: "Pass rate by task", Unit: results.UnitRate, Note: "bars: the share of cases passed; whiskers: 95% Wilson intervals",
		Series: []results.Series{{Name: "pass rate"}}}
	for _, g := range s.ByTask {
		if g.N == 0 {
			continue
		}
		lo, hi := stats.Wilson(g.Passed, g.N, 0.95)
		c.Categories = append(c.Categories, g.Task)
		c.Series[0].Points = append(c.Series[0].Points, results.Point{Value: float64(g.Passed) / float64(g.N), HasCI: true, Low: lo, High: hi})
	}
	if len(c.Categories) == 0 {
		return nil
	}
	return []results.ChartSpec{c}
}
