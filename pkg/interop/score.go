package interop

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/sample"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// ScoreOptions configure Score.
type ScoreOptions struct {
	// Read configures the reading (format, limits).
	Read Options
	// Summary sets the groupings, the interval and which metrics to
	// report (default: every per-sample metric the harness wrote).
	Summary sample.Options
	// Rows, when set, receives every sample as a scored row (id "task /
	// sample id", prompt as question, golden answer, response, each
	// metric's value, the groupings), in file order, before Score
	// returns: what the run store records. The output is then read
	// twice, since the row schema needs every metric name first: the
	// first pass keeps each item's metrics but not its texts.
	Rows func(*results.Row) error
	// Verdicts, when set, receives the rows as a verdict CSV (the header
	// of results.NewRowSchema, then one line per sample), formula cells
	// guarded unless RawCSV.
	Verdicts io.Writer
	RawCSV   bool
}

// ErrNothingToScore is matched by Score's error for an output with no
// per-sample record or no per-sample metric.
var ErrNothingToScore = errors.New("nothing to score")

// CodeHarnessMetrics is the warning code that says a score of a harness
// output reports the harness's own per-sample values.
const CodeHarnessMetrics = "harness_metrics"

// Score reports a harness output with the harness's own per-sample
// metrics: each metric's mean per task (and per language, model or any
// slice asked for) with an interval, computed from the values the
// harness wrote, beside the figures the harness reported in its results
// file (Score.Reported). Nothing is re-scored: the metric definitions say
// the values are the harness's (MetricDef.By "harness"). Dataset.Format is
// the harness format, Dataset.Hash the first 12 hex digits of SHA-256 over
// the files read, in order.
func Score(ctx context.Context, path string, opt ScoreOptions) (*results.Score, error) {
	if opt.Summary.Source == "" {
		name := opt.Read.Format
		if name == "" || name == "auto" {
			var err error
			if name, err = Detect(path); err != nil {
				return nil, err
			}
		}
		opt.Summary.Source = name
		opt.Read.Format = name
	}
	opt.Summary.CountItems = true // lm-eval writes a document once per filter: one item
	z, err := sample.NewSummarizer(opt.Summary)
	if err != nil {
		return nil, err
	}
	chk := NewChecker()
	add := func(s *Sample) error {
		if err := chk.Add(s); err != nil {
			return err
		}
		return z.Add(s)
	}
	read := opt.Read
	rowMode := opt.Rows != nil || opt.Verdicts != nil
	var m *filterMerge
	if rowMode {
		// Rows need every metric name first and one row per item (the
		// records of its filters merged, MergeFilters): a first pass keeps
		// each item's metrics and slices but not its texts, a second emits
		// the rows with the texts as they are read.
		m = newFilterMerge()
		read.Each = func(s *Sample) error {
			if err := add(s); err != nil { // as the figures-only read does
				return err
			}
			return m.note(s)
		}
	} else { // figures only: stream, nothing kept per sample but its key
		read.NoText, read.Each = true, add
	}
	run, err := Read(ctx, path, read)
	if err != nil {
		return nil, err
	}
	if opt.Summary.Defs == nil && run.Defs != nil {
		z.SetDefs(run.Defs)
	}
	switch {
	case z.Samples() == 0:
		return nil, fmt.Errorf("%s: %w: the %s output holds no per-sample records, only the figures it reported (evalbook import %s lists them)", path, ErrNothingToScore, run.Format, path)
	case len(z.Defs()) == 0:
		return nil, fmt.Errorf("%s: %w: its %d samples carry no metric value of %s's own; give --metrics IDS to score their responses with evalbook's metrics", path, ErrNothingToScore, z.Samples(), run.Format)
	}
	res := z.Score()
	res.Dataset = results.Dataset{Path: path, Format: run.Format, Rows: z.Samples()}
	res.Model = run.Model
	if res.Dataset.Hash, err = hashFiles(run.Files); err != nil {
		return nil, err
	}
	res.Warnings = append(slices.Clone(run.Warnings), res.Warnings...)
	msg := fmt.Sprintf("the figures are %s's own per-sample metrics, averaged with intervals; nothing was re-scored (give --metrics to re-score the responses with evalbook's metrics)", run.Format)
	if len(run.Defs) > 0 && !slices.ContainsFunc(run.Defs, func(d sample.Def) bool { return d.By != sample.ByEvalbook }) {
		msg = fmt.Sprintf("the figures are the per-item metrics of the %s run as evalbook scored it, averaged with intervals", run.Format)
	}
	res.Warnings = append(res.Warnings, results.Warning{Code: CodeHarnessMetrics, Message: msg})
	for _, o := range run.Opaque {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeCorpusMetric, Message: fmt.Sprintf(
			"%s: %s is a corpus metric (its per-sample values are not numbers but texts %s aggregates over all samples at once), so it has no per-sample mean here; evalbook import lists the figure %s reported", o[0], o[1], run.Format, run.Format)})
	}
	rep, err := chk.Report(run)
	if err != nil {
		return nil, err
	}
	for _, t := range rep.Tasks {
		if t.How != "mean" {
			continue
		}
		res.Reported = append(res.Reported, results.Reported{Model: t.Model, Task: t.Task, Metric: t.Metric, Value: t.Reported, N: t.N, Recomputed: t.Recomputed, Match: t.Match})
	}
	if rowMode {
		if err := emitRows(ctx, path, read, m, res, opt); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// filterMerge is MergeFilters over samples given one at a time: it keeps
// each item's metrics (the first record's, with those of the records
// merged into it) and, per record in read order, the item it starts or
// -1 when it was merged into an earlier one; the item's other fields are
// the first record's, read again with its texts by the second pass.
type filterMerge struct {
	metrics [][]Metric
	plan    []int32
	at      map[[2]uint64]int32 // the item's key (model, task, sample id, epoch) as 128 bits of hash
	seeds   [2]maphash.Seed
	names   map[string]string
	models  map[string]bool
}

func newFilterMerge() *filterMerge {
	return &filterMerge{at: map[[2]uint64]int32{}, seeds: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()},
		names: map[string]string{}, models: map[string]bool{}}
}

// key is 128 bits of hash of the sample's item (two distinct items share
// them with odds of 2^-128 a pair).
func (f *filterMerge) key(s *Sample) [2]uint64 {
	var out [2]uint64
	for i, seed := range f.seeds {
		var h maphash.Hash
		h.SetSeed(seed)
		for _, x := range [...]string{s.Model, s.Task, s.SampleID} {
			h.WriteString(strconv.Itoa(len(x)))
			h.WriteByte(':')
			h.WriteString(x)
		}
		h.WriteString(strconv.Itoa(s.Epoch))
		out[i] = h.Sum64()
	}
	return out
}

// name returns a copy of a metric name that the readers' buffers do not
// hold, one for every item.
func (f *filterMerge) name(s string) string {
	if k, ok := f.names[s]; ok {
		return k
	}
	k := strings.Clone(s)
	f.names[k] = k
	return k
}

func (f *filterMerge) note(s *Sample) error {
	k := f.key(s)
	j, ok := f.at[k]
	if ok && !overlap(f.metrics[j], s.Metrics) {
		item := Sample{Metrics: f.metrics[j]}
		for _, m := range s.Metrics {
			item.SetMetric(f.name(m.Name), m.Value)
		}
		f.metrics[j] = item.Metrics
		f.plan = append(f.plan, -1)
		return nil
	}
	if len(f.metrics) >= math.MaxInt32 {
		return fmt.Errorf("%s: more than %d items", s.File, math.MaxInt32)
	}
	ms := make([]Metric, len(s.Metrics))
	for i, m := range s.Metrics {
		ms[i] = Metric{Name: f.name(m.Name), Value: m.Value}
	}
	if !ok {
		f.at[k] = int32(len(f.metrics))
	}
	if !f.models[s.Model] {
		f.models[strings.Clone(s.Model)] = true
	}
	f.plan = append(f.plan, int32(len(f.metrics)))
	f.metrics = append(f.metrics, ms)
	return nil
}

// Hash is the first 12 hex digits of SHA-256 over the files the run was
// read from, in order (Run.Files): the hash score gives its Dataset.
func (r *Run) Hash() (string, error) { return hashFiles(r.Files) }

// hashFiles hashes the files read, in order.
func hashFiles(files []string) (string, error) {
	h := sha256.New()
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return "", err
		}
		_, err = io.Copy(h, fh)
		fh.Close()
		if err != nil {
			return "", fmt.Errorf("%s: %w", f, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

// RowID is the id a sample's row carries in a scored-row stream and the
// run store: "task / sample id", led by the model when the run holds
// several models, so two runs of the same tasks pair item by item.
func RowID(s *Sample, models bool) string {
	id := s.SampleID
	if s.Task != "" {
		id = s.Task + " / " + id
	}
	if models && s.Model != "" {
		id = s.Model + " / " + id
	}
	return id
}

// emitRows reads the output at path a second time and gives each item's
// row (m.plan: the first record of each item, with the metrics of its
// filters' records) to opt.Rows and opt.Verdicts as it is read.
func emitRows(ctx context.Context, path string, read Options, m *filterMerge, res *results.Score, opt ScoreOptions) error {
	multi := len(m.models) > 1
	metrics := res.Settings.Metrics
	graded := make([]bool, len(metrics))
	for i, d := range res.Metrics {
		graded[i] = d.Graded
	}
	var groupings []string
	for _, g := range res.Settings.By {
		groupings = append(groupings, strings.Join(g, " / "))
	}
	schema := results.NewRowSchema([]string{"id", "question", "answer", "response"}, metrics, graded, false, groupings)
	var cw *tabular.CSVWriter
	var cells []string
	if opt.Verdicts != nil {
		cw = tabular.NewCSVWriter(opt.Verdicts, tabular.CSVOptions{Raw: opt.RawCSV})
		if err := cw.Write(schema.Header); err != nil {
			return err
		}
	}
	row := &results.Row{Schema: schema, Fields: make([]string, 4), Values: make([]float64, len(metrics)), Groups: make([]string, len(groupings))}
	rec := 0
	read.Each = func(rs *Sample) error {
		if rec >= len(m.plan) {
			return fmt.Errorf("%s: the output changed while it was read (more records the second time)", path)
		}
		i := m.plan[rec]
		rec++
		if i < 0 {
			return nil // merged into an earlier record's row
		}
		s := *rs // the item's first record, with the metrics of its filters
		s.Metrics = m.metrics[i]
		row.Line = int(i) + 1
		row.Fields[0], row.Fields[1], row.Fields[2], row.Fields[3] = RowID(&s, multi), rs.Prompt, rs.Golden, rs.Response
		for j, m := range metrics {
			v, ok := s.Value(m)
			if !ok {
				v = math.NaN()
			}
			row.Values[j] = v
		}
		for j, g := range res.Settings.By {
			parts := make([]string, len(g))
			for k, name := range g {
				parts[k], _ = s.Slice(name)
			}
			row.Groups[j] = strings.Join(parts, " / ")
		}
		row.Blank = rs.HasResponse && strings.TrimSpace(rs.Response) == ""
		if opt.Rows != nil {
			if err := opt.Rows(row); err != nil {
				return err
			}
		}
		if cw != nil {
			cells = schema.AppendCells(cells[:0], row)
			if err := cw.Write(cells); err != nil {
				return err
			}
		}
		return nil
	}
	if _, err := Read(ctx, path, read); err != nil {
		return err
	}
	if rec != len(m.plan) {
		return fmt.Errorf("%s: the output changed while it was read (fewer records the second time)", path)
	}
	if cw != nil {
		cw.Flush()
		return cw.Error()
	}
	return nil
}

// CodeCorpusMetric is the warning code of a harness metric that is
// computed over the corpus (lm-eval's bleu), which a score of its
// per-sample values cannot show.
const CodeCorpusMetric = "corpus_metric"

// CodeRescored is the warning code of a score that re-scored a harness
// output's texts with evalbook's metrics instead of reporting the
// harness's own.
const CodeRescored = "harness_rescored"

// ResponsesRun is ResponsesReader that also returns the run read, so that
// a re-score can show the harness's own figures beside its own
// (MarkRescore).
func ResponsesRun(ctx context.Context, path string, opt Options) (io.Reader, *Run, error) {
	run, err := Read(ctx, path, opt)
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	if _, err := ResponseCSV(&buf, run); err != nil {
		return nil, nil, err
	}
	return &buf, run, nil
}

// MarkRescore marks res, a score of run's responses with evalbook's
// metrics, as a re-score: a warning says so and names the harness's own
// metrics, every metric definition says evalbook computed it, and
// Reported carries the figures the harness reported (beside the mean of
// its own per-sample values), so the two can be read side by side.
func MarkRescore(res *results.Score, run *Run) error {
	for i := range res.Metrics {
		res.Metrics[i].By = sample.ByEvalbook
	}
	res.Dataset.Format = run.Format
	chk := NewChecker()
	for i := range run.Samples {
		_ = chk.Add(&run.Samples[i]) // Add reports no error
	}
	var own []string
	rep, err := chk.Report(run)
	if err != nil {
		return err
	}
	for _, t := range rep.Tasks {
		if t.How != "mean" {
			continue
		}
		res.Reported = append(res.Reported, results.Reported{Model: t.Model, Task: t.Task, Metric: t.Metric, Value: t.Reported, N: t.N, Recomputed: t.Recomputed, Match: t.Match})
		if !slices.Contains(own, t.Metric) {
			own = append(own, t.Metric)
		}
	}
	msg := fmt.Sprintf("this is a re-score: the responses of a %s output were scored with evalbook's %s, not with %s's own metrics", run.Format, strings.Join(res.Settings.Metrics, ", "), run.Format)
	if len(own) > 0 {
		msg += fmt.Sprintf(" (%s; its reported figures are listed beside)", strings.Join(own, ", "))
	}
	msg += "; drop --metrics to report the harness's own per-sample metrics"
	res.Warnings = append([]results.Warning{{Code: CodeRescored, Message: msg}}, res.Warnings...)
	return nil
}

// MergeFilters joins the records of one item that a harness writes once
// per filter (lm-eval writes a gsm8k document once under strict-match and
// once under flexible-extract, each with its own metric) into one sample
// holding every filter's metrics, so an item counts once. Records merge
// when model, task, sample id and epoch are equal and their metric names
// do not overlap; the first record's texts and place are kept. Records
// whose metrics overlap are left as they are (a duplicate, which the
// readers report). The order is the first record's.
func MergeFilters(ss []Sample) []Sample {
	type key struct {
		model, task, id string
		epoch           int
	}
	at := make(map[key]int, len(ss))
	out := ss[:0]
	for i := range ss {
		s := ss[i]
		k := key{s.Model, s.Task, s.SampleID, s.Epoch}
		j, ok := at[k]
		if ok && !overlap(out[j].Metrics, s.Metrics) {
			for _, m := range s.Metrics {
				out[j].SetMetric(m.Name, m.Value)
			}
			continue
		}
		if !ok {
			at[k] = len(out)
		}
		out = append(out, s)
	}
	return out
}

func overlap(a, b []Metric) bool {
	for _, m := range b {
		for _, n := range a {
			if m.Name == n.Name {
				return true
			}
		}
	}
	return false
}
