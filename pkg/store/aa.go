package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
)

// AAResult is the noise floor measured from two runs of the same system
// on the same data (an A/A test).
type AAResult struct {
	Kind       string     `json:"kind"` // always "aa"
	A          RunRef     `json:"a"`
	B          RunRef     `json:"b"`
	Confidence float64    `json:"confidence"`
	Metrics    []AAMetric `json:"metrics"`
	// Others are the runs given after A and B (aa RUN RUN RUN...): the
	// flip rates and deltas are A's and B's; Repeats use every run.
	Others []RunRef `json:"others,omitempty"`
	// Repeats decomposes each metric over all the runs, one sample per
	// item per run (Replicates): within- and between-item parts, the
	// rerun noise of a difference, and the flaky items.
	Repeats  []Replicates      `json:"repeats"`
	Warnings []results.Warning `json:"warnings"`
}

// AAMetric is one metric's noise floor.
type AAMetric struct {
	Metric string `json:"metric"`
	// N pairs with a verdict on both sides; Flips of them changed
	// (either way). FlipRate = Flips/N with its Wilson interval.
	N        int     `json:"n"`
	Flips    int     `json:"flips"`
	FlipRate float64 `json:"flip_rate"`
	FlipLow  float64 `json:"flip_low"`
	FlipHigh float64 `json:"flip_high"`
	// Delta = B − A with its paired normal interval: what noise alone
	// moves the metric by at this N.
	Delta     float64 `json:"delta"`
	DeltaLow  float64 `json:"delta_low"`
	DeltaHigh float64 `json:"delta_high"`
	// SuggestedMargin is the interval's larger distance from zero: a
	// gate margin below it would fire on noise alone at this N.
	SuggestedMargin float64 `json:"suggested_margin"`
}

// ErrSameRun is the error (through errors.Is) of AA given one run as
// both A and B: its flip rate would be 0 and its suggested margin 0,
// whatever the system's noise.
var ErrSameRun = errors.New("the same run given as A and B")

// AA measures the noise floor from runs a and b of the same system: for
// each metric both have, the share of paired rows whose verdict flipped
// between the runs (with a Wilson interval at confidence, 0 meaning
// 0.95), and the change in mean with its paired normal interval. A team
// sets a gate's margin from it (SuggestedMargin). Runs that are not
// comparable give a *NotComparableError; a and b naming one run (1 and
// 1, or last and its id), ErrSameRun.
func (s *Store) AA(ctx context.Context, a, b string, confidence float64) (*AAResult, error) {
	return s.AARuns(ctx, []string{a, b}, confidence)
}

// AARuns is AA over two or more runs of the same system on the same
// data: the flip rates and deltas of the first two, and the repeated-
// samples decomposition (Replicates) of each metric over all of them.
// Every run must be comparable with the first; two references naming
// one run give ErrSameRun.
func (s *Store) AARuns(ctx context.Context, refs []string, confidence float64) (*AAResult, error) {
	if confidence == 0 {
		confidence = 0.95
	}
	if len(refs) < 2 {
		return nil, fmt.Errorf("aa: %d runs given; want two or more runs of the same system", len(refs))
	}
	ids := make([]int64, len(refs))
	for i, ref := range refs {
		id, err := s.Resolve(ctx, ref)
		if err != nil {
			return nil, err
		}
		if j := slices.Index(ids[:i], id); j >= 0 {
			return nil, fmt.Errorf("%w: %s and %s are both run %d; compared with itself a run flips nothing, and a margin of 0 says nothing about the noise: give two runs of the same system on the same data (record it twice)", ErrSameRun, refs[j], ref, id)
		}
		ids[i] = id
	}
	a, b := refs[0], refs[1]
	ra, rb, metrics, err := s.loadPair(ctx, a, b, nil)
	if err != nil {
		return nil, err
	}
	p, ws, err := pairRuns(ra, rb, false)
	if err != nil {
		return nil, err
	}
	res := &AAResult{Kind: "aa", A: refOf(ra.Run), B: refOf(rb.Run), Confidence: confidence, Warnings: ws}
	for _, m := range metrics {
		old, new, _, nov := pairedValues(p, ra.values[ra.metricIndex(m)], rb.values[rb.metricIndex(m)])
		if nov > 0 {
			res.Warnings = append(res.Warnings, results.Warning{Code: CodeNoVerdict, Count: nov,
				Message: fmt.Sprintf("%s: %d pairs without a verdict on one side are left out", m, nov)})
		}
		am := AAMetric{Metric: m, N: len(old)}
		for i := range old {
			if old[i] != new[i] {
				am.Flips++
			}
		}
		iv := stats.WilsonInterval(am.Flips, am.N, confidence)
		res.Warnings = append(res.Warnings, results.FromStats(m+" flip rate", iv.Warnings)...)
		if am.N > 0 {
			am.FlipRate = float64(am.Flips) / float64(am.N)
		}
		am.FlipLow, am.FlipHigh = iv.Lo, iv.Hi
		var diff stats.Interval
		am.Delta, diff = stats.PairedNormalDiff(old, new, confidence)
		am.DeltaLow, am.DeltaHigh = diff.Lo, diff.Hi
		am.SuggestedMargin = math.Max(math.Abs(am.DeltaLow), math.Abs(am.DeltaHigh))
		res.Metrics = append(res.Metrics, am)
	}
	rd := []*runData{ra, rb}
	if len(ids) > 2 {
		more, err := s.loadRuns(ctx, ids[2:], metrics)
		if err != nil {
			return nil, err
		}
		for _, d := range more {
			res.Others = append(res.Others, refOf(d.Run))
		}
		rd = append(rd, more...)
	}
	res.Repeats = []Replicates{}
	for _, m := range metrics {
		rep, err := replicatesOf(rd, m)
		if err != nil {
			return nil, err
		}
		res.Repeats = append(res.Repeats, rep)
	}
	if res.Warnings == nil {
		res.Warnings = []results.Warning{}
	}
	return res, nil
}

// WriteText writes the noise floor as text.
func (r *AAResult) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "A: %s\nB: %s\n", r.A, r.B)
	for _, o := range r.Others {
		fmt.Fprintf(ew, "also: %s\n", o)
	}
	fmt.Fprintln(ew)
	for _, t := range r.Tables() {
		if err := t.WriteText(ew); err != nil {
			return err
		}
		fmt.Fprintln(ew)
	}
	return ew.err
}

// Tables returns the noise floor per metric, and the warnings.
func (r *AAResult) Tables() []results.Table {
	f := results.Float
	t := results.Table{Title: "Noise floor (A/A)", Note: fmt.Sprintf("flip rate: rows whose verdict differs between two runs of the same system, with its %s Wilson interval; a gate margin below suggested_margin fires on noise", confText(r.Confidence)),
		Columns: []results.Column{{Name: "metric"}, {Name: "n", Kind: results.KindNumber}, {Name: "flips", Kind: results.KindNumber},
			{Name: "flip_rate", Kind: results.KindRate}, {Name: "flip_low", Kind: results.KindRate}, {Name: "flip_high", Kind: results.KindRate},
			{Name: "delta", Kind: results.KindPP}, {Name: "delta_low", Kind: results.KindPP}, {Name: "delta_high", Kind: results.KindPP},
			{Name: "suggested_margin", Kind: results.KindPP}}}
	for _, m := range r.Metrics {
		t.Rows = append(t.Rows, []string{show(m.Metric), strconv.Itoa(m.N), strconv.Itoa(m.Flips), f(m.FlipRate), f(m.FlipLow), f(m.FlipHigh),
			f(m.Delta), f(m.DeltaLow), f(m.DeltaHigh), f(m.SuggestedMargin)})
	}
	out := []results.Table{t}
	if len(r.Repeats) > 0 {
		out = append(out, replicatesTable(r.Repeats, "each run one sample per item (evalbook repeats' decomposition, Miller 2024): s²(item means) = within + between; "+
			"within_share is the part rerunning explains, noise_sd the standard deviation of the difference in mean between two runs of this system, flaky_items those whose verdict differs between runs"))
	}
	return append(out, results.WarningTable(r.Warnings)...)
}
