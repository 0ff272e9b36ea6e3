package store

import (
	"fmt"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
)

// This file gives a stored run (evalbook runs show) its title and
// headline for the shared report design; its chart is the one drawn
// from its figures table (results.TableCharts), with whiskers.

// ref is the run as a RunRef, for its label.
func (r *Run) ref() RunRef { return refOf(*r) }

// ReportTitle names the run by its title (else model or command) and id.
func (r *Run) ReportTitle() string { return "Stored " + r.ref().label() }

// Headline states each metric's figure over all rows with its interval
// as the run recorded it, one card per metric (at most 8), and names the
// run, its command, its dataset's base name and when it was made.
func (r *Run) Headline() results.Headline {
	h := results.Headline{Subject: fmt.Sprintf("%s · %s · %s rows · %s", show(r.Command), r.ref().named(), results.Commas(int64(r.Rows)), r.Created.UTC().Format("2006-01-02 15:04 UTC"))}
	var parts []string
	for _, g := range r.Groups {
		if g.By != "" || g.Group != "" {
			continue
		}
		c := results.Card{Label: show(g.Metric), Value: g.Accuracy, Unit: results.UnitRate, HasCI: g.CIHigh > g.CILow, Low: g.CILow, High: g.CIHigh,
			Note: fmt.Sprintf("%s of %s rows", results.FormatUnit(results.UnitNumber, g.Correct), results.Commas(int64(g.N)))}
		if len(parts) < 3 {
			s := fmt.Sprintf("%s %s of %s rows", show(g.Metric), c.Shown(), results.Commas(int64(g.N)))
			if iv := c.Interval(); iv != "" {
				s += " (interval " + iv + ")"
			}
			parts = append(parts, s)
		}
		if len(h.Cards) < 8 {
			h.Cards = append(h.Cards, c)
		}
	}
	switch {
	case len(parts) == 0:
		h.Verdict = fmt.Sprintf("%s recorded no figure over all its rows.", capital(r.ref().label()))
	default:
		h.Verdict = fmt.Sprintf("%s scored %s.", capital(r.ref().label()), strings.Join(parts, "; "))
		if n := len(h.Cards); n > len(parts) {
			h.Verdict += fmt.Sprintf(" (%d metrics in all: see the cards.)", n)
		}
	}
	if n := len(r.Warnings); n > 0 {
		h.Tone = results.ToneWarn
		w := "warnings"
		if n == 1 {
			w = "warning"
		}
		h.Notes = append(h.Notes, fmt.Sprintf("The run recorded %d %s: see the table below.", n, w))
	}
	return h
}

// capital is s with its first letter (ASCII) in upper case.
func capital(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}
