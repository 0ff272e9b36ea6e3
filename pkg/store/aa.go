package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
)

// AAResult is the noise floor measured from two runs of the same system
// on the same data (an A/A test).
type AAResult struct {
	Kind       string            `json:"kind"` // always "aa"
	A          RunRef            `json:"a"`
	B          RunRef            `json:"b"`
	Confidence float64           `json:"confidence"`
	Metrics    []AAMetric        `json:"metrics"`
	Warnings   []results.Warning `json:"warnings"`
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
	if confidence == 0 {
		confidence = 0.95
	}
	ida, err := s.Resolve(ctx, a)
	if err != nil {
		return nil, err
	}
	idb, err := s.Resolve(ctx, b)
	if err != nil {
		return nil, err
	}
	if ida == idb {
		return nil, fmt.Errorf("%w: %s and %s are both run %d; compared with itself a run flips nothing, and a margin of 0 says nothing about the noise: give two runs of the same system on the same data (record it twice)", ErrSameRun, a, b, ida)
	}
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
	if res.Warnings == nil {
		res.Warnings = []results.Warning{}
	}
	return res, nil
}

// WriteText writes the noise floor as text.
func (r *AAResult) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "A: %s\nB: %s\n\n", r.A, r.B)
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
	return append([]results.Table{t}, results.WarningTable(r.Warnings)...)
}
