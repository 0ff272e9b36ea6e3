package store

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
)

// DiffOptions sets how Diff compares two runs.
type DiffOptions struct {
	// Metrics to compare; nil means every metric both runs have.
	Metrics []string
	// Confidence of the intervals (0 means 0.95); Resamples and Seed
	// drive the paired bootstrap interval of a binary metric's change
	// (0 resamples means 10000; the seed is used as given).
	Confidence float64
	Resamples  int
	Seed       uint64
	// Flips is the number of flipped rows listed each way per metric
	// (0 means 20; negative means all). The counts are always complete.
	Flips int
	// Texts attaches both runs' stored question, answer and responses to
	// the listed flips (for the page and the workbook).
	Texts bool
	// Force pairs runs that are not comparable (see Incomparable), with
	// the warning CodeNotComparable; without it Diff returns a
	// *NotComparableError.
	Force bool
}

func (o *DiffOptions) fill() {
	if o.Confidence == 0 {
		o.Confidence = 0.95
	}
	if o.Resamples == 0 {
		o.Resamples = 10000
	}
	if o.Flips == 0 {
		o.Flips = 20
	}
}

// DiffResult is the paired comparison of two stored runs.
type DiffResult struct {
	Kind       string   `json:"kind"` // always "runs_diff"
	A          RunRef   `json:"a"`
	B          RunRef   `json:"b"`
	Comparable bool     `json:"comparable"`
	Reasons    []string `json:"not_comparable_reasons,omitempty"`
	// Key says how rows were paired: KeyID (sample id) or KeyRow (row number).
	Key        string            `json:"key"`
	Paired     int               `json:"paired"`
	OnlyA      int               `json:"only_a"`
	OnlyB      int               `json:"only_b"`
	Confidence float64           `json:"confidence"`
	Metrics    []MetricDiff      `json:"metrics"`
	Warnings   []results.Warning `json:"warnings"`
}

// MetricDiff compares one metric between the runs, over all paired rows
// and per group.
type MetricDiff struct {
	Metric string `json:"metric"`
	Graded bool   `json:"graded"`
	// PairDiff holds the figures over all pairs with a verdict on both sides.
	PairDiff
	// NoVerdict counts pairs left out because a side has no verdict.
	NoVerdict int         `json:"no_verdict"`
	Groups    []GroupDiff `json:"groups"`
	// BetterRows and WorseRows list the rows that rose and fell from A
	// to B (at most DiffOptions.Flips each), in A's row order.
	BetterRows []Flip `json:"better_rows"`
	WorseRows  []Flip `json:"worse_rows"`
}

// PairDiff is a paired comparison over some rows: means of A and B, the
// change B − A with its paired interval, the flips each way, and the
// sign test and McNemar's test over the flips (two-sided).
type PairDiff struct {
	N         int     `json:"n"`
	MeanA     float64 `json:"mean_a"`
	MeanB     float64 `json:"mean_b"`
	Delta     float64 `json:"delta"`
	DeltaLow  float64 `json:"delta_low"`
	DeltaHigh float64 `json:"delta_high"`
	// Method names the interval: "paired-bootstrap" (binary metrics,
	// stats.ComparePaired) or "paired-normal" (graded: mean ± z·sd/√n).
	Method    string  `json:"method"`
	Better    int     `json:"better"`
	Worse     int     `json:"worse"`
	Unchanged int     `json:"unchanged"`
	SignP     float64 `json:"sign_p"`
	McNemarP  float64 `json:"mcnemar_p"`
}

// GroupDiff is a PairDiff over the rows of one group (the group of run A).
type GroupDiff struct {
	By    string `json:"by"`
	Group string `json:"group"`
	PairDiff
}

// Flip is one row whose verdict changed.
type Flip struct {
	ID    string      `json:"id"` // the sample id; keyed by row, the first run's stored id and input line ("art-en-001 (line 2)"), or "line N"
	RowA  int         `json:"row_a"`
	RowB  int         `json:"row_b"`
	A     float64     `json:"a"`
	B     float64     `json:"b"`
	TextA *SampleText `json:"text_a,omitempty"`
	TextB *SampleText `json:"text_b,omitempty"`
}

// Diff compares runs a and b (references as Resolve takes them) row by
// row, paired by sample id: for each metric the flips each way (with the
// rows), the change in mean with a paired interval, the sign test and
// McNemar's test over the flips (stats.ComparePaired for binary
// metrics), overall and per group. Runs that are not comparable (see
// Incomparable) are not paired unless opt.Force: Diff returns a
// *NotComparableError.
func (s *Store) Diff(ctx context.Context, a, b string, opt DiffOptions) (*DiffResult, error) {
	opt.fill()
	ra, rb, metrics, err := s.loadPair(ctx, a, b, opt.Metrics)
	if err != nil {
		return nil, err
	}
	p, ws, err := pairRuns(ra, rb, opt.Force)
	if err != nil {
		return nil, err
	}
	res := &DiffResult{Kind: "runs_diff", A: refOf(ra.Run), B: refOf(rb.Run), Reasons: Incomparable(ra.Run, rb.Run),
		Paired: len(p.a), OnlyA: p.onlyA, OnlyB: p.onlyB, Confidence: opt.Confidence, Warnings: ws}
	res.Comparable = len(res.Reasons) == 0
	res.Key = KeyID
	if ra.KeyKind != KeyID || rb.KeyKind != KeyID {
		res.Key = KeyRow
	}
	var need [2][]int
	for _, m := range metrics {
		ia, ib := ra.metricIndex(m), rb.metricIndex(m)
		graded := ra.Metrics[ia].Graded || rb.Metrics[ib].Graded
		old, new, pos, nov := pairedValues(p, ra.values[ia], rb.values[ib])
		md := MetricDiff{Metric: m, Graded: graded, NoVerdict: nov, PairDiff: pairDiff(old, new, graded, opt)}
		if nov > 0 {
			res.Warnings = append(res.Warnings, results.Warning{Code: CodeNoVerdict, Count: nov,
				Message: fmt.Sprintf("%s: %d pairs without a verdict on one side (a failed call, an invalid judge reply) are out of the figures", m, nov)})
		}
		if b, w := md.Better, md.Worse; b+w < stats.McNemarMinFlips {
			res.Warnings = append(res.Warnings, results.Warning{Code: CodeFewFlips, Count: b + w,
				Message: fmt.Sprintf("%s: only %d rows changed: McNemar's chi-square is rough, quote the sign test", m, b+w)})
		}
		for k := range old {
			if new[k] == old[k] {
				continue
			}
			list := &md.WorseRows
			if new[k] > old[k] {
				list = &md.BetterRows
			}
			if opt.Flips >= 0 && len(*list) >= opt.Flips {
				continue
			}
			q := pos[k]
			f := Flip{RowA: int(p.a[q]) + 1, RowB: int(p.b[q]) + 1, A: old[k], B: new[k]}
			if ra.keys != nil {
				f.ID = ra.keys[p.a[q]]
			}
			*list = append(*list, f)
			need[0] = append(need[0], int(p.a[q]))
			need[1] = append(need[1], int(p.b[q]))
		}
		md.Groups, ws = groupDiffs(ra, rb, p, old, new, pos, graded, opt)
		res.Warnings = append(res.Warnings, ws...)
		if md.BetterRows == nil {
			md.BetterRows = []Flip{}
		}
		if md.WorseRows == nil {
			md.WorseRows = []Flip{}
		}
		res.Metrics = append(res.Metrics, md)
	}
	if ra.keys == nil {
		if err := s.labelRows(ctx, res, ra.ID, need[0]); err != nil {
			return nil, err
		}
	}
	if opt.Texts {
		if err := s.attachTexts(ctx, res, ra.ID, rb.ID, need); err != nil {
			return nil, err
		}
	}
	if res.Warnings == nil {
		res.Warnings = []results.Warning{}
	}
	return res, nil
}

// labelRows names the flipped rows of runs paired by row number the way
// people know them: by the first run's stored id and the input line it
// came from ("art-en-001 (line 2)"; ids repeat, or the run would be keyed
// by id), or by the line alone when the row has no id.
func (s *Store) labelRows(ctx context.Context, res *DiffResult, runA int64, rows []int) error {
	idx := slices.Clone(rows)
	slices.Sort(idx)
	idx = slices.Compact(idx)
	t, err := s.texts(ctx, runA, idx)
	if err != nil {
		return err
	}
	for i := range res.Metrics {
		for _, list := range [][]Flip{res.Metrics[i].BetterRows, res.Metrics[i].WorseRows} {
			for j := range list {
				st, ok := t[list[j].RowA-1]
				switch {
				case !ok:
					list[j].ID = "row " + strconv.Itoa(list[j].RowA)
				case st.ID != "":
					list[j].ID = fmt.Sprintf("%s (line %d)", st.ID, st.Line)
				default:
					list[j].ID = "line " + strconv.Itoa(st.Line)
				}
			}
		}
	}
	return nil
}

func (s *Store) attachTexts(ctx context.Context, res *DiffResult, ida, idb int64, need [2][]int) error {
	var texts [2]map[int]SampleText
	for side, id := range []int64{ida, idb} {
		idx := slices.Clone(need[side])
		slices.Sort(idx)
		idx = slices.Compact(idx)
		t, err := s.texts(ctx, id, idx)
		if err != nil {
			return err
		}
		texts[side] = t
	}
	for i := range res.Metrics {
		for _, list := range [][]Flip{res.Metrics[i].BetterRows, res.Metrics[i].WorseRows} {
			for j := range list {
				if t, ok := texts[0][list[j].RowA-1]; ok {
					list[j].TextA = &t
				}
				if t, ok := texts[1][list[j].RowB-1]; ok {
					list[j].TextB = &t
				}
			}
		}
	}
	return nil
}

// loadPair loads both runs with the metrics to compare (nil: those both have).
func (s *Store) loadPair(ctx context.Context, a, b string, want []string) (*runData, *runData, []string, error) {
	ga, err := s.Get(ctx, a)
	if err != nil {
		return nil, nil, nil, err
	}
	gb, err := s.Get(ctx, b)
	if err != nil {
		return nil, nil, nil, err
	}
	metrics := want
	if metrics == nil {
		for _, m := range ga.Metrics {
			if slices.ContainsFunc(gb.Metrics, func(x Metric) bool { return x.ID == m.ID }) {
				metrics = append(metrics, m.ID)
			}
		}
		if len(metrics) == 0 {
			return nil, nil, nil, fmt.Errorf("runs %d and %d share no metric (%s vs %s)", ga.ID, gb.ID, metricList(ga.Metrics), metricList(gb.Metrics))
		}
	}
	ra, err := s.load(ctx, strconv.FormatInt(ga.ID, 10), metrics)
	if err != nil {
		return nil, nil, nil, err
	}
	rb, err := s.load(ctx, strconv.FormatInt(gb.ID, 10), metrics)
	if err != nil {
		return nil, nil, nil, err
	}
	return ra, rb, metrics, nil
}

func pairDiff(old, new []float64, graded bool, opt DiffOptions) PairDiff {
	var d PairDiff
	if !graded {
		c := stats.ComparePaired(old, new, stats.CompareOptions{Method: "wilson", Confidence: opt.Confidence, Resamples: opt.Resamples, Seed: opt.Seed})
		d = PairDiff{N: c.N, MeanA: c.OldMean, MeanB: c.NewMean, Delta: c.Diff, DeltaLow: c.DiffInterval.Lo, DeltaHigh: c.DiffInterval.Hi,
			Method: "paired-bootstrap", Better: len(c.Better), Worse: len(c.Worse), Unchanged: c.Unchanged, SignP: c.SignP, McNemarP: c.McNemarP}
		return d
	}
	pr := stats.Paired(old, new)
	d = PairDiff{N: pr.N, MeanA: pr.OldMean, MeanB: pr.NewMean, Method: "paired-normal",
		Better: len(pr.Better), Worse: len(pr.Worse), Unchanged: pr.Unchanged}
	var iv stats.Interval
	d.Delta, iv = stats.PairedNormalDiff(old, new, opt.Confidence)
	d.DeltaLow, d.DeltaHigh = iv.Lo, iv.Hi
	d.SignP = stats.SignTest(d.Better, d.Worse)
	d.McNemarP = stats.McNemar(d.Better, d.Worse)
	return d
}

// groupDiffs splits the pairs by run A's group in each grouping both runs have.
func groupDiffs(ra, rb *runData, p pairing, old, new []float64, pos []int32, graded bool, opt DiffOptions) ([]GroupDiff, []results.Warning) {
	out := []GroupDiff{}
	var ws []results.Warning
	for g, by := range ra.Groupings {
		if g >= len(ra.groups) {
			break
		}
		gb := slices.Index(rb.Groupings, by)
		labels := ra.labels[g]
		count := make([]int, len(labels))
		for k := range old {
			count[ra.groups[g][p.a[pos[k]]]]++
		}
		oldBy := make([][]float64, len(labels))
		newBy := make([][]float64, len(labels))
		for c, n := range count {
			oldBy[c], newBy[c] = make([]float64, 0, n), make([]float64, 0, n)
		}
		mismatch := 0
		for k := range old {
			q := pos[k]
			c := ra.groups[g][p.a[q]]
			if gb >= 0 && gb < len(rb.groups) && rb.labels[gb][rb.groups[gb][p.b[q]]] != labels[c] {
				mismatch++
			}
			oldBy[c] = append(oldBy[c], old[k])
			newBy[c] = append(newBy[c], new[k])
		}
		if mismatch > 0 {
			ws = append(ws, results.Warning{Code: CodeGroupMismatch, Count: mismatch,
				Message: fmt.Sprintf("%d paired rows are in different %s groups in the two runs; run %d's group is used", mismatch, by, ra.ID)})
		}
		order := make([]int, len(labels))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(x, y int) int { return cmpString(labels[x], labels[y]) })
		for _, c := range order {
			if len(oldBy[c]) == 0 {
				continue
			}
			out = append(out, GroupDiff{By: by, Group: labels[c], PairDiff: pairDiff(oldBy[c], newBy[c], graded, opt)})
		}
	}
	return out, ws
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func pctText(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + "%" }

func ppText(x float64) string {
	s := strconv.FormatFloat(100*x, 'f', 1, 64)
	if x >= 0 {
		s = "+" + s
	}
	return s + " pp"
}

func pText(p float64) string {
	if p < 0.0001 {
		return "<0.0001"
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}

// WriteText writes the comparison as text.
func (d *DiffResult) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "A: %s\nB: %s\n", d.A, d.B)
	if !d.Comparable {
		fmt.Fprintf(ew, "NOT COMPARABLE (paired anyway, --force): %v\n", d.Reasons)
	}
	fmt.Fprintf(ew, "%d rows paired by %s; %d only in A, %d only in B\n", d.Paired, keyWord(d), d.OnlyA, d.OnlyB)
	for _, t := range d.tables(false) {
		fmt.Fprintln(ew)
		if err := t.WriteText(ew); err != nil {
			return err
		}
	}
	return ew.err
}

func keyWord(d *DiffResult) string {
	if d.Key == KeyRow {
		return "row number"
	}
	return "sample id"
}

var pairColumns = []results.Column{{Name: "n", Kind: results.KindNumber}, {Name: "A", Kind: results.KindRate}, {Name: "B", Kind: results.KindRate},
	{Name: "delta", Kind: results.KindPP}, {Name: "delta_low", Kind: results.KindPP}, {Name: "delta_high", Kind: results.KindPP},
	{Name: "better", Kind: results.KindNumber}, {Name: "worse", Kind: results.KindNumber},
	{Name: "sign_p", Kind: results.KindP}, {Name: "mcnemar_p", Kind: results.KindP}}

func pairCells(p PairDiff) []string {
	f := results.Float
	return []string{strconv.Itoa(p.N), f(p.MeanA), f(p.MeanB), f(p.Delta), f(p.DeltaLow), f(p.DeltaHigh),
		strconv.Itoa(p.Better), strconv.Itoa(p.Worse), f(p.SignP), f(p.McNemarP)}
}

// Tables returns the per-metric and per-group deltas, the flipped rows
// and the warnings. The flipped rows are a table to read (a
// results.Review: filter better / worse, search), with the question,
// the golden answer and both responses when the diff was made with
// DiffOptions.Texts.
func (d *DiffResult) Tables() []results.Table { return d.tables(true) }

// Flip filters of the flipped rows' review.
const (
	flipBetter = 1
	flipWorse  = 2
)

// tables lays the diff out; texts adds the stored texts of the flipped
// rows (the text output leaves them out: it lists ids).
func (d *DiffResult) tables(texts bool) []results.Table {
	conf := strconv.FormatFloat(100*d.Confidence, 'g', -1, 64)
	overall := results.Table{Title: "Change from A to B", Note: fmt.Sprintf("delta = B − A over paired rows, with its %s%% paired interval; sign test and McNemar over the rows that flipped", conf),
		Columns: append([]results.Column{{Name: "metric"}}, pairColumns...)}
	groups := results.Table{Title: "Change by group", Note: "the group is run A's",
		Columns: append([]results.Column{{Name: "metric"}, {Name: "by"}, {Name: "group"}}, pairColumns...)}
	flips := results.Table{Title: "Flipped rows", Note: "rows whose verdict changed (listed up to the limit; the counts above are complete)",
		Columns: []results.Column{{Name: "metric"}, {Name: "direction"}, {Name: "id"}, {Name: "row_a", Kind: results.KindNumber}, {Name: "row_b", Kind: results.KindNumber},
			{Name: "A", Kind: results.KindNumber}, {Name: "B", Kind: results.KindNumber}},
		Review: &results.Review{Filters: []results.Filter{{Flag: flipBetter, Label: "better in B (A fails, B passes)"}, {Flag: flipWorse, Label: "worse in B (A passes, B fails)"}}}}
	texts = texts && d.hasTexts()
	if texts {
		flips.Note = "rows whose verdict changed, with the question, the golden answer and both runs' responses (listed up to --flips each way; the counts above are complete)"
		// The verdicts beside the id, on screen without scrolling; then the texts.
		flips.Columns = []results.Column{{Name: "metric"}, {Name: "direction"}, {Name: "id"}, {Name: "A", Kind: results.KindNumber}, {Name: "B", Kind: results.KindNumber},
			{Name: "question"}, {Name: "golden answer"}, {Name: "A's response"}, {Name: "B's response"},
			{Name: "row_a", Kind: results.KindNumber}, {Name: "row_b", Kind: results.KindNumber}}
	}
	for _, m := range d.Metrics {
		overall.Rows = append(overall.Rows, append([]string{show(m.Metric)}, pairCells(m.PairDiff)...))
		for _, g := range m.Groups {
			groups.Rows = append(groups.Rows, append([]string{show(m.Metric), show(g.By), show(g.Group)}, pairCells(g.PairDiff)...))
		}
		for _, dir := range []struct {
			name string
			flag int
			rows []Flip
		}{{"better", flipBetter, m.BetterRows}, {"worse", flipWorse, m.WorseRows}} {
			for _, f := range dir.rows {
				a, b := strconv.Itoa(f.RowA), strconv.Itoa(f.RowB)
				if texts {
					var q, ans, ra, rb string
					if f.TextA != nil {
						q, ans, ra = f.TextA.Question, f.TextA.Answer, f.TextA.Response
					}
					if f.TextB != nil {
						rb = f.TextB.Response
						if q == "" {
							q, ans = f.TextB.Question, f.TextB.Answer
						}
					}
					flips.Rows = append(flips.Rows, []string{show(m.Metric), dir.name, show(f.ID), results.Float(f.A), results.Float(f.B), q, ans, ra, rb, a, b})
				} else {
					flips.Rows = append(flips.Rows, []string{show(m.Metric), dir.name, show(f.ID), a, b, results.Float(f.A), results.Float(f.B)})
				}
				flips.Review.Flags = append(flips.Review.Flags, dir.flag)
			}
		}
	}
	out := []results.Table{overall}
	if len(groups.Rows) > 0 {
		out = append(out, groups)
	}
	if len(flips.Rows) > 0 {
		out = append(out, flips)
	}
	return append(out, results.WarningTable(d.Warnings)...)
}

// DropTexts removes the stored texts from the flipped rows.
func (d *DiffResult) DropTexts() {
	for _, m := range d.Metrics {
		for _, list := range [][]Flip{m.BetterRows, m.WorseRows} {
			for i := range list {
				list[i].TextA, list[i].TextB = nil, nil
			}
		}
	}
}

// hasTexts reports whether a flipped row carries its stored texts.
func (d *DiffResult) hasTexts() bool {
	for _, m := range d.Metrics {
		for _, list := range [][]Flip{m.BetterRows, m.WorseRows} {
			for _, f := range list {
				if f.TextA != nil || f.TextB != nil {
					return true
				}
			}
		}
	}
	return false
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
