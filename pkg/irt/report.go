package irt

import (
	"fmt"
	"math"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
)

// ReportTitle names the file by its base name.
func (r *Result) ReportTitle() string {
	return "Item response theory: " + results.DisplayName(r.Source)
}

// Headline gives the fit: the items, the subjects, alpha, and the
// hardest and the least discriminating item.
func (r *Result) Headline() results.Headline {
	h := results.Headline{Subject: fmt.Sprintf("%s · %s model · %d items, %s subjects", results.DisplayName(r.Source), r.Model, len(r.Items), results.Commas(int64(len(r.Subjects))))}
	h.Verdict = fmt.Sprintf("Fitted %d items over %s subjects.", len(r.Items), results.Commas(int64(len(r.Subjects))))
	if !r.Converged {
		h.Tone = results.ToneWarn
		h.Verdict += fmt.Sprintf(" The fit did not converge in %d iterations: read the figures with care.", r.Iterations)
	}
	h.Cards = []results.Card{{Label: "items", Value: float64(len(r.Items)), Unit: results.UnitCount}, {Label: "subjects", Value: float64(len(r.Subjects)), Unit: results.UnitCount}}
	if r.Alpha != nil {
		h.Cards = append(h.Cards, results.Card{Label: "Cronbach's alpha", Value: *r.Alpha, Unit: results.UnitNumber, Note: fmt.Sprintf("over %s subjects", results.Commas(int64(r.AlphaSubjects)))})
	}
	hard, weak := -1, -1
	for i, it := range r.Items {
		if hard < 0 || it.Difficulty > r.Items[hard].Difficulty {
			hard = i
		}
		if weak < 0 || it.Discrimination < r.Items[weak].Discrimination {
			weak = i
		}
	}
	if hard >= 0 {
		h.Cards = append(h.Cards, results.Card{Label: "hardest item", Text: r.Items[hard].Item, Note: fmt.Sprintf("difficulty %.3f, pass rate %s", r.Items[hard].Difficulty, results.FormatUnit(results.UnitRate, r.Items[hard].PassRate))},
			results.Card{Label: "least discriminating item", Text: r.Items[weak].Item, Note: fmt.Sprintf("discrimination %.3f", r.Items[weak].Discrimination)})
	}
	return h
}

// Charts draws each item's difficulty with its interval (± z·se).
func (r *Result) Charts() []results.ChartSpec {
	z := stats.NormalQuantile(1 - (1-r.Confidence)/2)
	c := results.ChartSpec{Kind: results.ChartBars, Title: "Item difficulty", Unit: results.UnitNumber,
		Note:   fmt.Sprintf("dot: difficulty b of the 2PL model (the ability at which a subject passes half the time); whisker: ± %.2f standard errors", z),
		Series: []results.Series{{Name: "difficulty"}}}
	for _, it := range r.Items {
		p := results.Point{Value: it.Difficulty}
		if it.DifficultySE != nil && !math.IsNaN(*it.DifficultySE) {
			p.HasCI, p.Low, p.High = true, it.Difficulty-z**it.DifficultySE, it.Difficulty+z**it.DifficultySE
		}
		c.Categories = append(c.Categories, it.Item)
		c.Series[0].Points = append(c.Series[0].Points, p)
	}
	if len(c.Categories) == 0 || len(c.Categories) > 60 {
		return nil
	}
	return []results.ChartSpec{c}
}
