package mc

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/evalbook/evalbook/pkg/results"
)

// EvaluateFile computes the report of a prediction file read by Read or
// ReadFile, as `evalbook mc` does: Evaluate over its questions, with the
// report naming the file (name), its hash and where its languages came
// from. An error from Evaluate is returned prefixed with the name.
func EvaluateFile(f *File, name string, opt Options) (*Report, error) {
	rep, err := Evaluate(f.Questions, f.Mode, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	rep.Source, rep.Hash, rep.LanguageSource = name, f.Hash, f.LanguageSource
	return rep, nil
}

// sections returns the report's groups under their titles: overall (as
// "all"), by language, by subject; a section with no group is left out.
func (r *Report) sections() []struct {
	title  string
	groups []Group
} {
	overall := r.Overall
	overall.Group = "all"
	all := []struct {
		title  string
		groups []Group
	}{{"Overall", []Group{overall}}, {"By language", r.Languages}, {"By subject", r.Subjects}}
	out := all[:0]
	for _, s := range all {
		if len(s.groups) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// WriteText writes the report as tables: a heading, then one row per
// group and one column per metric with its interval, then the warnings
// with the lines they concern.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Multiple choice: %s (hash %s)\n", r.Source, r.Hash)
	mode := "per-option log-likelihoods"
	if r.Mode == "letters" {
		mode = "predicted letters"
	}
	lang := "language from " + r.LanguageSource
	if r.LanguageSource == "none" {
		lang = "no language (no language column, and the file name is not <model>_<language>)"
	}
	fmt.Fprintf(&b, "%d %s, %s; %s; %.0f%% intervals (Wilson; MRR: bootstrap, %d resamples, seed %d)\n",
		r.Overall.N, plural(r.Overall.N, "question", "questions"), mode, lang, r.Settings.Confidence*100, r.Settings.Resamples, r.Settings.Seed)
	for _, sec := range r.sections() {
		fmt.Fprintf(&b, "\n%s\n", sec.title)
		tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		head := []string{strings.ToLower(strings.TrimPrefix(sec.title, "By ")), "n"}
		head = append(head, r.Metrics...)
		fmt.Fprintln(tw, strings.Join(head, "\t"))
		for _, g := range sec.groups {
			row := []string{groupName(g.Group), strconv.Itoa(g.N)}
			for _, m := range r.Metrics {
				s := g.Metrics[m]
				row = append(row, fmt.Sprintf("%.3f [%.3f, %.3f]", s.Value, s.CILow, s.CIHigh))
			}
			fmt.Fprintln(tw, strings.Join(row, "\t"))
		}
		tw.Flush()
	}
	if len(r.Warnings) > 0 {
		b.WriteString("\nWarnings\n")
		for _, wn := range r.Warnings {
			fmt.Fprintf(&b, "  - %s", wn.Message)
			switch {
			case len(wn.Lines) == 1 && wn.Count == 1:
				fmt.Fprintf(&b, " (%s:%d)", r.Source, wn.Lines[0])
			case len(wn.Lines) > 0:
				more := ""
				if wn.Count > len(wn.Lines) {
					more = ", ..."
				}
				fmt.Fprintf(&b, " (%s, lines %s%s)", r.Source, joinInts(wn.Lines), more)
			}
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Tables returns one table per section (each metric with its interval
// bounds) and the warnings.
func (r *Report) Tables() []results.Table {
	var out []results.Table
	for _, sec := range r.sections() {
		name := strings.ToLower(strings.TrimPrefix(sec.title, "By "))
		t := results.Table{Title: sec.title, Columns: []results.Column{{Name: name}, {Name: "n", Kind: results.KindNumber}}, Rows: [][]string{}}
		for _, m := range r.Metrics {
			t.Columns = append(t.Columns, results.Column{Name: m, Kind: results.KindRate},
				results.Column{Name: m + " low", Kind: results.KindRate}, results.Column{Name: m + " high", Kind: results.KindRate})
		}
		for _, g := range sec.groups {
			row := []string{groupName(g.Group), strconv.Itoa(g.N)}
			for _, m := range r.Metrics {
				s := g.Metrics[m]
				row = append(row, results.Float(s.Value), results.Float(s.CILow), results.Float(s.CIHigh))
			}
			t.Rows = append(t.Rows, row)
		}
		out = append(out, t)
	}
	return append(out, results.WarningTable(r.Warnings)...)
}

// groupName shows an empty group value as "(none)".
func groupName(g string) string {
	if g == "" {
		return "(none)"
	}
	return g
}

func joinInts(lines []int) string {
	s := make([]string, len(lines))
	for i, l := range lines {
		s[i] = strconv.Itoa(l)
	}
	return strings.Join(s, ", ")
}
