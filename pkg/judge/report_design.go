package judge

import (
	"fmt"
	"sort"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
)

// This file gives calibrate's and probes' results their headline and
// charts for the shared report design.

// ReportTitle names the judge.
func (c *Calibration) ReportTitle() string { return "Judge calibration: " + c.Record.Judge }

// Headline says whether the judge is usable, with its agreement and
// kappa against the human labels.
func (c *Calibration) Headline() results.Headline {
	r := c.Record
	h := results.Headline{Subject: fmt.Sprintf("judge %s · prompt %s@%d · %d labelled pairs (%s)", r.Judge, r.Prompt.Name, r.Prompt.Version, r.N, results.DisplayName(c.Pairs)),
		Badge: "USABLE", Tone: results.ToneGood}
	h.Verdict = fmt.Sprintf("The judge agrees with the human labels on %s of pairs (%g%% interval %s to %s), kappa %.3f: usable (kappa at least %g, every slice at least %s).",
		results.FormatUnit(results.UnitRate, r.Agreement), 100*r.Confidence, results.FormatUnit(results.UnitRate, r.AgreementLow), results.FormatUnit(results.UnitRate, r.AgreementHigh), r.Kappa, c.MinKappa, results.FormatUnit(results.UnitRate, c.MinSlice))
	if !c.Usable {
		h.Badge, h.Tone = "NOT USABLE", results.ToneBad
		h.Verdict = fmt.Sprintf("Not usable: the judge agrees with the human labels on %s of pairs, kappa %.3f.", results.FormatUnit(results.UnitRate, r.Agreement), r.Kappa)
		h.Notes = append(h.Notes, c.Reasons...)
	}
	h.Cards = []results.Card{
		{Label: "agreement", Value: r.Agreement, Unit: results.UnitRate, HasCI: true, Low: r.AgreementLow, High: r.AgreementHigh, Note: fmt.Sprintf("%s of %s pairs", results.Commas(int64(r.Agree)), results.Commas(int64(r.N)))},
		{Label: "kappa", Value: r.Kappa, Unit: results.UnitNumber, Note: fmt.Sprintf("usable from %g", c.MinKappa)},
		{Label: "order disagreements", Value: float64(r.OrderDisagreements), Unit: results.UnitCount, Note: "verdicts that change when the answers swap places"},
	}
	return h
}

// shareChart draws shares (hits of n) per key with 95% Wilson intervals.
func shareChart(title, note string, shares map[string]Share) *results.ChartSpec {
	keys := make([]string, 0, len(shares))
	for k := range shares {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	c := results.ChartSpec{Kind: results.ChartBars, Title: title, Unit: results.UnitRate, Note: note, Series: []results.Series{{Name: "agreement"}}}
	for _, k := range keys {
		s := shares[k]
		if s.N == 0 {
			continue
		}
		lo, hi := stats.Wilson(s.Hits, s.N, 0.95)
		c.Categories = append(c.Categories, k)
		c.Series[0].Points = append(c.Series[0].Points, results.Point{Value: float64(s.Hits) / float64(s.N), HasCI: true, Low: lo, High: hi})
	}
	if len(c.Categories) == 0 {
		return nil
	}
	return &c
}

// Charts draws the agreement by kind of pair and by language.
func (c *Calibration) Charts() []results.ChartSpec {
	var out []results.ChartSpec
	min := c.MinSlice
	for _, x := range []struct {
		title string
		m     map[string]Share
	}{{"Agreement by kind of pair", c.Record.ByKind}, {"Agreement by language", c.Record.ByLang}} {
		if ch := shareChart(x.title, "the share of pairs where the judge agrees with the human label (a bar on the page, a dot in the workbook); whiskers: 95% Wilson intervals; dashed line: the least a slice must reach", x.m); ch != nil {
			ch.Reference = &min
			out = append(out, *ch)
		}
	}
	return out
}

// ReportTitle names the pairs.
func (r *ProbeReport) ReportTitle() string { return "Judge probes: " + results.DisplayName(r.Pairs) }

// Headline gives each judge's order-flip share, the first sign of a
// position bias.
func (r *ProbeReport) Headline() results.Headline {
	h := results.Headline{Subject: fmt.Sprintf("%d pairs (%s) · label set %s", r.N, results.DisplayName(r.Pairs), r.LabelSet)}
	worst, worstV := "", -1.0
	for _, j := range r.Judges {
		v, ok := j.Probes.OrderFlip.Value()
		if ok && v > worstV {
			worst, worstV = j.Judge, v
		}
		if ok && len(h.Cards) < 8 {
			h.Cards = append(h.Cards, rateCardShare(j.Judge+": order flips", j.Probes.OrderFlip, "verdicts that change when the answers swap places"))
		}
	}
	if worst == "" {
		h.Verdict = "No probe could be measured."
		return h
	}
	h.Verdict = fmt.Sprintf("%s changes its verdict on %s of pairs when the answers swap places (the most of the judges probed).", worst, results.FormatUnit(results.UnitRate, worstV))
	if worstV > 0.1 {
		h.Tone = results.ToneWarn
	}
	return h
}

func rateCardShare(label string, s Share, note string) results.Card {
	lo, hi := stats.Wilson(s.Hits, s.N, 0.95)
	return results.Card{Label: label, Value: float64(s.Hits) / float64(s.N), Unit: results.UnitRate, HasCI: true, Low: lo, High: hi, Note: fmt.Sprintf("%s of %s; %s", results.Commas(int64(s.Hits)), results.Commas(int64(s.N)), note)}
}

// Charts draws every probe of every judge with 95% Wilson intervals.
func (r *ProbeReport) Charts() []results.ChartSpec {
	c := results.ChartSpec{Kind: results.ChartBars, Title: "Bias probes", Unit: results.UnitRate,
		Note:       "first pick: the first answer wins; order flip: the verdict changes with the order; longer wins; self wins. Whiskers: 95% Wilson intervals",
		Categories: []string{"first pick", "order flip", "longer wins", "self wins"}}
	for _, j := range r.Judges {
		s := results.Series{Name: j.Judge}
		for _, sh := range []Share{j.Probes.FirstPick, j.Probes.OrderFlip, j.Probes.LongerWins, j.Probes.SelfWins} {
			if sh.N == 0 {
				s.Points = append(s.Points, results.Point{Missing: true})
				continue
			}
			lo, hi := stats.Wilson(sh.Hits, sh.N, 0.95)
			s.Points = append(s.Points, results.Point{Value: float64(sh.Hits) / float64(sh.N), HasCI: true, Low: lo, High: hi})
		}
		c.Series = append(c.Series, s)
	}
	if len(c.Series) == 0 {
		return nil
	}
	return []results.ChartSpec{c}
}
