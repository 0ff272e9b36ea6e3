package results

import (
	"fmt"
	"strings"
)

// headlineMetrics is how many metrics a score's verdict names; the
// others are on the cards.
const headlineMetrics = 3

// Headline says, in plain words, each scored metric's figure over all
// rows with its interval ("exact_substring: 62.3% of 284 rows correct
// (95% wilson interval 56.5% to 67.7%)"), the first headlineMetrics in
// the verdict and every one on a card. A score has no threshold, so its
// tone is neutral, or warn when responses are blank (they count as
// wrong) or the result carries warnings. Score's page (pkg/htmlreport)
// and workbook (pkg/xlsxreport) show the verdict above their own key
// figures.
func (s *Score) Headline() Headline {
	h := Headline{Subject: DisplayName(s.Dataset.Path)}
	if s.Model != "" {
		h.Subject += " · model " + ShowInvisible(s.Model)
	}
	hasCI := s.Settings.CI != "" && s.Settings.CI != "none"
	ci := ""
	if hasCI {
		ci = fmt.Sprintf("%g%% %s interval", 100*s.Settings.Confidence, s.Settings.CI)
		if s.Settings.Cluster != "" {
			ci += ", clustered by " + ShowInvisible(s.Settings.Cluster)
		}
	}
	graded := map[string]bool{}
	for _, d := range s.Metrics {
		graded[d.ID] = d.Graded
	}
	var parts []string
	for _, id := range s.Settings.Metrics {
		ms, ok := s.Combined.Metrics[id]
		if !ok {
			continue
		}
		n := s.Combined.N
		if ms.N > 0 {
			n = ms.N
		}
		c := Card{Label: ShowInvisible(id), Value: ms.Accuracy, Unit: UnitRate, HasCI: hasCI && ms.CIHigh > ms.CILow, Low: ms.CILow, High: ms.CIHigh}
		what := "correct"
		if graded[id] {
			what = "mean score"
			c.Note = fmt.Sprintf("mean score over %s rows", Commas(int64(n)))
		} else {
			c.Note = fmt.Sprintf("%s of %s rows", FormatUnit(UnitNumber, ms.Correct), Commas(int64(n)))
		}
		if len(h.Cards) < 8 {
			h.Cards = append(h.Cards, c)
		}
		if len(parts) == headlineMetrics {
			continue
		}
		p := fmt.Sprintf("%s: %s of %s rows %s", c.Label, c.Shown(), Commas(int64(n)), what)
		if graded[id] {
			p = fmt.Sprintf("%s: %s mean score over %s rows", c.Label, c.Shown(), Commas(int64(n)))
		}
		if iv := c.Interval(); iv != "" {
			p += " (" + ci + " " + iv + ")"
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		h.Verdict = "No metric was scored."
		return h
	}
	h.Verdict = strings.Join(parts, "; ") + "."
	if k := len(s.Settings.Metrics) - len(parts); k > 0 {
		h.Verdict += fmt.Sprintf(" %s more on the cards.", plural(k, "metric", "metrics"))
	}
	if b := s.Combined.Blank; b > 0 {
		h.Tone = ToneWarn
		h.Notes = append(h.Notes, fmt.Sprintf("%s of %s responses are blank and count as wrong.", Commas(int64(b)), Commas(int64(s.Combined.N))))
	}
	if w := len(s.Warnings); w > 0 {
		h.Tone = ToneWarn
		h.Notes = append(h.Notes, plural(w, "warning", "warnings")+": see Warnings.")
	}
	return h
}
