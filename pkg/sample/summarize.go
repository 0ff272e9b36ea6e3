package sample

import (
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
)

// Options configure a Summarizer.
type Options struct {
	// By lists the groupings, each a list of slice names (Sample.Slice)
	// that make a cross grouping. Nil means the default: "task", then
	// "task / language" when some sample has a language, each led by
	// "model" when the samples come from more than one model.
	By [][]string
	// Defs names the metrics to report, in order, and says who computed
	// them. Nil means every metric the samples carry, sorted by name, as
	// computed by the harness (Def.By ByHarness), graded when some value
	// is neither 0 nor 1.
	Defs []Def
	// Source names who computed a metric Defs does not describe (the
	// harness format: "lm-eval"); used for the metric definitions.
	Source string
	// CI is the interval method: a stats.ProportionMethods name
	// (binary metrics; graded ones take the normal interval),
	// "bootstrap", or "none"; "" means wilson.
	CI         string
	Confidence float64 // 0 means 0.95
	Resamples  int     // bootstrap resamples; 0 means 10000
	Seed       uint64
	// CountItems makes n count distinct items (model, task, sample id,
	// epoch) instead of records: a harness that writes one item once per
	// filter (lm-eval) gives one item with the metrics of every filter.
	// It keeps 16 bytes per item.
	CountItems bool
}

// A Summarizer adds up samples as they stream and gives the figures per
// slice as a results.Score: each metric's mean over the samples that
// have a value (NaN is no value, counted in the metric's n only when
// present), with an interval. Its memory grows with the number of
// slices, not samples (except for a bootstrap interval, which keeps each
// value).
type Summarizer struct {
	opt      Options
	keys     []string // the slice names the groupings use, sorted
	cells    map[string]*cell
	models   map[string]bool
	langs    bool
	n        int
	metrics  map[string]bool
	nonBin   map[string]bool
	keepVals bool
	items    map[[2]uint64]struct{} // with CountItems, the items seen
	seeds    [2]maphash.Seed
}

// cell holds the sums of the samples that share every slice value of
// the groupings.
type cell struct {
	vals []string // the slice values, in the order of Summarizer.keys
	n    int
	m    map[string]*acc
}

// acc is one metric's sums over a cell.
type acc struct {
	n, ones   int
	other     int // values neither 0 nor 1
	outside   int // values outside [0, 1] (a perplexity, a 1-10 grade)
	sum, sum2 float64
	values    []float64 // kept for a bootstrap interval
}

func (a *acc) add(v float64, keep bool) {
	a.n++
	a.sum += v
	a.sum2 += v * v
	switch v {
	case 1:
		a.ones++
	case 0:
	default:
		a.other++
		if v < 0 || v > 1 {
			a.outside++
		}
	}
	if keep {
		a.values = append(a.values, v)
	}
}

func (a *acc) merge(b *acc) {
	a.n += b.n
	a.ones += b.ones
	a.other += b.other
	a.outside += b.outside
	a.sum += b.sum
	a.sum2 += b.sum2
	a.values = append(a.values, b.values...)
}

// NewSummarizer returns a summarizer with opt.
func NewSummarizer(opt Options) (*Summarizer, error) {
	if opt.Confidence == 0 {
		opt.Confidence = 0.95
	}
	if opt.Confidence <= 0 || opt.Confidence >= 1 {
		return nil, fmt.Errorf("sample: confidence %v is not between 0 and 1", opt.Confidence)
	}
	if opt.CI == "" {
		opt.CI = stats.MethodWilson
	}
	if opt.CI != "none" && opt.CI != "bootstrap" && !stats.IsProportionMethod(opt.CI) {
		return nil, fmt.Errorf("sample: interval method %q: want none, bootstrap or one of %s", opt.CI, strings.Join(stats.ProportionMethods(), ", "))
	}
	if opt.Resamples == 0 {
		opt.Resamples = 10000
	}
	keys := []string{SliceModel, SliceTask, SliceLanguage}
	for _, g := range opt.By {
		if len(g) == 0 {
			return nil, fmt.Errorf("sample: an empty grouping")
		}
		for _, k := range g {
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	z := &Summarizer{opt: opt, keys: keys, cells: map[string]*cell{}, models: map[string]bool{},
		metrics: map[string]bool{}, nonBin: map[string]bool{}, keepVals: opt.CI == "bootstrap"}
	if opt.CountItems {
		z.items = map[[2]uint64]struct{}{}
		z.seeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
	}
	return z, nil
}

// SetDefs sets the metric definitions after the samples were added (a
// reader that says who computed its metrics once it has read them).
func (z *Summarizer) SetDefs(defs []Def) { z.opt.Defs = defs }

// newItem reports whether s is an item not seen before (always, without
// CountItems).
func (z *Summarizer) newItem(s *Sample) bool {
	if z.items == nil {
		return true
	}
	key := s.Model + "\x1f" + s.Task + "\x1f" + s.SampleID + "\x1f" + strconv.Itoa(s.Epoch)
	k := [2]uint64{maphash.String(z.seeds[0], key), maphash.String(z.seeds[1], key)}
	if _, ok := z.items[k]; ok {
		return false
	}
	z.items[k] = struct{}{}
	return true
}

// Add adds one sample. A metric value that is not a number (±Inf) is an
// error naming the sample: a harness's figure cannot be summarised from it.
func (z *Summarizer) Add(s *Sample) error {
	vals := make([]string, len(z.keys))
	for i, k := range z.keys {
		vals[i], _ = s.Slice(k)
	}
	key := strings.Join(vals, "\x1f")
	c := z.cells[key]
	if c == nil {
		c = &cell{vals: vals, m: map[string]*acc{}}
		z.cells[key] = c
	}
	if z.newItem(s) {
		c.n++
		z.n++
	}
	if s.Model != "" {
		z.models[s.Model] = true
	}
	z.langs = z.langs || s.Language != ""
	for _, m := range s.Metrics {
		if math.IsNaN(m.Value) {
			continue
		}
		if math.IsInf(m.Value, 0) {
			return fmt.Errorf("%s: sample %q of task %q: metric %q is %v, not a number evalbook can average", where(s), s.SampleID, s.Task, m.Name, m.Value)
		}
		a := c.m[m.Name]
		if a == nil {
			a = &acc{}
			c.m[m.Name] = a
		}
		a.add(m.Value, z.keepVals)
		z.metrics[m.Name] = true
		if m.Value != 0 && m.Value != 1 {
			z.nonBin[m.Name] = true
		}
	}
	return nil
}

func where(s *Sample) string {
	if s.File == "" {
		return "sample"
	}
	if s.Line > 0 {
		return fmt.Sprintf("%s:%d", s.File, s.Line)
	}
	return s.File
}

// Samples is the number of samples added.
func (z *Summarizer) Samples() int { return z.n }

// Defs returns the metric definitions the score reports: opt.Defs, or
// every metric seen, sorted, as the harness computed it.
func (z *Summarizer) Defs() []Def {
	if z.opt.Defs != nil {
		return z.opt.Defs
	}
	names := make([]string, 0, len(z.metrics))
	for n := range z.metrics {
		names = append(names, n)
	}
	slices.Sort(names)
	defs := make([]Def, len(names))
	for i, n := range names {
		defs[i] = Def{Name: n, By: ByHarness, Source: z.opt.Source, Graded: z.nonBin[n]}
	}
	return defs
}

// Groupings returns the groupings the score reports (Options.By or the
// default for the samples added).
func (z *Summarizer) Groupings() [][]string {
	if z.opt.By != nil {
		return z.opt.By
	}
	lead := []string{}
	if len(z.models) > 1 {
		lead = []string{SliceModel}
	}
	by := [][]string{append(slices.Clone(lead), SliceTask)}
	if z.langs {
		by = append(by, append(slices.Clone(lead), SliceTask, SliceLanguage))
	}
	return by
}

// Score returns the figures: Combined over every sample, then each
// grouping's groups sorted by name. Dataset, Tool and Title are left for
// the caller.
func (z *Summarizer) Score() *results.Score {
	defs := z.Defs()
	by := z.Groupings()
	res := &results.Score{Kind: "score", Groups: []results.Group{}, Agreement: []results.Agreement{}, Warnings: []results.Warning{}}
	res.Settings = results.Settings{Normalize: "none", By: by, CI: z.opt.CI, Confidence: z.opt.Confidence, Seed: z.opt.Seed}
	if z.opt.CI == "bootstrap" {
		res.Settings.Resamples = z.opt.Resamples
	}
	for _, d := range defs {
		res.Settings.Metrics = append(res.Settings.Metrics, d.Name)
		res.Metrics = append(res.Metrics, metricDef(d, z.opt.Source))
	}
	graded := map[string]bool{}
	for _, d := range defs {
		graded[d.Name] = d.Graded
	}
	cellKeys := make([]string, 0, len(z.cells))
	for k := range z.cells {
		cellKeys = append(cellKeys, k)
	}
	slices.Sort(cellKeys)
	all := &cell{m: map[string]*acc{}}
	for _, k := range cellKeys {
		mergeCell(all, z.cells[k])
	}
	res.Combined = z.group(all, "", "", defs, graded)
	for _, g := range by {
		idx := make([]int, len(g))
		for i, k := range g {
			idx[i] = slices.Index(z.keys, k)
		}
		groups := map[string]*cell{}
		for _, k := range cellKeys {
			c := z.cells[k]
			parts := make([]string, len(idx))
			for i, j := range idx {
				parts[i] = c.vals[j]
			}
			name := strings.Join(parts, " / ")
			gc := groups[name]
			if gc == nil {
				gc = &cell{m: map[string]*acc{}}
				groups[name] = gc
			}
			mergeCell(gc, c)
		}
		names := make([]string, 0, len(groups))
		for n := range groups {
			names = append(names, n)
		}
		slices.Sort(names)
		byName := strings.Join(g, " / ")
		for _, n := range names {
			res.Groups = append(res.Groups, z.group(groups[n], byName, n, defs, graded))
		}
	}
	for _, d := range defs {
		if !z.metrics[d.Name] {
			res.Warnings = append(res.Warnings, results.Warning{Code: CodeNoValues, Message: fmt.Sprintf("metric %s: no sample has a value", d.Name)})
		}
	}
	return res
}

// CodeNoValues is the warning code of a metric no sample has a value of.
const CodeNoValues = "no_values"

func mergeCell(dst, src *cell) {
	dst.n += src.n
	names := make([]string, 0, len(src.m))
	for n := range src.m {
		names = append(names, n)
	}
	slices.Sort(names) // bootstrap values in a fixed order
	for _, n := range names {
		a := dst.m[n]
		if a == nil {
			a = &acc{}
			dst.m[n] = a
		}
		a.merge(src.m[n])
	}
}

func (z *Summarizer) group(c *cell, by, name string, defs []Def, graded map[string]bool) results.Group {
	g := results.Group{By: by, Group: name, N: c.n, Metrics: map[string]results.MetricScore{}}
	for _, d := range defs {
		a := c.m[d.Name]
		if a == nil || a.n == 0 {
			continue
		}
		ms := results.MetricScore{Correct: a.sum, Accuracy: a.sum / float64(a.n)}
		if a.n != c.n {
			ms.N = a.n
		}
		bin := !graded[d.Name] && a.other == 0
		var iv stats.Interval
		switch {
		case z.opt.CI == "none":
			iv = stats.Interval{Lo: ms.Accuracy, Hi: ms.Accuracy}
		case z.opt.CI == "bootstrap" && bin:
			iv = stats.BootstrapProportionInterval(a.ones, a.n, z.opt.Resamples, z.opt.Confidence, z.opt.Seed)
		case z.opt.CI == "bootstrap":
			iv = stats.BootstrapMeanInterval(a.values, z.opt.Resamples, z.opt.Confidence, z.opt.Seed)
		case bin:
			iv = stats.ProportionInterval(z.opt.CI, a.ones, a.n, z.opt.Confidence)
		case a.outside > 0:
			iv = normalMean(a, z.opt.Confidence)
		default:
			iv = stats.UnitMeanInterval(a.sum, a.sum2, a.n, z.opt.Confidence)
		}
		ms.CILow, ms.CIHigh = iv.Lo, iv.Hi
		g.Metrics[d.Name] = ms
	}
	return g
}

// MetricDef is the definition a score reports for d: its rule (for a
// harness's metric, the per-sample value the harness wrote, averaged),
// binary or graded, who computed it and source when d names none.
func MetricDef(d Def, source string) results.MetricDef { return metricDef(d, source) }

func metricDef(d Def, source string) results.MetricDef {
	src := d.Source
	if src == "" {
		src = source
	}
	rule := d.Rule
	if rule == "" && d.By == ByHarness {
		rule = "the per-sample value " + orWord(src, "the harness") + " wrote, averaged over the samples that have one"
	}
	kind := "binary (1 or 0)"
	if d.Graded {
		kind = "graded"
	}
	return results.MetricDef{ID: d.Name, Name: d.Name + " (" + kind + ")", Graded: d.Graded, Rule: rule, By: d.By, Source: src}
}

func orWord(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Summarize summarises samples held in memory (Summarizer for a stream).
func Summarize(samples []Sample, opt Options) (*results.Score, error) {
	z, err := NewSummarizer(opt)
	if err != nil {
		return nil, err
	}
	for i := range samples {
		if err := z.Add(&samples[i]); err != nil {
			return nil, err
		}
	}
	return z.Score(), nil
}

// normalMean is the normal interval mean ± z·s/√n of values that are not
// all in [0, 1] (a harness's perplexity or a 1-10 grade), with the
// sample standard deviation s; one value gives the value itself.
func normalMean(a *acc, confidence float64) stats.Interval {
	n := float64(a.n)
	m := a.sum / n
	if a.n < 2 {
		return stats.Interval{Lo: m, Hi: m, Confidence: confidence, Method: "normal"}
	}
	v := max(0, (a.sum2-n*m*m)/(n-1))
	h := stats.NormalQuantile(0.5+confidence/2) * math.Sqrt(v/n)
	return stats.Interval{Lo: m - h, Hi: m + h, Confidence: confidence, Method: "normal"}
}
