package interop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/evalbook/evalbook/pkg/compare"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// Harness reports whether path is another harness's output rather than
// an evalbook response table: format forces a format ("" or "auto"
// detects; "csv", "jsonl" and "xlsx" are evalbook's own tables and give
// false). It returns the format's name. Commands that take a responses
// file ask it first and read the path with Read when it says yes.
func Harness(path, format string) (string, bool) {
	switch format {
	case "", "auto":
	case "csv", "jsonl", "xlsx":
		return "", false
	default:
		if _, ok := lookup(format); ok {
			return format, true
		}
		return "", false
	}
	name, err := Detect(path)
	if err != nil {
		return "", false
	}
	return name, true
}

// ResponsesReader reads the harness output at path and returns its
// response table as CSV (ResponseCSV), for qa.Score with
// qa.Options{Format: "csv"}.
func ResponsesReader(ctx context.Context, path string, opt Options) (io.Reader, error) {
	run, err := Read(ctx, path, opt)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := ResponseCSV(&buf, run); err != nil {
		return nil, err
	}
	return &buf, nil
}

// DefaultMetric is the metric compare uses when none is named: the one
// metric both runs have whose values are all 0 or 1. With several it
// prefers lm-eval's acc,none, then exact_match under a filter, then an
// error listing them.
func DefaultMetric(a, b *Run) (string, error) {
	binary := func(r *Run) map[string]bool {
		out := map[string]bool{}
		bad := map[string]bool{}
		for i := range r.Samples {
			for _, m := range r.Samples[i].Metrics {
				if m.Value != 0 && m.Value != 1 {
					bad[m.Name] = true
				}
				out[m.Name] = true
			}
		}
		for k := range bad {
			delete(out, k)
		}
		return out
	}
	ba, bb := binary(a), binary(b)
	var both []string
	for k := range ba {
		if bb[k] {
			both = append(both, k)
		}
	}
	sort.Strings(both)
	if m, ok := chooseMetric(both); ok {
		return m, nil
	}
	if len(both) == 0 {
		return "", fmt.Errorf("%s and %s share no 0/1 metric to compare (they have %s and %s): name one with --metric", a.Source, b.Source, strings.Join(a.MetricNames(), ", "), strings.Join(b.MetricNames(), ", "))
	}
	return "", fmt.Errorf("%s and %s share several 0/1 metrics (%s): name one with --metric", a.Source, b.Source, strings.Join(both, ", "))
}

// chooseMetric is DefaultMetric's pick among the sorted 0/1 metrics two
// runs share: the only one, or the first of preferredMetrics among
// several; ok is false when there is none, or several and none preferred.
func chooseMetric(both []string) (string, bool) {
	if len(both) == 1 {
		return both[0], true
	}
	for _, pref := range preferredMetrics {
		if slices.Contains(both, pref) {
			return pref, true
		}
	}
	return "", false
}

// DefaultMetricOf is the metric a board of several runs ranks by when
// none is named (DefaultMetric's rule over every run): the one metric
// every run has whose values are all 0 or 1 (NaN, no value, aside);
// with several it prefers lm-eval's acc,none, then exact_match under a
// filter, then pass; else an error listing them.
func DefaultMetricOf(runs []*Run) (string, error) {
	ps := make([]*Profile, len(runs))
	for i, r := range runs {
		ps[i] = ProfileOf(r)
	}
	return DefaultMetricOfProfiles(ps)
}

// Profile is what DefaultMetricOf and MetricNames need of a run's
// samples, gathered a sample at a time (Add) so that a run read with
// Options.Each need not be held: its metric names and which of them
// have values that are all 0 or 1 (NaN aside).
type Profile struct {
	Source   string // the run's Source, which errors name
	names    map[string]bool
	has, bad map[string]bool
}

// NewProfile is the empty profile of the run at source.
func NewProfile(source string) *Profile {
	return &Profile{Source: source, names: map[string]bool{}, has: map[string]bool{}, bad: map[string]bool{}}
}

// ProfileOf is the profile of a run's Samples.
func ProfileOf(r *Run) *Profile {
	p := NewProfile(r.Source)
	for i := range r.Samples {
		p.Add(&r.Samples[i])
	}
	return p
}

// Add takes one sample's metrics into the profile.
func (p *Profile) Add(s *Sample) {
	for _, m := range s.Metrics {
		if !p.names[m.Name] {
			p.names[strings.Clone(m.Name)] = true // a streamed sample's strings may be reused
		}
		switch {
		case math.IsNaN(m.Value):
		case m.Value != 0 && m.Value != 1:
			if !p.bad[m.Name] {
				p.bad[strings.Clone(m.Name)] = true
			}
		default:
			if !p.has[m.Name] {
				p.has[strings.Clone(m.Name)] = true
			}
		}
	}
}

// MetricNames lists the metrics the samples carry, sorted (as
// Run.MetricNames).
func (p *Profile) MetricNames() []string {
	out := make([]string, 0, len(p.names))
	for k := range p.names {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// DefaultMetricOfProfiles is DefaultMetricOf of the runs profiled.
func DefaultMetricOfProfiles(ps []*Profile) (string, error) {
	if len(ps) == 0 {
		return "", fmt.Errorf("no runs")
	}
	var common map[string]bool
	for _, p := range ps {
		has := map[string]bool{}
		for k := range p.has {
			if !p.bad[k] {
				has[k] = true
			}
		}
		if common == nil {
			common = has
			continue
		}
		for k := range common {
			if !has[k] {
				delete(common, k)
			}
		}
	}
	both := make([]string, 0, len(common))
	for k := range common {
		both = append(both, k)
	}
	sort.Strings(both)
	switch {
	case len(both) == 1:
		return both[0], nil
	case len(both) == 0:
		var all []string
		for _, p := range ps {
			all = append(all, p.Source+": "+strings.Join(p.MetricNames(), ", "))
		}
		return "", fmt.Errorf("the runs share no metric whose values are all 0 or 1 (%s): name one with --metric", strings.Join(all, "; "))
	}
	for _, pref := range preferredMetrics {
		if slices.Contains(both, pref) {
			return pref, nil
		}
	}
	return "", fmt.Errorf("the runs share several 0/1 metrics (%s): name one with --metric", strings.Join(both, ", "))
}

// preferredMetrics are the metrics DefaultMetric and DefaultMetricOf
// pick, in order, when several qualify.
var preferredMetrics = []string{"acc,none", "exact_match,strict-match", "exact_match,none", "pass"}

// ReadDir reads every harness output directly in dir (a file or a
// folder that Detect recognises, such as one lm-eval model folder or
// one inspect log each), sorted by name: the runs of a leaderboard.
// Entries that are no harness output are left out and returned by
// name, so the caller can say so; a folder with none is an error that
// matches ErrUnknownFormat (the caller then reads it as response files).
func ReadDir(ctx context.Context, dir string, opt Options) (runs []*Run, skipped []string, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if _, ok := Harness(p, opt.Format); !ok {
			skipped = append(skipped, e.Name())
			continue
		}
		r, err := Read(ctx, p, opt)
		if err != nil {
			return nil, nil, err
		}
		runs = append(runs, r)
	}
	if len(runs) == 0 {
		return nil, skipped, fmt.Errorf("%s: %w: no harness output (%s) in the folder", dir, ErrUnknownFormat, strings.Join(Formats(), ", "))
	}
	return runs, skipped, nil
}

// Pairs are two runs' outcomes matched by document, for compare.Versions.
type Pairs struct {
	Metric             string
	Keys               []string
	Old, New           []float64
	Groups             []string // the task of each document
	OldModel, NewModel string
	// Key says what paired the samples: "task/sample id", or
	// "task/doc_hash (shown as task/doc_id)" for lm-eval runs whose samples
	// all carry a doc_hash, led by "model/" when a run holds several models.
	Key string
}

// PairedFiles reads two harness outputs and pairs them by document on
// metric (DefaultMetric when it is ""): `evalbook compare runA/ runB/`.
func PairedFiles(ctx context.Context, oldPath, newPath, metric string, opt Options) (*Pairs, error) {
	a, err := Read(ctx, oldPath, opt)
	if err != nil {
		return nil, err
	}
	b, err := Read(ctx, newPath, opt)
	if err != nil {
		return nil, err
	}
	if metric == "" {
		if metric, err = DefaultMetric(a, b); err != nil {
			return nil, err
		}
	}
	p := &Pairs{Metric: metric, OldModel: a.Model, NewModel: b.Model}
	if p.Keys, p.Old, p.New, p.Groups, p.Key, err = paired(a, b, metric); err != nil {
		return nil, err
	}
	return p, nil
}

// LabelsCSV writes the run's per-sample values of metrics as a label
// table for pkg/agree (evalbook agree --labels F --raters m1,m2 --id id):
// one row per sample with all of them, the id first. Two scorers of an
// inspect log, or two promptfoo assertions, become two raters.
func LabelsCSV(w io.Writer, run *Run, metrics []string) (int, error) {
	if len(metrics) < 2 {
		return 0, fmt.Errorf("agreement needs at least two metrics (raters); the run has %s", strings.Join(run.MetricNames(), ", "))
	}
	cw := tabular.NewCSVWriter(w, tabular.CSVOptions{Raw: true}) // a pipe into agree: ids as the harness wrote them
	if err := cw.Write(append([]string{"id"}, metrics...)); err != nil {
		return 0, err
	}
	n := 0
	rec := make([]string, len(metrics)+1)
	for i := range run.Samples {
		s := &run.Samples[i]
		rec[0] = pairKey(s)
		ok := true
		for j, m := range metrics {
			v, has := s.Value(m)
			if !has || math.IsNaN(v) {
				ok = false
				break
			}
			rec[j+1] = ftoa(v)
		}
		if !ok {
			continue
		}
		if err := cw.Write(rec); err != nil {
			return n, err
		}
		n++
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return n, err
	}
	if n == 0 {
		return 0, fmt.Errorf("%s: no sample has all of %s", run.Source, strings.Join(metrics, ", "))
	}
	return n, nil
}

// Compare compares two harness outputs paired by document (PairedFiles)
// with compare.Versions, as `evalbook compare runA/ runB/` does: opt.Metric
// picks the metric (DefaultMetric when ""), opt.By defaults to "task", and
// the versions are named by the paths' display names (the whole paths
// when those are alike, as runs/a/out and runs/b/out are).
//
// The runs are read a sample at a time, in memory that grows by some
// tens of bytes a document (compareStream); runs that do not pair are
// read whole again for the error.
func Compare(ctx context.Context, oldPath, newPath string, opt compare.Options, ropt Options) (*results.Comparison, error) {
	if res, err := compareStream(ctx, oldPath, newPath, opt, ropt); !errors.Is(err, errWhole) {
		return res, err
	}
	p, err := PairedFiles(ctx, oldPath, newPath, opt.Metric, ropt)
	if err != nil {
		return nil, err
	}
	opt.Metric, opt.OldName, opt.NewName = p.Metric, results.DisplayName(oldPath), results.DisplayName(newPath)
	if opt.OldName == opt.NewName {
		opt.OldName, opt.NewName = oldPath, newPath
	}
	if opt.By == "" {
		opt.By = "task"
	}
	res, err := compare.Versions(p.Keys, p.Old, p.New, p.Groups, opt)
	if err == nil {
		res.Key = p.Key
	}
	return res, err
}

// Labels reads the harness output at path and returns its per-sample
// values of metrics as a label table with an "id" column (LabelsCSV),
// for pkg/agree: two scorers of one run as two raters.
func Labels(ctx context.Context, path string, metrics []string, opt Options) (io.Reader, error) {
	run, err := Read(ctx, path, opt)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if _, err := LabelsCSV(&buf, run, metrics); err != nil {
		return nil, err
	}
	return &buf, nil
}
