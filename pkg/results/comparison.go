package results

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
)

// Comparison is the result of comparing two versions of a system scored
// on the same cases (evalbook compare, pkg/compare): each version's pass
// rate with an interval, the cases that got better and worse, the sign
// test and McNemar's test over them, the change in pass rate with a
// paired bootstrap interval, and optionally the same counts per group.
type Comparison struct {
	Kind string `json:"kind"` // always "compare"
	// OldFile and NewFile name the two versions (the files compared).
	OldFile string `json:"old_file"`
	NewFile string `json:"new_file"`
	// Key names the column(s) that pair the cases, joined by commas;
	// Metric the 0/1 column compared.
	Key    string `json:"key"`
	Metric string `json:"metric"`
	N      int    `json:"n"`
	// OldPass and NewPass count the passing cases; Old and New are the
	// pass rates.
	OldPass int     `json:"old_pass"`
	NewPass int     `json:"new_pass"`
	Old     float64 `json:"old"`
	New     float64 `json:"new"`
	// CI is the pass-rate interval method: wilson, clopper-pearson,
	// jeffreys, beta, bootstrap or bca.
	CI         string  `json:"ci"`
	Confidence float64 `json:"confidence"`
	Resamples  int     `json:"resamples"`
	Seed       uint64  `json:"seed"`
	OldCILow   float64 `json:"old_ci_low"`
	OldCIHigh  float64 `json:"old_ci_high"`
	NewCILow   float64 `json:"new_ci_low"`
	NewCIHigh  float64 `json:"new_ci_high"`
	// Better and Worse list the keys of the cases that flipped (a key of
	// several columns shows its values joined by "/"), in the old
	// version's order; Unchanged counts the rest.
	Better    []string `json:"better"`
	Worse     []string `json:"worse"`
	Unchanged int      `json:"unchanged"`
	// PSign is the exact two-sided sign test over the flips, PMcNemar
	// McNemar's chi-square test with continuity correction.
	PSign    float64 `json:"p_sign"`
	PMcNemar float64 `json:"p_mcnemar"`
	// Diff is New − Old, with its paired bootstrap interval.
	Diff       float64 `json:"diff"`
	DiffCILow  float64 `json:"diff_ci_low"`
	DiffCIHigh float64 `json:"diff_ci_high"`
	// By names the group column; Groups holds one entry per group,
	// sorted by name (empty without By).
	By     string            `json:"by,omitempty"`
	Groups []ComparisonGroup `json:"groups"`
	// Ranks gives each version (old, then new) its rank, the percentile
	// interval of its rank over a bootstrap of the cases (both versions
	// on the same resampled cases), and its tier: the better version is
	// tier 1, the other too unless the sign test separates them at
	// TierAlpha (issue 16). Empty when there are no cases.
	Ranks     []VersionRank `json:"ranks"`
	TierAlpha float64       `json:"tier_alpha"`
	Warnings  []Warning     `json:"warnings"`
	// Changed holds, by key (as Better and Worse show it), the texts of
	// the cases that flipped when they were read (compare.Texts), for the
	// page and the workbook; not in the JSON, whose shape is fixed.
	Changed map[string]CaseTexts `json:"-"`
}

// CaseTexts is what a case that changed says: its question, its golden
// answer, and the old and new versions' responses (empty where a file
// has no such column).
type CaseTexts struct {
	Question, Answer, OldResponse, NewResponse string
}

// VersionRank is one version's rank, rank interval and tier.
type VersionRank struct {
	Version  string `json:"version"` // "old" or "new"
	Rank     int    `json:"rank"`
	RankLow  int    `json:"rank_low"`
	RankHigh int    `json:"rank_high"`
	Tier     int    `json:"tier"`
}

// ComparisonGroup is a Comparison's counts within one group.
type ComparisonGroup struct {
	Group   string  `json:"group"`
	N       int     `json:"n"`
	OldPass int     `json:"old_pass"`
	NewPass int     `json:"new_pass"`
	Old     float64 `json:"old"`
	New     float64 `json:"new"`
	Better  int     `json:"better"`
	Worse   int     `json:"worse"`
	// OldCILow to NewCIHigh are each version's Wilson interval within
	// the group, at the comparison's confidence.
	OldCILow  float64 `json:"old_ci_low"`
	OldCIHigh float64 `json:"old_ci_high"`
	NewCILow  float64 `json:"new_ci_low"`
	NewCIHigh float64 `json:"new_ci_high"`
}

// WriteText writes the comparison as evalbook compare prints it: the
// figures, the per-group table (with By) and the warnings. Keys and
// groups longer than MaxTextCell characters are shortened in it
// (TextCell); the JSON and the tables keep them whole.
func (r *Comparison) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	f3 := func(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }
	pv := func(p float64) string { return strconv.FormatFloat(p, 'g', 4, 64) }
	method := r.CI
	switch r.CI {
	case "wilson", "":
		method = "Wilson"
	case "bootstrap":
		method = fmt.Sprintf("bootstrap, %d resamples, seed %d", r.Resamples, r.Seed)
	case "bca":
		method = fmt.Sprintf("BCa bootstrap, %d resamples, seed %d", r.Resamples, r.Seed)
	}
	cases := fmt.Sprintf("%d cases", r.N)
	if r.N == 1 {
		cases = "1 case"
	}
	fmt.Fprintf(ew, "%s -> %s, metric %s, key %s\n\n", r.OldFile, r.NewFile, r.Metric, r.Key)
	tw := tabwriter.NewWriter(ew, 0, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "n\t%s\n", cases)
	fmt.Fprintf(tw, "old\t%s  (%d/%d)\t%g%% interval %s to %s (%s)\n", f3(r.Old), r.OldPass, r.N, 100*r.Confidence, f3(r.OldCILow), f3(r.OldCIHigh), method)
	fmt.Fprintf(tw, "new\t%s  (%d/%d)\t%g%% interval %s to %s\n", f3(r.New), r.NewPass, r.N, 100*r.Confidence, f3(r.NewCILow), f3(r.NewCIHigh))
	fmt.Fprintf(tw, "change\t%+.3f\t%g%% interval %s to %s (paired bootstrap)\n", r.Diff, 100*r.Confidence, f3(r.DiffCILow), f3(r.DiffCIHigh))
	for _, l := range []struct {
		name string
		keys []string
	}{{"better", r.Better}, {"worse", r.Worse}} {
		if len(l.keys) == 0 {
			fmt.Fprintf(tw, "%s\t0\n", l.name)
		} else {
			fmt.Fprintf(tw, "%s\t%d\t", l.name, len(l.keys))
			shown, more := CapList(l.keys, MaxTextKeys)
			for i, k := range shown {
				if i > 0 {
					io.WriteString(tw, ", ")
				}
				io.WriteString(tw, TextCell(k))
			}
			if more > 0 {
				fmt.Fprintf(tw, " … and %s more (--json or --xlsx lists them all)", Commas(int64(more)))
			}
			io.WriteString(tw, "\n")
		}
	}
	fmt.Fprintf(tw, "unchanged\t%d\n", r.Unchanged)
	fmt.Fprintf(tw, "sign test\tp = %s\texact, two-sided, %d better vs %d worse\n", pv(r.PSign), len(r.Better), len(r.Worse))
	fmt.Fprintf(tw, "McNemar\tp = %s\tchi-square with continuity correction\n", pv(r.PMcNemar))
	if len(r.Ranks) == 2 {
		o, n := r.Ranks[0], r.Ranks[1]
		fmt.Fprintf(tw, "ranks\told %d (%d-%d), new %d (%d-%d): %g%% rank intervals, bootstrap over the cases\n", o.Rank, o.RankLow, o.RankHigh, n.Rank, n.RankLow, n.RankHigh, 100*r.Confidence)
		tiers := "both tier 1: the sign test cannot separate them"
		if o.Tier != n.Tier {
			tiers = fmt.Sprintf("old tier %d, new tier %d: the sign test separates them", o.Tier, n.Tier)
		}
		fmt.Fprintf(tw, "tiers\t%s (α = %g)\n", tiers, r.TierAlpha)
	}
	tw.Flush()
	if r.By != "" {
		fmt.Fprintln(ew)
		tw = tabwriter.NewWriter(ew, 0, 8, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "%s\tn\told\tnew\tbetter\tworse\t\n", r.By)
		for _, g := range r.Groups {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%d\t%d\t\n", TextCell(g.Group), g.N, f3(g.Old), f3(g.New), g.Better, g.Worse)
		}
		tw.Flush()
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintln(ew, "\nwarnings:")
		for _, m := range r.Warnings {
			fmt.Fprintf(ew, "  %s\n", m.Message)
		}
	}
	return ew.err
}
