package results

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ReportTitle names the raters compared.
func (r *RaterAgreement) ReportTitle() string {
	return "Agreement of " + strings.Join(r.Raters, ", ")
}

// strength is Landis and Koch's (1977) name for a kappa-like value.
func strength(x float64) string {
	switch {
	case x < 0:
		return "poor (worse than chance)"
	case x <= 0.20:
		return "slight"
	case x <= 0.40:
		return "fair"
	case x <= 0.60:
		return "moderate"
	case x <= 0.80:
		return "substantial"
	}
	return "almost perfect"
}

// Headline gives the statistic with its interval and what it means in
// words, and how many items need adjudication.
func (r *RaterAgreement) Headline() Headline {
	text, _, stat := r.statistic()
	level := strconv.FormatFloat(100*r.Confidence, 'f', -1, 64) + "%"
	h := Headline{Subject: fmt.Sprintf("%s · %s · %s", strings.Join(r.Raters, ", "), plural(r.N, "item", "items"), text)}
	if stat == nil || math.IsNaN(*stat) {
		h.Verdict, h.Tone = "The statistic is not defined for these ratings (see the warnings).", ToneWarn
		return h
	}
	v := *stat
	h.Verdict = fmt.Sprintf("%s agreement: %s = %s (%s interval %s to %s); the raters agree on %s of items, chance alone would give %s.",
		upperFirst(strength(v)), text, strconv.FormatFloat(v, 'f', 3, 64), level, strconv.FormatFloat(r.CILow, 'f', 3, 64), strconv.FormatFloat(r.CIHigh, 'f', 3, 64),
		FormatUnit(UnitRate, r.Observed), FormatUnit(UnitRate, r.Expected))
	switch {
	case r.CILow > 0.6:
		h.Tone = ToneGood
	case v < 0.4:
		h.Tone = ToneBad
	default:
		h.Tone = ToneWarn
	}
	h.Notes = append(h.Notes, "Strength in the words of Landis and Koch (1977): slight up to 0.20, fair to 0.40, moderate to 0.60, substantial to 0.80, almost perfect above.")
	h.Cards = []Card{
		{Label: text, Value: v, Unit: UnitNumber, HasCI: true, Low: r.CILow, High: r.CIHigh, Note: strength(v)},
		{Label: "observed agreement", Value: r.Observed, Unit: UnitRate, Note: "share of items (or pairs) agreeing"},
		{Label: "expected by chance", Value: r.Expected, Unit: UnitRate},
		{Label: "to adjudicate", Value: float64(len(r.Disagreements)), Unit: UnitCount, Note: "items the raters disagree on"},
	}
	return h
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Charts draws the confusion of two raters as a heatmap.
func (r *RaterAgreement) Charts() []ChartSpec {
	c := r.Confusion
	if c == nil || len(r.Raters) < 2 {
		return nil
	}
	hm := ChartSpec{Kind: ChartHeatmap, Title: "Confusion: " + r.Raters[0] + " (rows) against " + r.Raters[1] + " (columns)", Unit: UnitCount,
		Note: "items per pair of labels; the diagonal is agreement", Rows: c.Labels, Columns: c.Labels}
	for _, row := range c.Rows {
		cells := make([]float64, len(row))
		for j, n := range row {
			cells[j] = float64(n)
		}
		hm.Cells = append(hm.Cells, cells)
	}
	return []ChartSpec{hm}
}
