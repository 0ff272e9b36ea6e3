package labelbook

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
)

func writeTables(w io.Writer, ts []results.Table) error {
	for _, t := range ts {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
		if err := t.WriteText(w); err != nil {
			return err
		}
	}
	return nil
}

// WriteText writes what the export sampled.
func (r *ExportResult) WriteText(w io.Writer) error {
	by := ""
	if r.By != "" {
		by = fmt.Sprintf(", stratified by %s (%s allocation)", r.By, r.Allocation)
	}
	out := r.Out
	if out == "" {
		out = "the workbook"
	}
	if _, err := fmt.Fprintf(w, "Labelling workbook %s: %d of the judged rows of %s%s, seed %d; shown: %s; judge verdicts from %s (hidden from the labellers).\n",
		out, r.Items, r.Source, by, r.Seed, strings.Join(r.Show, ", "), r.JudgeColumn); err != nil {
		return err
	}
	return writeTables(w, r.Tables())
}

// Tables returns the sample per group and the warnings.
func (r *ExportResult) Tables() []results.Table {
	t := results.Table{Title: "Sample per group",
		Note: "judged: rows with a judge verdict; judge_pass: those the judge passed; sampled: rows in the workbook (the same seed samples the same ids).",
		Columns: []results.Column{{Name: "group"}, {Name: "judged", Kind: results.KindNumber}, {Name: "judge_pass", Kind: results.KindNumber},
			{Name: "sampled", Kind: results.KindNumber}}}
	for _, g := range r.Groups {
		t.Rows = append(t.Rows, []string{GroupLabel(g.Group), itoa(g.Judged), itoa(g.Pass), itoa(g.Sampled)})
	}
	return append([]results.Table{t}, results.WarningTable(r.Warnings)...)
}

// WriteText writes the labellers, their agreement, the items to
// adjudicate and what the labelled file holds.
func (r *ImportResult) WriteText(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "Human labels of %d items from %s (%d workbooks): %d labelled rows (%d human passes, %d judge passes), %d left out, %d to adjudicate; %s%% intervals.\n",
		r.Items, r.Source, len(r.Workbooks), r.Labelled, r.HumanPass, r.JudgePass, r.LeftOut, len(r.ToAdjudicate),
		strconv.FormatFloat(100*r.Confidence, 'g', -1, 64)); err != nil {
		return err
	}
	return writeTables(w, r.Tables())
}

// Tables returns the workbooks, the agreement per group, the items to
// adjudicate and the warnings.
func (r *ImportResult) Tables() []results.Table {
	f := results.Float
	opt := func(x *float64) string {
		if x == nil {
			return ""
		}
		return f(*x)
	}
	books := results.Table{Title: "Labellers",
		Columns: []results.Column{{Name: "labeller"}, {Name: "file"}, {Name: "labelled", Kind: results.KindNumber}, {Name: "pass", Kind: results.KindNumber},
			{Name: "fail", Kind: results.KindNumber}, {Name: "unsure", Kind: results.KindNumber}, {Name: "empty", Kind: results.KindNumber}}}
	for _, b := range r.Workbooks {
		books.Rows = append(books.Rows, []string{b.Labeller, b.File, itoa(b.Labelled), itoa(b.Pass), itoa(b.Fail), itoa(b.Unsure), itoa(b.Empty)})
	}
	ts := []results.Table{books}
	if len(r.Agreement) > 0 {
		ag := results.Table{Title: "Agreement between labellers",
			Note: fmt.Sprintf("Over the items every labeller labelled (pass, fail, unsure as categories); kappa 1 is perfect, 0 chance; %s%% percentile bootstrap interval over items (%d resamples, seed %d).",
				strconv.FormatFloat(100*r.Confidence, 'g', -1, 64), r.Resamples, r.Seed),
			Columns: []results.Column{{Name: "group"}, {Name: "statistic"}, {Name: "n", Kind: results.KindNumber}, {Name: "agreeing", Kind: results.KindNumber},
				{Name: "observed", Kind: results.KindRate}, {Name: "kappa", Kind: results.KindNumber}, {Name: "ci_low", Kind: results.KindNumber},
				{Name: "ci_high", Kind: results.KindNumber}}}
		for _, a := range r.Agreement {
			ag.Rows = append(ag.Rows, []string{GroupLabel(a.Group), a.Statistic, itoa(a.N), itoa(a.Agreeing), opt(a.Observed), opt(a.Kappa), opt(a.CILow), opt(a.CIHigh)})
		}
		ts = append(ts, ag)
	}
	if len(r.ToAdjudicate) > 0 {
		adj := results.Table{Title: "To adjudicate",
			Note:    "Items whose labels differ, or that only got unsure: decide each (the disagreements file's human column, then --adjudicated).",
			Columns: []results.Column{{Name: "id"}, {Name: "group"}, {Name: "cell"}, {Name: "reason"}, {Name: "labels"}, {Name: "human"}}}
		for _, a := range r.ToAdjudicate {
			var ls []string
			for _, c := range a.Labels {
				l := c.Labeller + ": " + c.Label
				if c.Note != "" {
					l += " (" + c.Note + ")"
				}
				ls = append(ls, l)
			}
			h := ""
			if a.Human != nil {
				h = itoa(*a.Human)
			}
			adj.Rows = append(adj.Rows, []string{a.ID, GroupLabel(a.Group), a.Cell, a.Reason, strings.Join(ls, "; "), h})
		}
		ts = append(ts, adj)
	}
	return append(ts, results.WarningTable(r.Warnings)...)
}
