package store

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
)

// MaxFlakyListed caps the flaky item ids a Replicates lists (FlakyItems
// counts them all).
const MaxFlakyListed = 50

// Replicates is one metric's repeated-samples decomposition over several
// runs of the same system on the same data: the store keeps one outcome
// per item per run, so K such runs are K samples of each item, and
// stats.Repeats (Miller 2024, section 3; the decomposition evalbook
// repeats reports) splits the variance of the item means into the part
// rerunning explains (Within) and the spread of the items' true rates
// (Between).
type Replicates struct {
	Metric string `json:"metric"`
	// Runs are the runs' ids, the samples per item.
	Runs []int64 `json:"runs"`
	// Items have a verdict in every run; LeftOut are the first run's
	// rows missing from another run or without a verdict in one.
	Items   int `json:"items"`
	LeftOut int `json:"left_out"`
	// Mean of the item means, its standard error and the two parts of
	// s²(item means) = Within + Between (stats.RepeatsEstimate).
	Mean    float64 `json:"mean"`
	SE      float64 `json:"se"`
	Within  float64 `json:"within"`
	Between float64 `json:"between"`
	// WithinShare is Within / (Within + Between floored at 0): the share
	// of the item means' variance that is rerun noise (0 when both are 0).
	WithinShare float64 `json:"within_share"`
	// NoiseSD is the standard deviation of the difference in mean
	// between two runs of this system that rerunning alone gives:
	// √(2·σ̄²/Items), σ̄² = K/(K−1)·WithinVar the mean per-item variance
	// of one run's outcome (unbiased over the K runs).
	NoiseSD float64 `json:"noise_sd"`
	// FlakyItems counts the items whose outcome differs between runs;
	// Flaky lists the first MaxFlakyListed ids ("row N" for runs keyed
	// by row).
	FlakyItems int      `json:"flaky_items"`
	Flaky      []string `json:"flaky"`
}

// replicatesOf decomposes metric over runs rd (rd[0] the reference, the
// others paired with it by sample id as the other analyses pair runs).
func replicatesOf(rd []*runData, metric string) (Replicates, error) {
	base := rd[0]
	r := Replicates{Metric: metric, Flaky: []string{}}
	vals := make([][]float64, len(base.keys))
	ok := make([]int, len(base.keys)) // runs with a verdict for the row
	for k, d := range rd {
		r.Runs = append(r.Runs, d.ID)
		mi := d.metricIndex(metric)
		if mi < 0 || d.values[mi] == nil {
			return r, fmt.Errorf("run %d has no metric %q", d.ID, metric)
		}
		var p pairing
		if k == 0 {
			p.a = make([]int32, len(base.keys))
			for i := range p.a {
				p.a[i] = int32(i)
			}
			p.b = p.a
		} else {
			var err error
			if p, _, err = pairRuns(base, d, false); err != nil {
				return r, err
			}
		}
		for j := range p.a {
			x := d.values[mi][p.b[j]]
			if math.IsNaN(x) {
				continue
			}
			vals[p.a[j]] = append(vals[p.a[j]], x)
			ok[p.a[j]]++
		}
	}
	var samples [][]float64
	for i, xs := range vals {
		if ok[i] != len(rd) {
			r.LeftOut++
			continue
		}
		samples = append(samples, xs)
		if slices.Min(xs) != slices.Max(xs) {
			r.FlakyItems++
			if len(r.Flaky) < MaxFlakyListed {
				id := base.keys[i]
				if id == "" {
					id = "row " + strconv.Itoa(i+1)
				}
				r.Flaky = append(r.Flaky, id)
			}
		}
	}
	r.Items = len(samples)
	if r.Items == 0 {
		return r, nil
	}
	est := stats.Repeats(samples)
	r.Mean, r.SE, r.Within, r.Between = est.Mean, est.SE, est.Within, est.Between
	if t := est.Within + est.BetweenClamped; t > 0 {
		r.WithinShare = est.Within / t
	}
	k := float64(len(rd))
	r.NoiseSD = math.Sqrt(2 * k / (k - 1) * est.WithinVar / float64(r.Items))
	return r, nil
}

// replicatesTable is the decompositions as a table.
func replicatesTable(rs []Replicates, note string) results.Table {
	f := results.Float
	t := results.Table{Title: "Repeated runs: within and between items", Note: note,
		Columns: []results.Column{{Name: "metric"}, {Name: "runs", Kind: results.KindNumber}, {Name: "items", Kind: results.KindNumber},
			{Name: "mean", Kind: results.KindRate}, {Name: "se", Kind: results.KindNumber}, {Name: "within", Kind: results.KindNumber},
			{Name: "between", Kind: results.KindNumber}, {Name: "within_share", Kind: results.KindRate}, {Name: "noise_sd", Kind: results.KindNumber},
			{Name: "flaky_items", Kind: results.KindNumber}, {Name: "left_out", Kind: results.KindNumber}}}
	for _, r := range rs {
		t.Rows = append(t.Rows, []string{show(r.Metric), strconv.Itoa(len(r.Runs)), strconv.Itoa(r.Items), f(r.Mean), f(r.SE), f(r.Within),
			f(r.Between), f(r.WithinShare), f(r.NoiseSD), strconv.Itoa(r.FlakyItems), strconv.Itoa(r.LeftOut)})
	}
	return t
}

// loadRuns loads runs by id with metrics.
func (s *Store) loadRuns(ctx context.Context, ids []int64, metrics []string) ([]*runData, error) {
	var out []*runData
	for _, id := range ids {
		d, err := s.load(ctx, strconv.FormatInt(id, 10), metrics)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

// baselineReplicates finds the stored runs that repeat the baseline (the
// same command and model, comparable by Incomparable, the metric
// recorded), other than the baseline and the candidate, and decomposes
// the metric over the baseline and them; nil when there is none, or
// when the baseline names no model (runs of unnamed systems on one data
// set may be different systems).
func (s *Store) baselineReplicates(ctx context.Context, base, cand Run, metric string) (*Replicates, error) {
	if base.Model == "" {
		return nil, nil
	}
	all, err := s.List(ctx)
	if err != nil {
		return nil, err
	}
	ids := []int64{base.ID}
	for _, r := range all {
		if r.ID == base.ID || r.ID == cand.ID || r.Command != base.Command || r.Model != base.Model || len(Incomparable(base, r)) > 0 ||
			!slices.ContainsFunc(r.Metrics, func(m Metric) bool { return m.ID == metric }) {
			continue
		}
		ids = append(ids, r.ID)
	}
	if len(ids) < 2 {
		return nil, nil
	}
	rd, err := s.loadRuns(ctx, ids, []string{metric})
	if err != nil {
		return nil, err
	}
	rep, err := replicatesOf(rd, metric)
	if err != nil || rep.Items == 0 {
		return nil, err
	}
	return &rep, nil
}
