package htmlreport

import (
	"fmt"
	"html/template"
	"slices"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
)

// visible escapes s for HTML text and shows each bidi or invisible
// control (results.IsInvisible) as a styled mark, <U+202E>, so model
// text cannot reorder or hide what the page shows.
func visible(s string) template.HTML {
	if results.CountInvisible(s) == 0 {
		return template.HTML(template.HTMLEscapeString(s))
	}
	var b strings.Builder
	start := 0
	for i, r := range s {
		if !results.IsInvisible(r) {
			continue
		}
		b.WriteString(template.HTMLEscapeString(s[start:i]))
		fmt.Fprintf(&b, `<span class="ctl" title="an invisible control character">&lt;U+%04X&gt;</span>`, r)
		start = i + len(string(r))
	}
	b.WriteString(template.HTMLEscapeString(s[start:]))
	return template.HTML(b.String())
}

// countInvisible counts the controls in the text the page shows from
// the data: examples, verdict and disagreement rows, tables and group
// names, and returns the bidi_controls warning for them, or nil.
func (p *page) countInvisible() *results.Warning {
	n := 0
	for _, g := range p.Groupings {
		for _, r := range g.Rows {
			n += results.CountInvisible(r.Name)
		}
	}
	var lines []int
	for _, a := range p.Agreement {
		for _, b := range a.Buckets {
			for _, e := range b.Examples {
				c := results.CountInvisible(e.ID) + results.CountInvisible(e.Group) + results.CountInvisible(e.Golden) + results.CountInvisible(e.Response)
				if c > 0 && len(lines) < 20 {
					lines = append(lines, e.Line)
				}
				n += c
			}
		}
	}
	n += p.reviewInvisible
	if p.Review != nil {
		for _, h := range p.Review.Header {
			n += results.CountInvisible(h)
		}
	}
	for _, rv := range []*rowsView{p.Verdicts, p.Disagreements} {
		if rv == nil {
			continue
		}
		for _, h := range rv.Header {
			n += results.CountInvisible(h)
		}
		for _, r := range rv.Rows {
			for _, c := range r {
				n += results.CountInvisible(c.Text)
			}
		}
	}
	for _, t := range p.Tables {
		for _, r := range t.Rows {
			for _, c := range r {
				n += results.CountInvisible(c.Text)
			}
		}
	}
	if n == 0 {
		return nil
	}
	w := results.BidiWarning(n, lines, "the text this page shows")
	return &w
}

// addInvisibleWarning adds the bidi_controls warning when the page's
// text holds controls (unless the result already carries one, from
// qa), and names the count of warnings in the table of contents.
func (p *page) addInvisibleWarning() {
	if w := p.countInvisible(); w != nil && !hasWarning(p.Warnings, results.CodeBidiControls) {
		p.Warnings = append(slices.Clip(p.Warnings), *w)
	}
	for i, s := range p.Sections {
		if s[0] == "warnings" {
			p.Sections[i][1] = fmt.Sprintf("Warnings (%d)", len(p.Warnings))
		}
	}
}

func hasWarning(ws []results.Warning, code string) bool {
	for _, w := range ws {
		if w.Code == code {
			return true
		}
	}
	return false
}
