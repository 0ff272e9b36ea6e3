package ratings

import (
	"fmt"

	"github.com/evalbook/evalbook/pkg/results"
)

// ReportTitle names the ratings by their verdict file's base name.
func (r *Result) ReportTitle() string {
	return "Ratings: " + results.DisplayName(r.Source)
}

// Headline names the top model and whether its interval clears the
// runner-up's, with the ratings as whole numbers.
func (r *Result) Headline() results.Headline {
	h := results.Headline{Subject: fmt.Sprintf("%s · %d verdicts on %d items · Bradley-Terry, %.0f%% bootstrap intervals over %ss (%d replicates)",
		results.DisplayName(r.Source), r.Verdicts, r.Items, r.Settings.Confidence*100, r.Settings.ResampleUnit, r.Replicates)}
	if len(r.Ratings) == 0 {
		h.Verdict = "No ratings."
		return h
	}
	top := r.Ratings[0]
	elo := func(x float64) string { return results.FormatUnit(results.UnitRating, x) }
	if len(r.Ratings) > 1 {
		second := r.Ratings[1]
		if top.EloLow > second.EloHigh {
			h.Verdict, h.Tone = fmt.Sprintf("%s rates highest (%s, interval %s to %s), clear of %s (%s, up to %s).", top.Model, elo(top.Elo), elo(top.EloLow), elo(top.EloHigh), second.Model, elo(second.Elo), elo(second.EloHigh)), results.ToneGood
		} else {
			h.Verdict = fmt.Sprintf("%s rates highest (%s), but its interval (%s to %s) overlaps %s's (%s, %s to %s): the order of the top two is not settled.", top.Model, elo(top.Elo), elo(top.EloLow), elo(top.EloHigh), second.Model, elo(second.Elo), elo(second.EloLow), elo(second.EloHigh))
		}
	} else {
		h.Verdict = fmt.Sprintf("%s: %s.", top.Model, elo(top.Elo))
	}
	for i, x := range r.Ratings {
		if i == 6 {
			h.Notes = append(h.Notes, fmt.Sprintf("%d more models in the table.", len(r.Ratings)-6))
			break
		}
		h.Cards = append(h.Cards, results.Card{Label: fmt.Sprintf("#%d %s", x.Rank, x.Model), Value: x.Elo, Unit: results.UnitRating, HasCI: true, Low: x.EloLow, High: x.EloHigh,
			Note: fmt.Sprintf("%s wins, %s losses, %s ties", results.Commas(int64(x.Wins)), results.Commas(int64(x.Losses)), results.Commas(int64(x.Ties)))})
	}
	return h
}

// Charts draws every model's rating with its interval, best first.
func (r *Result) Charts() []results.ChartSpec {
	c := results.ChartSpec{Kind: results.ChartBars, Title: "Ratings with intervals", Unit: results.UnitRating,
		Note:   fmt.Sprintf("dot: Elo-scale rating (anchored at %s = %g); whisker: %.0f%% percentile bootstrap interval", r.Settings.Anchor, r.Settings.EloBase, r.Settings.Confidence*100),
		Series: []results.Series{{Name: "rating"}}}
	for _, x := range r.Ratings {
		c.Categories = append(c.Categories, x.Model)
		c.Series[0].Points = append(c.Series[0].Points, results.Point{Value: x.Elo, HasCI: true, Low: x.EloLow, High: x.EloHigh})
	}
	return []results.ChartSpec{c}
}
