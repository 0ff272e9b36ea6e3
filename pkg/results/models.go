package results

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
)

// ModelComparison compares two models (or versions) whose outcomes sit in
// one long table, a row per case and model, paired by key: over all
// cases and within each group (language, domain), each model's pass rate
// with an interval, the change B − A with its paired bootstrap interval,
// the flips, and the exact sign test and McNemar's test over them, with
// the groups' sign-test p-values adjusted for the number of groups
// (Holm). pkg/compare's Models computes it.
type ModelComparison struct {
	Kind string `json:"kind"` // always "compare-models"
	// A and B are the models compared; changes are B − A.
	A string `json:"a"`
	B string `json:"b"`
	// Key, Metric and By name the columns: the case key, the 0/1 outcome
	// and the group ("" without groups).
	Key        string  `json:"key"`
	Metric     string  `json:"metric"`
	By         string  `json:"by,omitempty"`
	CI         string  `json:"ci"`
	Confidence float64 `json:"confidence"`
	Resamples  int     `json:"resamples"`
	Seed       uint64  `json:"seed"`
	// All is the comparison over every case (its Group is "all").
	All ModelGroup `json:"all"`
	// Groups holds one entry per group, sorted by name (empty without By).
	Groups   []ModelGroup `json:"groups"`
	Warnings []Warning    `json:"warnings"`
}

// ModelGroup is a ModelComparison's figures over one set of cases.
type ModelGroup struct {
	Group string `json:"group"`
	N     int    `json:"n"`
	// APass and BPass count the passing cases; A and B are the pass
	// rates, with their intervals.
	APass int     `json:"a_pass"`
	BPass int     `json:"b_pass"`
	A     float64 `json:"a_rate"`
	ALow  float64 `json:"a_ci_low"`
	AHigh float64 `json:"a_ci_high"`
	B     float64 `json:"b_rate"`
	BLow  float64 `json:"b_ci_low"`
	BHigh float64 `json:"b_ci_high"`
	// Diff is B − A with its paired bootstrap interval.
	Diff     float64 `json:"diff"`
	DiffLow  float64 `json:"diff_ci_low"`
	DiffHigh float64 `json:"diff_ci_high"`
	// Better counts the cases B passes and A fails, Worse the reverse.
	Better int `json:"better"`
	Worse  int `json:"worse"`
	// PSign is the exact two-sided sign test over the flips, PMcNemar
	// McNemar's chi-square test with continuity correction, and PHolm
	// the sign test's p-value adjusted by Holm's method over the groups
	// (PSign itself for All).
	PSign    float64 `json:"p_sign"`
	PMcNemar float64 `json:"p_mcnemar"`
	PHolm    float64 `json:"p_holm"`
}

// Tables gives the comparison as one table, all cases first, then a row
// per group, and its warnings.
func (r *ModelComparison) Tables() []Table {
	level := strconv.FormatFloat(100*r.Confidence, 'f', -1, 64) + "%"
	by := r.By
	if by == "" {
		by = "group"
	}
	t := Table{
		Title: fmt.Sprintf("%s against %s on %s", r.B, r.A, r.Metric),
		Note: fmt.Sprintf("paired by %s; %s %s intervals for the pass rates, paired bootstrap for the change %s − %s; sign test exact and two-sided, Holm-adjusted over the %d groups",
			r.Key, level, r.CI, r.B, r.A, len(r.Groups)),
		Columns: []Column{{Name: by}, {Name: "n", Kind: KindNumber},
			{Name: r.A, Kind: KindRate}, {Name: r.A + " low", Kind: KindRate}, {Name: r.A + " high", Kind: KindRate},
			{Name: r.B, Kind: KindRate}, {Name: r.B + " low", Kind: KindRate}, {Name: r.B + " high", Kind: KindRate},
			{Name: "change", Kind: KindRate}, {Name: "change low", Kind: KindRate}, {Name: "change high", Kind: KindRate},
			{Name: "better", Kind: KindNumber}, {Name: "worse", Kind: KindNumber},
			{Name: "p sign", Kind: KindNumber}, {Name: "p McNemar", Kind: KindNumber}, {Name: "p Holm", Kind: KindNumber}},
	}
	for _, g := range append([]ModelGroup{r.All}, r.Groups...) {
		t.Rows = append(t.Rows, []string{g.Group, strconv.Itoa(g.N),
			Float(g.A), Float(g.ALow), Float(g.AHigh), Float(g.B), Float(g.BLow), Float(g.BHigh),
			Float(g.Diff), Float(g.DiffLow), Float(g.DiffHigh), strconv.Itoa(g.Better), strconv.Itoa(g.Worse),
			Float(g.PSign), Float(g.PMcNemar), Float(g.PHolm)})
	}
	return append([]Table{t}, WarningTable(r.Warnings)...)
}

// WriteText writes the comparison as aligned text: a line per set of
// cases (all, then each group) and the warnings.
func (r *ModelComparison) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	f3 := func(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }
	pv := func(p float64) string { return strconv.FormatFloat(p, 'g', 3, 64) }
	fmt.Fprintf(ew, "%s against %s on %s, paired by %s; %g%% %s intervals, paired bootstrap for the change\n\n",
		r.B, r.A, r.Metric, r.Key, 100*r.Confidence, r.CI)
	by := r.By
	if by == "" {
		by = "group"
	}
	tw := tabwriter.NewWriter(ew, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\tn\t%s\t%s\tchange\tbetter/worse\tp sign\tp Holm\n", by, TextCell(r.A), TextCell(r.B))
	for _, g := range append([]ModelGroup{r.All}, r.Groups...) {
		fmt.Fprintf(tw, "%s\t%d\t%s (%s-%s)\t%s (%s-%s)\t%+.3f (%s to %s)\t%d/%d\t%s\t%s\n", TextCell(g.Group), g.N,
			f3(g.A), f3(g.ALow), f3(g.AHigh), f3(g.B), f3(g.BLow), f3(g.BHigh),
			g.Diff, f3(g.DiffLow), f3(g.DiffHigh), g.Better, g.Worse, pv(g.PSign), pv(g.PHolm))
	}
	tw.Flush()
	if len(r.Warnings) > 0 {
		fmt.Fprintln(ew, "\nwarnings:")
		for _, m := range r.Warnings {
			fmt.Fprintf(ew, "  %s\n", m.Message)
		}
	}
	return ew.err
}
