package store

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/evalbook/evalbook/pkg/results"
)

// show marks the bidi and invisible controls of a stored text (a title,
// a model, a group label: any of them may come from a file or a model)
// as <U+202E> in what the views show, so that none reorders or hides the
// text around it; JSON keeps the text as stored.
func show(s string) string { return results.ShowInvisible(s) }

// RunList is the stored runs, as `evalbook runs list` shows them; its
// JSON is an array with one object per run.
type RunList []Run

func (l RunList) table() results.Table {
	t := results.Table{Title: "Stored runs", Columns: []results.Column{{Name: "id", Kind: results.KindNumber}, {Name: "time"}, {Name: "command"},
		{Name: "model"}, {Name: "title"}, {Name: "dataset_hash"}, {Name: "rows", Kind: results.KindNumber}, {Name: "metrics"}}}
	for _, r := range l {
		t.Rows = append(t.Rows, []string{strconv.FormatInt(r.ID, 10), r.Created.UTC().Format(time.RFC3339), show(r.Command), show(r.Model), show(r.Title),
			show(r.DatasetHash), strconv.Itoa(r.Rows), show(metricList(r.Metrics))})
	}
	return t
}

// WriteText writes one line per run.
func (l RunList) WriteText(w io.Writer) error {
	if len(l) == 0 {
		_, err := fmt.Fprintln(w, "no stored runs")
		return err
	}
	t := l.table()
	return t.WriteText(w)
}

// Tables returns the runs as one table.
func (l RunList) Tables() []results.Table { return []results.Table{l.table()} }

func optText[T any](p *T) string {
	if p == nil {
		return "unknown"
	}
	return fmt.Sprint(*p)
}

// WriteText writes what the run was and its group figures.
func (r *Run) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "run %d  %s  %s  (%s)\n", r.ID, r.Created.UTC().Format(time.RFC3339), show(r.Command), show(r.Tool))
	for _, kv := range [][2]string{{"title", r.Title}, {"model", r.Model}, {"dataset", r.DatasetPath}, {"file hash", r.DatasetFileHash},
		{"content hash", r.DatasetHash}, {"prompt hash", r.PromptHash}, {"judge prompt hash", r.JudgePromptHash}, {"normalizer", r.Normalizer}} {
		if kv[1] != "" {
			fmt.Fprintf(ew, "  %-18s %s\n", kv[0]+":", show(kv[1]))
		}
	}
	fmt.Fprintf(ew, "  %-18s %d (keyed by %s)\n", "rows:", r.Rows, show(r.KeyKind))
	fmt.Fprintf(ew, "  %-18s in %s, out %s, cost %s\n", "tokens:", optText(r.TokensIn), optText(r.TokensOut), optText(r.Cost))
	fmt.Fprintf(ew, "  %-18s %s\n\n", "settings:", show(string(r.Settings)))
	for _, t := range r.Tables() {
		if err := t.WriteText(ew); err != nil {
			return err
		}
		fmt.Fprintln(ew)
	}
	return ew.err
}

// Tables returns the run's group figures, and its warnings.
func (r *Run) Tables() []results.Table {
	f := results.Float
	t := results.Table{Title: fmt.Sprintf("Run %d figures", r.ID), Columns: []results.Column{{Name: "by"}, {Name: "group"}, {Name: "metric"},
		{Name: "n", Kind: results.KindNumber}, {Name: "blank", Kind: results.KindNumber}, {Name: "accuracy", Kind: results.KindRate},
		{Name: "ci_low", Kind: results.KindRate}, {Name: "ci_high", Kind: results.KindRate}}}
	for _, g := range r.Groups {
		by, grp := g.By, g.Group
		if by == "" {
			by, grp = "(all)", "(all)"
		}
		t.Rows = append(t.Rows, []string{show(by), show(grp), show(g.Metric), strconv.Itoa(g.N), strconv.Itoa(g.Blank), f(g.Accuracy), f(g.CILow), f(g.CIHigh)})
	}
	return append([]results.Table{t}, results.WarningTable(r.Warnings)...)
}
