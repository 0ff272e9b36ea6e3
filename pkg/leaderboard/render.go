package leaderboard

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/sample"
)

// cell returns the cell of model and language, if any.
func (b *Board) cell(model, lang string) (Cell, bool) {
	for _, c := range b.Cells {
		if c.Model == model && c.Language == lang {
			return c, true
		}
	}
	return Cell{}, false
}

// WriteText writes the board as aligned text: the models × languages
// table (value and interval, * on a significant leader), the leader of
// each language with its paired test, the per-domain values, the files
// and the warnings.
func (b *Board) WriteText(w io.Writer) error {
	var s strings.Builder
	b.writeHeading(&s)
	b.writeGrid(&s)
	b.writeLeaders(&s)
	b.writeRanks(&s)
	b.writeDomains(&s)
	b.writeSNR(&s)
	b.writeFiles(&s)
	_, err := io.WriteString(w, s.String())
	return err
}

// writeHeading writes the title line (metric, size, normalisation,
// intervals) and what the marks and pairing mean.
func (b *Board) writeHeading(s *strings.Builder) {
	iv := "no intervals"
	if b.Settings.Interval != "none" {
		iv = fmt.Sprintf("%.0f%% %s intervals", b.Settings.Confidence*100, map[string]string{"wilson": "Wilson",
			"normal": "normal", "bootstrap": "bootstrap"}[b.Settings.Interval])
	}
	one, many := b.axisNouns()
	norm := "normalisation " + b.Settings.Normalize
	if b.Metric.By == sample.ByHarness {
		norm = "the harness's own per-sample values"
	}
	fmt.Fprintf(s, "Leaderboard: %s (%s), %s × %s, %s, %s\n",
		b.Metric.ID, b.Metric.Name, plural(len(b.Models), "model", "models"), plural(len(b.Languages), one, many), norm, iv)
	if b.Level == "corpus" {
		s.WriteString("Values are corpus-level (from statistics summed over each cell's rows), not means of rows.\n")
	}
	fmt.Fprintf(s, "* marks the best model of a %s only when its lead over the runner-up is significant\n"+
		"  (two-sided sign test on the questions both answered, α = %g).\n", one, b.Settings.Alpha)
	if b.Settings.PairKey != "" {
		fmt.Fprintf(s, "Items are paired across models by %s.\n", b.Settings.PairKey)
	}
	s.WriteString("\n")
}

// writeGrid writes the models × languages table: value, interval and *
// on a significant leader; a last row gives each column's n.
func (b *Board) writeGrid(s *strings.Builder) {
	tw := tabwriter.NewWriter(s, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "model\t"+strings.Join(b.Languages, "\t"))
	for _, m := range b.Models {
		row := []string{m}
		for _, l := range b.Languages {
			c, ok := b.cell(m, l)
			if !ok {
				row = append(row, "-")
				continue
			}
			txt := fmt.Sprintf("%.3f", c.Value)
			if b.Settings.Interval != "none" {
				txt += fmt.Sprintf(" [%.3f, %.3f]", c.CILow, c.CIHigh)
			}
			if c.Best {
				txt += " *"
			}
			row = append(row, txt)
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	n := []string{"n"}
	for _, l := range b.Languages {
		counts := []string{}
		for _, m := range b.Models {
			if c, ok := b.cell(m, l); ok {
				counts = append(counts, strconv.Itoa(c.N))
			}
		}
		n = append(n, strings.Join(dedupe(counts), "/"))
	}
	fmt.Fprintln(tw, strings.Join(n, "\t"))
	tw.Flush()
}

// writeLeaders writes each language's best model against the runner-up
// with the paired test, if the board has leaders.
func (b *Board) writeLeaders(s *strings.Builder) {
	if len(b.Leaders) == 0 {
		return
	}
	one, _ := b.axisNouns()
	s.WriteString("\nLeaders (best against runner-up on shared questions)\n")
	tw := tabwriter.NewWriter(s, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, one+"\tbest\trunner-up\tlead\tshared\tbetter\tworse\tp\tverdict")
	for _, ld := range b.Leaders {
		verdict := "not significant"
		if ld.Significant {
			verdict = "significant"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%+.3f\t%d\t%d\t%d\t%s\t%s\n", ld.Language, ld.Best, ld.RunnerUp,
			ld.BestValue-ld.RunnerValue, ld.Shared, ld.Better, ld.Worse, strconv.FormatFloat(ld.P, 'g', 3, 64), verdict)
	}
	tw.Flush()
}

// writeDomains writes the per-domain values (with n) of every model, a
// row per domain and language in the board's order, if there are any.
func (b *Board) writeDomains(s *strings.Builder) {
	if len(b.Domains) == 0 {
		return
	}
	s.WriteString("\nBy domain (value, with n in brackets)\n")
	tw := tabwriter.NewWriter(s, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "domain\tlanguage\t"+strings.Join(b.Models, "\t"))
	type dl struct{ d, l string }
	var order []dl
	vals := map[dl]map[string]DomainCell{}
	for _, c := range b.Domains {
		k := dl{c.Domain, c.Language}
		if vals[k] == nil {
			vals[k] = map[string]DomainCell{}
			order = append(order, k)
		}
		vals[k][c.Model] = c
	}
	for _, k := range order {
		row := []string{results.GroupLabel(k.d), k.l}
		for _, m := range b.Models {
			if c, ok := vals[k][m]; ok {
				row = append(row, fmt.Sprintf("%.3f (%d)", c.Value, c.N))
			} else {
				row = append(row, "-")
			}
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
}

// writeFiles writes the files read (model, languages and their source,
// rows, hash) and the warnings.
func (b *Board) writeFiles(s *strings.Builder) {
	one, _ := b.axisNouns()
	s.WriteString("\nFiles\n")
	tw := tabwriter.NewWriter(s, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "file\tmodel\t%s\t%s from\trows\thash\n", one, one)
	for _, f := range b.Files {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\n", f.Path, f.Model, strings.Join(f.Languages, ","), f.LanguageSource, f.Rows, f.Hash)
	}
	tw.Flush()
	if len(b.Warnings) > 0 {
		s.WriteString("\nWarnings\n")
		for _, wn := range b.Warnings {
			fmt.Fprintf(s, "  - %s\n", wn.Message)
		}
	}
}

// The axes of a board (Board.Axis).
const (
	AxisLanguage = "language"
	AxisTask     = "task"
)

// axisNouns names what the board's columns are: languages, or tasks.
func (b *Board) axisNouns() (one, many string) {
	if b.Axis == AxisTask {
		return "task", "tasks"
	}
	return "language", "languages"
}

// plural formats a count with the singular or plural noun.
func plural(n int, singular, pluralForm string) string {
	if n == 1 {
		return "1 " + singular
	}
	return strconv.Itoa(n) + " " + pluralForm
}

func dedupe(s []string) []string {
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// Tables returns the board as results.Tables, for renderers that draw
// generic tables (XLSX, HTML): the cells (one row per model and
// language), the leaders, and the per-domain values.
func (b *Board) Tables() []results.Table {
	f := results.Float
	one, _ := b.axisNouns()
	cells := results.Table{
		Title: fmt.Sprintf("Leaderboard: %s", b.Metric.ID),
		Sheet: "Cells " + b.Metric.ID,
		Note: fmt.Sprintf("%s per model and %s, %.0f%% %s intervals; best = significant lead over the runner-up (sign test, α = %g). %s",
			b.Metric.Name, one, b.Settings.Confidence*100, b.Settings.Interval, b.Settings.Alpha, b.rankNote()),
		Columns: []results.Column{{Name: one}, {Name: "model"}, {Name: "n", Kind: results.KindNumber},
			{Name: "blank", Kind: results.KindNumber}, {Name: b.Metric.ID, Kind: results.KindRate},
			{Name: "ci_low", Kind: results.KindRate}, {Name: "ci_high", Kind: results.KindRate}, {Name: "best"},
			{Name: "rank", Kind: results.KindNumber}, {Name: "rank_low", Kind: results.KindNumber},
			{Name: "rank_high", Kind: results.KindNumber}, {Name: "tier", Kind: results.KindNumber}},
	}
	for _, c := range b.Cells {
		best := ""
		if c.Best {
			best = "best"
		}
		cells.Rows = append(cells.Rows, []string{c.Language, c.Model, strconv.Itoa(c.N), strconv.Itoa(c.Blank),
			f(c.Value), f(c.CILow), f(c.CIHigh), best, strconv.Itoa(c.Rank), optInt(c.RankLow), optInt(c.RankHigh), strconv.Itoa(c.Tier)})
	}
	leaders := results.Table{
		Title: "Leaders",
		Note:  "The best model of each " + one + " against the runner-up, on the questions both answered.",
		Columns: []results.Column{{Name: one}, {Name: "best"}, {Name: "runner_up"},
			{Name: "best_value", Kind: results.KindRate}, {Name: "runner_up_value", Kind: results.KindRate},
			{Name: "shared", Kind: results.KindNumber}, {Name: "better", Kind: results.KindNumber},
			{Name: "worse", Kind: results.KindNumber}, {Name: "test"}, {Name: "p", Kind: results.KindP}, {Name: "significant"}},
	}
	for _, ld := range b.Leaders {
		leaders.Rows = append(leaders.Rows, []string{ld.Language, ld.Best, ld.RunnerUp, f(ld.BestValue), f(ld.RunnerValue),
			strconv.Itoa(ld.Shared), strconv.Itoa(ld.Better), strconv.Itoa(ld.Worse), ld.Test, f(ld.P), results.YesNo(ld.Significant)})
	}
	domains := results.Table{
		Title: "By domain",
		Columns: []results.Column{{Name: "domain"}, {Name: "language"}, {Name: "model"}, {Name: "n", Kind: results.KindNumber},
			{Name: b.Metric.ID, Kind: results.KindRate}},
	}
	for _, d := range b.Domains {
		domains.Rows = append(domains.Rows, []string{d.Domain, d.Language, d.Model, strconv.Itoa(d.N), f(d.Value)})
	}
	return append([]results.Table{cells, leaders, domains}, b.rankTables()...)
}
