// Package repeats summarises items sampled several times each (item,
// sample, pass): the mean pass rate, its standard error split into the
// part that comes from the items and the part that comes from sampling
// each item (Miller 2024, "Adding error bars to evals", section 3 on
// resampling; stats.Repeats), each item's stability, the flaky items
// (passed on some samples and failed on others), and how many samples per
// item buy how much precision.
package repeats

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// MaxRows bounds how many samples ReadSamples accepts.
const MaxRows = 10_000_000

// Column names; ItemColumns lists the accepted names of the item column.
var ItemColumns = []string{"item", "item_id", "id"}

const (
	ColSample = "sample"
	ColPass   = "pass"
)

// Warning codes of Analyze.
const (
	// CodeOneSample: some items have a single sample; they add nothing
	// to the within-item part.
	CodeOneSample = "one_sample"
	// CodeNegativeBetween: the between-item estimate came out negative
	// (the items differ less than sampling alone would make them); the
	// projection floors it at 0.
	CodeNegativeBetween = "negative_between"
)

// Item is one item's samples.
type Item struct {
	Item    string  `json:"item"`
	Samples int     `json:"samples"`
	Passes  int     `json:"passes"`
	Rate    float64 `json:"rate"`
	// Stability is the share of samples that agree with the item's
	// majority outcome, max(rate, 1 − rate): 1 for an item that always
	// passes or always fails, 0.5 at worst.
	Stability float64 `json:"stability"`
	Flaky     bool    `json:"flaky"` // passed on some samples, failed on others
}

// Projection is the standard error the same items would have with
// SamplesPerItem samples each, and the interval's half-width.
type Projection struct {
	SamplesPerItem int     `json:"samples_per_item"`
	SE             float64 `json:"se"`
	HalfWidth      float64 `json:"half_width"`
}

// Result is the summary of a file of repeated samples.
type Result struct {
	Kind       string  `json:"kind"` // always "repeats"
	Source     string  `json:"source"`
	Confidence float64 `json:"confidence"`
	Items      int     `json:"items"`
	Samples    int     `json:"samples"`
	Mean       float64 `json:"mean"`
	SE         float64 `json:"se"`
	CILow      float64 `json:"ci_low"`
	CIHigh     float64 `json:"ci_high"`
	// Within and Between split SE² · n (stats.Repeats): Within is the
	// mean of p̂_i(1 − p̂_i)/K_i, Between the variance of the item means
	// less Within.
	Within        float64           `json:"within"`
	Between       float64           `json:"between"`
	FlakyItems    int               `json:"flaky_items"`
	Flaky         []string          `json:"flaky"`
	MeanStability float64           `json:"mean_stability"`
	Projections   []Projection      `json:"projections"`
	PerItem       []Item            `json:"per_item"`
	Warnings      []results.Warning `json:"warnings"`
}

// Options configures Analyze. The zero value gives 95% intervals.
type Options struct {
	Confidence float64 // 0: 0.95
}

// Sample is one sample of an item; Line is where it was read.
type Sample struct {
	Item string
	Pass bool
	Line int
}

// ReadSamples reads samples from CSV or JSONL with an item column (item,
// item_id or id), pass (0 or 1; true and false too) and optionally
// sample (its number; not used beyond reading). Errors are
// *tabular.ParseError values naming the file, line and field: a missing
// column, an empty item id, a pass other than 0/1, no row.
func ReadSamples(r io.Reader, name string) ([]Sample, error) {
	rd, err := tabular.NewReader(r, name, tabular.Options{})
	if err != nil {
		return nil, err
	}
	ii := -1
	for _, c := range ItemColumns {
		if ii = rd.Index(c); ii >= 0 {
			break
		}
	}
	if ii < 0 {
		return nil, &tabular.ParseError{File: name, Line: 1, Field: ItemColumns[0], Err: fmt.Errorf("no item column (%s); the header has %s (a samples file needs item, sample and pass, one row per sample)",
			strings.Join(ItemColumns, ", "), tabular.QuoteList(rd.Header()))}
	}
	ip := rd.Index(ColPass)
	if ip < 0 {
		return nil, &tabular.ParseError{File: name, Line: 1, Field: ColPass, Err: fmt.Errorf("no pass column; the header has %s (a samples file needs item, sample and pass, one row per sample)", tabular.QuoteList(rd.Header()))}
	}
	var out []Sample
	for rd.Scan() {
		rec := rd.Record()
		if len(out) == MaxRows {
			return nil, &tabular.ParseError{File: name, Line: rec.Line, Err: fmt.Errorf("more than %d samples; split the file", MaxRows)}
		}
		s := Sample{Item: strings.TrimSpace(rec.Fields[ii]), Line: rec.Line}
		if s.Item == "" {
			return nil, rd.Errorf(ii, "empty item id")
		}
		switch v := strings.ToLower(strings.TrimSpace(rec.Fields[ip])); v {
		case "1", "true", "1.0":
			s.Pass = true
		case "0", "false", "0.0":
		default:
			return nil, rd.Errorf(ip, "pass %s: want 0 or 1", tabular.Quote(rec.Fields[ip]))
		}
		out = append(out, s)
	}
	if err := rd.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, &tabular.ParseError{File: name, Line: 1, Err: fmt.Errorf("no samples")}
	}
	return out, nil
}

// ProjectedSamples are the samples per item Analyze projects the
// standard error to.
var ProjectedSamples = []int{1, 2, 3, 5, 10, 20, 50}

// Analyze summarises samples (source names them). Items keep the order in
// which they first appear.
func Analyze(samples []Sample, source string, opt Options) *Result {
	if opt.Confidence == 0 {
		opt.Confidence = 0.95
	}
	idx := map[string]int{}
	var vals [][]float64
	res := &Result{Kind: "repeats", Source: source, Confidence: opt.Confidence, Flaky: []string{}, Warnings: []results.Warning{}}
	for _, s := range samples {
		i, ok := idx[s.Item]
		if !ok {
			i = len(vals)
			idx[s.Item] = i
			vals = append(vals, nil)
			res.PerItem = append(res.PerItem, Item{Item: s.Item})
		}
		x := 0.0
		if s.Pass {
			x = 1
			res.PerItem[i].Passes++
		}
		vals[i] = append(vals[i], x)
		res.PerItem[i].Samples++
	}
	est := stats.Repeats(vals)
	res.Items, res.Samples, res.Mean, res.SE, res.Within, res.Between = est.Items, est.Samples, est.Mean, est.SE, est.Within, est.Between
	z := stats.NormalQuantile(1 - (1-opt.Confidence)/2)
	res.CILow, res.CIHigh = math.Max(0, est.Mean-z*est.SE), math.Min(1, est.Mean+z*est.SE)
	single := 0
	for i := range res.PerItem {
		it := &res.PerItem[i]
		it.Rate = float64(it.Passes) / float64(it.Samples)
		it.Stability = math.Max(it.Rate, 1-it.Rate)
		it.Flaky = it.Passes > 0 && it.Passes < it.Samples
		res.MeanStability += it.Stability
		if it.Flaky {
			res.FlakyItems++
			res.Flaky = append(res.Flaky, it.Item)
		}
		if it.Samples == 1 {
			single++
		}
	}
	res.MeanStability /= float64(len(res.PerItem))
	for _, k := range ProjectedSamples {
		se := est.ProjectSE(k)
		res.Projections = append(res.Projections, Projection{SamplesPerItem: k, SE: se, HalfWidth: z * se})
	}
	if single > 0 {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeOneSample, Count: single,
			Message: fmt.Sprintf("%d of %d items have one sample: they tell nothing about sampling variation", single, res.Items)})
	}
	if est.Between < 0 {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeNegativeBetween, Count: 1,
			Message: fmt.Sprintf("the between-item variance came out negative (%.3g): the items differ no more than sampling alone would make them; the projection takes it as 0", est.Between)})
	}
	return res
}

// CodeFailedItems: items whose call failed (task-run details) are left
// out.
const CodeFailedItems = "failed_items"

// ItemSamples is one item's samples as pass or fail, for AnalyzeItems.
type ItemSamples struct {
	Item   string
	Passes []bool
}

// AnalyzeItems summarises items given with their samples (task-run
// details: tasks.SamplePasses); failed counts items left out because
// their call failed (a failed_items warning).
func AnalyzeItems(items []ItemSamples, source string, failed int, opt Options) (*Result, error) {
	var ss []Sample
	for _, it := range items {
		for _, p := range it.Passes {
			ss = append(ss, Sample{Item: it.Item, Pass: p})
		}
	}
	if len(ss) == 0 {
		return nil, fmt.Errorf("%s: no sampled item (%d failed)", source, failed)
	}
	r := Analyze(ss, source, opt)
	if failed > 0 {
		r.Warnings = append(r.Warnings, results.Warning{Code: CodeFailedItems, Count: failed,
			Message: fmt.Sprintf("%d items failed (the endpoint gave no reply) and are left out", failed)})
	}
	return r, nil
}

// File reads a samples file (ReadSamples) and summarises it.
func File(r io.Reader, name string, opt Options) (*Result, error) {
	s, err := ReadSamples(r, name)
	if err != nil {
		return nil, err
	}
	return Analyze(s, name, opt), nil
}

// WriteText writes the summary and its tables.
func (r *Result) WriteText(w io.Writer) error {
	var s strings.Builder
	fmt.Fprintf(&s, "Repeated samples: %s, %d items, %d samples\n", r.Source, r.Items, r.Samples)
	fmt.Fprintf(&s, "mean %.4f, SE %.4f, %g%% interval [%.4f, %.4f]\n", r.Mean, r.SE, r.Confidence*100, r.CILow, r.CIHigh)
	fmt.Fprintf(&s, "SE² · n = between %.6f + within %.6f (Miller 2024: the items' spread, and resampling each item)\n", r.Between, r.Within)
	fmt.Fprintf(&s, "%d flaky items (passed on some samples, failed on others); mean stability %.3f\n\n", r.FlakyItems, r.MeanStability)
	for _, t := range r.tables(false) {
		if err := t.WriteText(&s); err != nil {
			return err
		}
		s.WriteString("\n")
	}
	_, err := io.WriteString(w, s.String())
	return err
}

// Tables returns the summary, the projection, the items and the warnings,
// for the page and the workbook: the summary's mean, its interval and
// the mean stability are rates (50.0%, as the cards show them), its
// counts counts, its rows named in words.
func (r *Result) Tables() []results.Table { return r.tables(true) }

// tables is Tables; display false keeps the summary as the text prints
// it (every figure a decimal, as the lines above it, rows by JSON key).
func (r *Result) tables(display bool) []results.Table {
	f := results.Float
	sum := results.Table{Title: "Summary", Columns: []results.Column{{Name: "figure"}, {Name: "value", Kind: results.KindNumber}},
		Rows: [][]string{{"items", strconv.Itoa(r.Items)}, {"samples", strconv.Itoa(r.Samples)}, {"mean", f(r.Mean)}, {"se", f(r.SE)},
			{"ci_low", f(r.CILow)}, {"ci_high", f(r.CIHigh)}, {"within", f(r.Within)}, {"between", f(r.Between)},
			{"flaky_items", strconv.Itoa(r.FlakyItems)}, {"mean_stability", f(r.MeanStability)}}}
	if display {
		sum.Columns[1].PerRow = true
		c, n, p := results.KindCount, results.KindNumber, results.KindRate
		sum.RowKinds = []string{c, c, p, n, p, p, n, n, c, p}
		for i, name := range []string{"items", "samples", "mean", "standard error", "interval low", "interval high",
			"within-item variance", "between-item variance", "flaky items", "mean stability"} {
			sum.Rows[i][0] = name
		}
	}
	proj := results.Table{Title: "Samples per item and precision",
		Note:    fmt.Sprintf("The standard error the same items would have with k samples each: √((between + mean p̂(1−p̂)/k) / n); half-width at %g%%.", r.Confidence*100),
		Columns: []results.Column{{Name: "samples per item", Kind: results.KindNumber}, {Name: "se", Kind: results.KindNumber}, {Name: "half-width", Kind: results.KindNumber}}}
	for _, p := range r.Projections {
		proj.Rows = append(proj.Rows, []string{strconv.Itoa(p.SamplesPerItem), f(p.SE), f(p.HalfWidth)})
	}
	items := results.Table{Title: "Items", Note: "stability: the share of samples that agree with the item's majority outcome.",
		Columns: []results.Column{{Name: "item"}, {Name: "samples", Kind: results.KindNumber}, {Name: "passes", Kind: results.KindNumber},
			{Name: "rate", Kind: results.KindRate}, {Name: "stability", Kind: results.KindRate}, {Name: "flaky"}}}
	for _, it := range r.PerItem {
		fl := ""
		if it.Flaky {
			fl = "flaky"
		}
		items.Rows = append(items.Rows, []string{it.Item, strconv.Itoa(it.Samples), strconv.Itoa(it.Passes), f(it.Rate), f(it.Stability), fl})
	}
	return append([]results.Table{sum, proj, items}, results.WarningTable(r.Warnings)...)
}
