package main

import (
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"sort"
	"strings"
)

// The checks of a notebook's content, as opposed to its execution: cell
// length, figures quoted in the prose, and outputs equal to a committed
// copy's.

// cellMeta is the part of a cell's metadata the content checks read.
// scripts/nbgen.py writes evalbook.quotes on a markdown cell for each
// {{cell-id: text}} marker in its source.
type cellMeta struct {
	Evalbook struct {
		Quotes []quote `json:"quotes"`
		// Plain lists the figures that a {{=text}} marker declares as
		// deliberately unmarked (an input, a threshold, a literature
		// value); -unmarked does not list them.
		Plain []string `json:"plain"`
	} `json:"evalbook"`
}

// quote is one figure the prose of a markdown cell quotes from the output
// of the code cell named Cell.
type quote struct {
	Cell string `json:"cell"`
	Text string `json:"text"`
}

// sourceLines is the number of lines of a cell's source, not counting
// trailing blank lines.
func sourceLines(src string) int {
	src = strings.TrimRight(src, " \t\r\n")
	if src == "" {
		return 0
	}
	return strings.Count(src, "\n") + 1
}

// checkLength returns a problem for each code cell longer than max lines.
func checkLength(nb *notebook, max int) []string {
	var problems []string
	for i := range nb.Cells {
		c := &nb.Cells[i]
		if c.CellType != "code" {
			continue
		}
		if n := sourceLines(string(c.Source)); n > max {
			problems = append(problems, fmt.Sprintf("%s: %d lines of code, more than %d (-max-lines): move plumbing into notebooks/nbkit or a package, or split the cell",
				cellLabel(i, c), n, max))
		}
	}
	return problems
}

var (
	tagRE   = regexp.MustCompile(`<[^>]*>`)
	spaceRE = regexp.MustCompile(`[\s\x{00a0}\x{202f}]+`)
)

// outputText is everything a reader sees of a cell's outputs, as text:
// streams, text/plain, text/markdown, and text/html with its tags removed
// and entities decoded; runs of white space (no-break spaces too) become one
// space.
func outputText(c *cell) string {
	var b strings.Builder
	for _, o := range c.Outputs {
		if o.OutputType == "stream" {
			b.WriteString(string(o.Text))
			b.WriteByte('\n')
			continue
		}
		for _, mime := range []string{"text/plain", "text/markdown", "text/html"} {
			raw, ok := o.Data[mime]
			if !ok {
				continue
			}
			var m multiline
			if json.Unmarshal(raw, &m) != nil {
				continue
			}
			s := string(m)
			if mime == "text/html" {
				s = html.UnescapeString(tagRE.ReplaceAllString(s, " "))
			}
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	return spaceRE.ReplaceAllString(b.String(), " ")
}

// containsFigure reports whether text occurs in out as a whole figure: not
// preceded by a digit or a decimal point with a digit before it, and not
// followed by a digit or by a decimal point and a digit. So "0.60" is not
// found in "0.603", nor "3" in "13", but "0.603" is found in "(0.603 to".
func containsFigure(out, text string) bool {
	return figureIndex(out, text, 0) >= 0
}

func digit(c byte) bool { return c >= '0' && c <= '9' }

// figureIndex returns the index of the first occurrence of text in out at
// or after from that is a whole figure (see containsFigure), or -1.
func figureIndex(out, text string, from int) int {
	if text == "" {
		return -1
	}
	for from <= len(out) {
		i := strings.Index(out[from:], text)
		if i < 0 {
			return -1
		}
		i += from
		j := i + len(text)
		before := i > 0 && (digit(out[i-1]) || (out[i-1] == '.' && i > 1 && digit(out[i-2]) && digit(text[0])))
		after := j < len(out) && (digit(out[j]) && digit(text[len(text)-1]) ||
			(out[j] == '.' || out[j] == ',') && j+1 < len(out) && digit(out[j+1]) && digit(text[len(text)-1]))
		if !before && !after {
			return i
		}
		from = i + 1
	}
	return -1
}

var (
	// figureRE matches what -unmarked calls a figure: a decimal (0.603)
	// or a percentage (68.3%, 95%). Counts and years are left out: prose
	// is full of them ("notebook 05", "SHA-256", "Miller (2024)").
	figureRE = regexp.MustCompile(`\d+(?:\.\d+)?%|\d+\.\d+`)
	// codeRE matches what is code, not prose, in markdown: fenced blocks,
	// inline code spans and link targets.
	codeRE = regexp.MustCompile("(?s)```.*?```|`[^`\n]*`|\\]\\([^)\n]*\\)")
)

// unmarkedFigures returns, for each markdown cell, the figures of its prose
// that no {{cell-id: text}} marker quotes and no {{=text}} marker declares
// plain, each as "cell N [id]: figure "X" ("...context...") has no marker". A figure is
// covered when it starts inside the first not yet used whole-figure
// occurrence of a quoted or plain text, taken in order.
func unmarkedFigures(nb *notebook) []string {
	var notes []string
	for i := range nb.Cells {
		c := &nb.Cells[i]
		if c.CellType != "markdown" {
			continue
		}
		src := string(c.Source)
		prose := codeRE.ReplaceAllStringFunc(src, func(m string) string { return strings.Repeat(" ", len(m)) })
		type span struct{ from, to int }
		var covered []span
		texts := append([]string(nil), c.Meta.Evalbook.Plain...)
		for _, q := range c.Meta.Evalbook.Quotes {
			texts = append(texts, q.Text)
		}
		for _, t := range texts {
			for from := 0; ; {
				k := figureIndex(prose, t, from)
				if k < 0 {
					break
				}
				used := false
				for _, s := range covered {
					if k >= s.from && k < s.to {
						used = true
					}
				}
				if !used {
					covered = append(covered, span{k, k + len(t)})
					break
				}
				from = k + 1
			}
		}
		for _, m := range figureRE.FindAllStringIndex(prose, -1) {
			a, b := m[0], m[1]
			if a > 0 && (digit(prose[a-1]) || prose[a-1] == '.' || prose[a-1] == '_' || isLetter(prose[a-1])) {
				continue // part of a word or a longer number: v1.2, x0.5, 1.2.3
			}
			if b < len(prose) && (digit(prose[b]) || prose[b] == '_' || isLetter(prose[b]) ||
				prose[b] == '.' && b+1 < len(prose) && digit(prose[b+1])) {
				continue
			}
			ok := false
			for _, s := range covered {
				if a >= s.from && a < s.to {
					ok = true
				}
			}
			if ok {
				continue
			}
			lo, hi := a-30, b+20
			if lo < 0 {
				lo = 0
			}
			if hi > len(prose) {
				hi = len(prose)
			}
			ctx := strings.ToValidUTF8(spaceRE.ReplaceAllString(src[lo:hi], " "), "")
			notes = append(notes, fmt.Sprintf("%s: figure %q (\"...%s...\") has no marker: {{cell-id: %s}} if a cell prints it, {{=%s}} if none does",
				cellLabel(i, c), prose[a:b], strings.TrimSpace(ctx), prose[a:b], prose[a:b]))
		}
	}
	return notes
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// checkQuotes returns a problem for each figure quoted in the prose that
// the named cell's output does not show.
func checkQuotes(nb *notebook) []string {
	byID := map[string]*cell{}
	for i := range nb.Cells {
		if id := nb.Cells[i].ID; id != "" {
			byID[id] = &nb.Cells[i]
		}
	}
	var problems []string
	for i := range nb.Cells {
		c := &nb.Cells[i]
		for _, q := range c.Meta.Evalbook.Quotes {
			where := cellLabel(i, c)
			src, ok := byID[q.Cell]
			switch {
			case !ok:
				problems = append(problems, fmt.Sprintf("%s: quotes %q from cell [%s], which does not exist", where, q.Text, q.Cell))
			case src.CellType != "code":
				problems = append(problems, fmt.Sprintf("%s: quotes %q from cell [%s], which is not a code cell", where, q.Text, q.Cell))
			case len(src.Outputs) == 0:
				problems = append(problems, fmt.Sprintf("%s: quotes %q from cell [%s], which has no output (run the notebook)", where, q.Text, q.Cell))
			case !containsFigure(outputText(src), q.Text):
				problems = append(problems, fmt.Sprintf("%s: quotes %q from cell [%s], whose output does not show it: correct the prose or the marker", where, q.Text, q.Cell))
			}
		}
	}
	return problems
}

// normalOutputs is a cell's outputs as a reader sees them, for comparing a
// fresh run with a committed one: its stdout, its stderr, then its other
// outputs in order with every MIME representation. Streams are joined
// because Jupyter may split or merge them anywhere, and they are set apart
// from the displays because GoNB sends the two through different pipes:
// whether a line printed before a table shows above or below it depends on
// timing (seen on notebook 04). Cell and output metadata (where nbclient
// keeps timings) and execution counts are left out.
func normalOutputs(c *cell) []string {
	var stdout, stderr strings.Builder
	var rest []string
	for _, o := range c.Outputs {
		switch o.OutputType {
		case "stream":
			if o.Name == "stderr" {
				stderr.WriteString(string(o.Text))
			} else {
				stdout.WriteString(string(o.Text))
			}
		case "error":
			rest = append(rest, "error: "+o.EName+": "+o.EValue)
		default:
			mimes := make([]string, 0, len(o.Data))
			for m := range o.Data {
				mimes = append(mimes, m)
			}
			sort.Strings(mimes)
			for _, m := range mimes {
				var v multiline
				if json.Unmarshal(o.Data[m], &v) != nil {
					v = multiline(o.Data[m]) // e.g. application/json: compare the raw JSON
				}
				rest = append(rest, o.OutputType+" "+m+": "+string(v))
			}
		}
	}
	var out []string
	if stdout.Len() > 0 {
		out = append(out, "stdout: "+stdout.String())
	}
	if stderr.Len() > 0 {
		out = append(out, "stderr: "+stderr.String())
	}
	return append(out, rest...)
}

// compareOutputs returns a problem for each code cell of fresh whose
// outputs differ from the cell with the same id in committed, and for
// cells that are in one notebook only.
func compareOutputs(fresh, committed *notebook, committedPath string) []string {
	old := map[string]*cell{}
	for i := range committed.Cells {
		if c := &committed.Cells[i]; c.CellType == "code" {
			old[c.ID] = c
		}
	}
	var problems []string
	seen := map[string]bool{}
	for i := range fresh.Cells {
		c := &fresh.Cells[i]
		if c.CellType != "code" {
			continue
		}
		seen[c.ID] = true
		where := cellLabel(i, c)
		o, ok := old[c.ID]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: not in %s (regenerate it: scripts/nbgen.py)", where, committedPath))
			continue
		}
		if o.Source != c.Source {
			problems = append(problems, fmt.Sprintf("%s: its source differs from %s (regenerate it: scripts/nbgen.py)", where, committedPath))
			continue
		}
		if d := firstDifference(normalOutputs(o), normalOutputs(c)); d != "" {
			problems = append(problems, fmt.Sprintf("%s: output differs from %s: %s (if the change is meant, commit the fresh outputs: scripts/run-notebooks.sh --update)", where, committedPath, d))
		}
	}
	var missing []string
	for id := range old {
		if !seen[id] {
			missing = append(missing, id)
		}
	}
	sort.Strings(missing)
	for _, id := range missing {
		problems = append(problems, fmt.Sprintf("cell [%s] of %s is not in the executed notebook", id, committedPath))
	}
	return problems
}

// firstDifference describes the first line where two output lists
// differ, or returns "" when they are equal.
func firstDifference(committed, fresh []string) string {
	a := strings.Split(strings.Join(committed, "\n"), "\n")
	b := strings.Split(strings.Join(fresh, "\n"), "\n")
	if len(committed) == 0 {
		a = nil
	}
	if len(fresh) == 0 {
		b = nil
	}
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y || i >= len(a) || i >= len(b) {
			switch {
			case i >= len(a):
				return fmt.Sprintf("output line %d is new: %s", i+1, clip(y))
			case i >= len(b):
				return fmt.Sprintf("output line %d is gone: %s", i+1, clip(x))
			}
			return fmt.Sprintf("output line %d was %s, is now %s", i+1, clip(x), clip(y))
		}
	}
	return ""
}

// clip quotes s, cut to 100 runes.
func clip(s string) string {
	if r := []rune(s); len(r) > 100 {
		s = string(r[:100]) + "..."
	}
	return fmt.Sprintf("%q", s)
}
