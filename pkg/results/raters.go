package results

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// RaterAgreement is how well raters agree on a label table: the result of
// pkg/agree's Analyze and the JSON document of `evalbook agree`. (Agreement,
// in score.go's sense, is something else: two metrics compared row by row.)
//
// Exactly one of Kappa, FleissKappa and Alpha is set, by Metric ("kappa",
// "fleiss" or "alpha"); CILow and CIHigh bound it. N counts the items the
// statistic used (for alpha, the pairable units). Observed and Expected
// are the agreement seen and the agreement expected by chance: weighted
// when Weights is set; for Fleiss' kappa the mean share of agreeing rater
// pairs per item; for alpha the nominal agreement over pairable ratings,
// next to the disagreements alpha is made of.
type RaterAgreement struct {
	Kind                 string   `json:"kind"` // always "agree"
	Metric               string   `json:"metric"`
	Raters               []string `json:"raters"`
	Weights              string   `json:"weights,omitempty"` // linear or quadratic; "" unweighted
	Level                string   `json:"level,omitempty"`   // alpha's level: nominal, ordinal, interval or ratio
	N                    int      `json:"n"`
	Observed             float64  `json:"observed"`
	Expected             float64  `json:"expected"`
	Kappa                *float64 `json:"kappa,omitempty"`
	FleissKappa          *float64 `json:"fleiss_kappa,omitempty"`
	Alpha                *float64 `json:"alpha,omitempty"`
	ObservedDisagreement *float64 `json:"observed_disagreement,omitempty"`
	ExpectedDisagreement *float64 `json:"expected_disagreement,omitempty"`
	CILow                float64  `json:"ci_low"`
	CIHigh               float64  `json:"ci_high"`
	Confidence           float64  `json:"confidence"`
	Resamples            int      `json:"resamples"`
	Seed                 uint64   `json:"seed"`
	// Confusion is the cross-table of the first two raters over the items
	// both rated, when there are exactly two raters; nil otherwise.
	Confusion *RaterConfusion `json:"confusion"`
	// Disagreements lists, in file order, every item on which the raters'
	// ratings differ: the items to adjudicate.
	Disagreements []RaterDisagreement `json:"disagreements"`
	// TextColumns names the cells of each disagreement's Text.
	TextColumns []string  `json:"text_columns,omitempty"`
	Warnings    []Warning `json:"warnings"`
}

// RaterConfusion is a confusion matrix of two raters: Rows[i][j] items got
// Labels[i] from the first rater and Labels[j] from the second.
type RaterConfusion struct {
	Labels []string `json:"labels"`
	Rows   [][]int  `json:"rows"`
}

// RaterDisagreement is one item the raters disagree on.
type RaterDisagreement struct {
	// Item names the item: its id, or its 1-based row number after the
	// header when the table has no id column.
	Item string `json:"item"`
	Line int    `json:"line"` // the item's line in the label file
	// Ratings maps each rater to the label given ("" for none).
	Ratings map[string]string `json:"ratings"`
	// Text holds the item's other cells (its question, the answers
	// rated), one per RaterAgreement.TextColumns, when they were attached
	// for a report (agree.AttachText); empty otherwise.
	Text []string `json:"text,omitempty"`
}

// statistic returns the name of the statistic as the text shows it, and
// as the tables name it, and its value (nil when none is set).
func (r *RaterAgreement) statistic() (text, table string, value *float64) {
	switch {
	case r.Alpha != nil:
		return "alpha (" + r.Level + ")", "alpha", r.Alpha
	case r.FleissKappa != nil:
		return "Fleiss' kappa", "fleiss_kappa", r.FleissKappa
	case r.Kappa != nil && r.Weights != "":
		return r.Weights + "-weighted kappa", "kappa", r.Kappa
	}
	return "kappa", "kappa", r.Kappa
}

// agreeing returns the number of items on which both raters agree, from
// the confusion matrix of Cohen's kappa, and -1 for the other statistics
// (whose observed agreement is not a count of items).
func (r *RaterAgreement) agreeing() int {
	if r.Kappa == nil || r.Confusion == nil {
		return -1
	}
	n := 0
	for i := range r.Confusion.Labels {
		n += r.Confusion.Rows[i][i]
	}
	return n
}

// WriteText writes the text of `evalbook agree`: the figures, the
// confusion matrix (two raters), the items to adjudicate and the warnings.
// Labels and ids longer than MaxTextCell characters are shortened in it
// (TextCell); the JSON and the tables keep them whole.
func (r *RaterAgreement) WriteText(w io.Writer) error {
	// Local helpers, so as not to claim package-level names other
	// result types may want.
	fixed3 := func(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }
	noun := func(n int, one, many string) string {
		if n == 1 {
			return one
		}
		return many
	}
	// Buffered: tabwriter writes every cell and its padding apart, and
	// a million disagreements would otherwise be millions of writes.
	bw := bufio.NewWriterSize(w, 64<<10)
	ew := &errWriter{w: bw}
	tw := tabwriter.NewWriter(ew, 0, 8, 2, ' ', 0)
	name, _, stat := r.statistic()
	value := 0.0
	if stat != nil {
		value = *stat
	}
	unit := noun(r.N, "item", "items")
	if r.Alpha != nil {
		unit = "pairable " + unit
	}
	fmt.Fprintf(tw, "raters\t%s\n", strings.Join(r.Raters, ", "))
	fmt.Fprintf(tw, "n\t%d %s\n", r.N, unit)
	what := "agreement"
	switch agreeing := r.agreeing(); {
	case r.Weights != "":
		what = "weighted agreement"
	case agreeing >= 0:
		what = fmt.Sprintf("%d of %d %s", agreeing, r.N, noun(r.N, "item agrees", "items agree"))
	case r.FleissKappa != nil:
		what = "mean share of agreeing rater pairs per item"
	case r.Alpha != nil:
		what = "share of agreeing pairs of ratings"
	}
	fmt.Fprintf(tw, "observed\t%s\t%s\n", fixed3(r.Observed), what)
	fmt.Fprintf(tw, "expected\t%s\tby chance\n", fixed3(r.Expected))
	fmt.Fprintf(tw, "%s\t%s\t%g%% interval %s to %s (bootstrap over items, %d resamples, seed %d)\n",
		name, fixed3(value), 100*r.Confidence, fixed3(r.CILow), fixed3(r.CIHigh), r.Resamples, r.Seed)
	tw.Flush()
	if r.Confusion != nil && len(r.Raters) >= 2 {
		fmt.Fprintf(ew, "\nconfusion: %s in rows, %s in columns\n", r.Raters[0], r.Raters[1])
		tw = tabwriter.NewWriter(ew, 0, 8, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "\t")
		for _, l := range r.Confusion.Labels {
			fmt.Fprintf(tw, "%s\t", TextCell(l))
		}
		fmt.Fprintln(tw)
		for i, row := range r.Confusion.Rows {
			fmt.Fprintf(tw, "%s\t", TextCell(r.Confusion.Labels[i]))
			for _, v := range row {
				fmt.Fprintf(tw, "%d\t", v)
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
	if len(r.Disagreements) == 0 {
		fmt.Fprintln(ew, "\nno disagreements")
	} else {
		fmt.Fprintf(ew, "\ndisagreements, to adjudicate (%d)\n", len(r.Disagreements))
		tw = tabwriter.NewWriter(ew, 0, 8, 2, ' ', 0)
		fmt.Fprintf(tw, "item\tline\t%s\n", strings.Join(r.Raters, "\t"))
		for _, d := range r.Disagreements {
			fmt.Fprintf(tw, "%s\t%d", TextCell(d.Item), d.Line)
			for _, rater := range r.Raters {
				v := d.Ratings[rater]
				if v == "" {
					v = "-"
				}
				fmt.Fprintf(tw, "\t%s", TextCell(v))
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintln(ew, "\nwarnings:")
		for _, wr := range r.Warnings {
			fmt.Fprintf(ew, "  %s\n", wr.Message)
		}
	}
	if ew.err == nil {
		ew.err = bw.Flush()
	}
	return ew.err
}

// Tables lays the result out as tables, for the XLSX and HTML renderers:
// the figures, the confusion matrix (two raters), the items to adjudicate
// (when there are any) and the warnings (when there are any).
func (r *RaterAgreement) Tables() []Table {
	_, name, stat := r.statistic()
	sum := Table{
		Title: "Agreement: " + strings.Join(r.Raters, ", "),
		Note: fmt.Sprintf("%s over %d items; %s%% bootstrap interval over items (%d resamples, seed %d)",
			r.Metric, r.N, strconv.FormatFloat(100*r.Confidence, 'f', -1, 64), r.Resamples, r.Seed),
		Columns: []Column{{Name: "figure"}, {Name: "value", Kind: KindNumber, PerRow: true},
			{Name: "low", Kind: KindNumber, PerRow: true}, {Name: "high", Kind: KindNumber, PerRow: true}},
		Rows: [][]string{
			{"n", strconv.Itoa(r.N), "", ""},
			{"observed", Float(r.Observed), "", ""},
			{"expected", Float(r.Expected), "", ""},
		},
		RowKinds: []string{KindCount, KindRate, KindRate},
	}
	if stat != nil {
		sum.Rows = append(sum.Rows, []string{name, Float(*stat), Float(r.CILow), Float(r.CIHigh)})
		sum.RowKinds = append(sum.RowKinds, KindNumber)
	}
	tables := []Table{sum}
	if c := r.Confusion; c != nil && len(r.Raters) >= 2 {
		t := Table{Title: "Confusion: " + r.Raters[0] + " in rows, " + r.Raters[1] + " in columns",
			Columns: []Column{{Name: r.Raters[0] + " \\ " + r.Raters[1]}}}
		for _, l := range c.Labels {
			t.Columns = append(t.Columns, Column{Name: l, Kind: KindNumber})
		}
		for i, l := range c.Labels {
			row := []string{l}
			for _, n := range c.Rows[i] {
				row = append(row, strconv.Itoa(n))
			}
			t.Rows = append(t.Rows, row)
		}
		tables = append(tables, t)
	}
	if len(r.Disagreements) > 0 {
		t := Table{Title: "Disagreements, to adjudicate", Columns: []Column{{Name: "item"}, {Name: "line", Kind: KindNumber}}}
		for _, ra := range r.Raters {
			t.Columns = append(t.Columns, Column{Name: ra})
		}
		for _, c := range r.TextColumns {
			t.Columns = append(t.Columns, Column{Name: c})
		}
		for _, d := range r.Disagreements {
			row := []string{d.Item, strconv.Itoa(d.Line)}
			for _, ra := range r.Raters {
				row = append(row, d.Ratings[ra])
			}
			for j := range r.TextColumns {
				cell := ""
				if j < len(d.Text) {
					cell = d.Text[j]
				}
				row = append(row, cell)
			}
			t.Rows = append(t.Rows, row)
		}
		tables = append(tables, t)
	}
	return append(tables, WarningTable(r.Warnings)...)
}

// MaxTextCell is the most characters of a label or id that the text of a
// result shows in a table cell: a column is as wide as its widest cell,
// so one 50 MiB label would pad every row of the disagreements to 50 MiB
// (gigabytes of text for a few hundred rows).
const MaxTextCell = 200

// TextCell returns s as a text table shows it: whole when it has at most
// MaxTextCell characters (code points), else its first MaxTextCell-1 and
// "…".
func TextCell(s string) string {
	if len(s) <= MaxTextCell {
		return s
	}
	n := 0
	for i := range s {
		if n == MaxTextCell-1 {
			if _, size := utf8.DecodeRuneInString(s[i:]); i+size == len(s) {
				return s // exactly MaxTextCell characters
			}
			return s[:i] + "…"
		}
		n++
	}
	return s
}
