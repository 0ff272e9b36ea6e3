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
