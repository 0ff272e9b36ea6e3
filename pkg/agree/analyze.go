package agree

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// Metric chooses the statistic of Analyze.
type Metric int

const (
	// MetricAuto is Cohen's kappa for two raters and Krippendorff's alpha
	// for three or more.
	MetricAuto   Metric = iota
	MetricKappa         // Cohen's kappa (weighted with Options.Weights), two raters
	MetricFleiss        // Fleiss' kappa, any number of raters
	MetricAlpha         // Krippendorff's alpha at Options.Level, any number of raters
)

// ParseMetric reads "" (MetricAuto), "kappa", "fleiss" or "alpha".
func ParseMetric(s string) (Metric, error) {
	switch s {
	case "":
		return MetricAuto, nil
	case "kappa":
		return MetricKappa, nil
	case "fleiss":
		return MetricFleiss, nil
	case "alpha":
		return MetricAlpha, nil
	}
	return 0, fmt.Errorf("%w: unknown metric %q (want kappa, fleiss or alpha)", ErrInvalid, s)
}

// String returns "auto", "kappa", "fleiss" or "alpha", and "Metric(n)" for
// a value that is not one of the constants.
func (m Metric) String() string {
	switch m {
	case MetricAuto:
		return "auto"
	case MetricKappa:
		return "kappa"
	case MetricFleiss:
		return "fleiss"
	case MetricAlpha:
		return "alpha"
	}
	return fmt.Sprintf("Metric(%d)", int(m))
}

// For returns the statistic m chooses for the given number of raters:
// m itself, or for MetricAuto kappa for two raters and alpha for more.
func (m Metric) For(raters int) Metric {
	if m != MetricAuto {
		return m
	}
	if raters > 2 {
		return MetricAlpha
	}
	return MetricKappa
}

// Options are the choices of Analyze. The zero value is valid: the
// default statistic for the number of raters, unweighted, nominal, labels
// in LabelOrder, a 95% interval from 10000 resamples with seed 0.
type Options struct {
	Metric Metric
	// Weights applies to Cohen's kappa only (Unweighted otherwise).
	Weights Weights
	// Level applies to Krippendorff's alpha only (LevelNominal otherwise).
	Level Level
	// Order is the order of the labels: the rows and columns of the
	// confusion matrix and the scale of weighted kappa and ordinal alpha.
	// nil means LabelOrder: numeric when every label is a number, else
	// alphabetical (and then a statistic that needs the order warns).
	// Every label of the table must be in it, once.
	Order []string
	// Confidence is the level of the bootstrap interval, strictly between
	// 0 and 1; 0 means 0.95.
	Confidence float64
	// Resamples is the number of bootstrap resamples; 0 means 10000, the default of every evalbook bootstrap.
	Resamples int
	Seed      uint64
}

// Errors of Options.Validate, each wrapping ErrInvalid, for a command to
// turn into usage errors with errors.Is.
var (
	ErrRaters        = fmt.Errorf("%w: agreement needs at least two raters", ErrInvalid)
	ErrKappaRaters   = fmt.Errorf("%w: Cohen's kappa is for two raters (use Fleiss' kappa or alpha)", ErrInvalid)
	ErrWeightsMetric = fmt.Errorf("%w: weights apply to Cohen's kappa only", ErrInvalid)
	ErrLevelMetric   = fmt.Errorf("%w: a level applies to Krippendorff's alpha only", ErrInvalid)
	ErrConfidence    = fmt.Errorf("%w: confidence not strictly between 0 and 1", ErrInvalid)
	ErrResamples     = fmt.Errorf("%w: fewer than one bootstrap resample", ErrInvalid)
	ErrOrder         = fmt.Errorf("%w: label order", ErrInvalid) // a label twice, or an empty one
)

// Validate checks o for a table with the given number of rater columns,
// before any data is read. Its errors wrap ErrRaters, ErrKappaRaters,
// ErrWeightsMetric, ErrLevelMetric, ErrConfidence, ErrResamples or
// ErrOrder, and ErrInvalid for a metric, weights or level that is not one
// of the constants.
func (o Options) Validate(raters int) error {
	if raters < 2 {
		return fmt.Errorf("%w, got %d", ErrRaters, raters)
	}
	m := o.Metric.For(raters)
	switch m {
	case MetricKappa:
		if raters != 2 {
			return fmt.Errorf("%w, got %d", ErrKappaRaters, raters)
		}
	case MetricFleiss, MetricAlpha:
	default:
		return fmt.Errorf("%w: metric %d is not one of the Metric constants", ErrInvalid, int(m))
	}
	if err := o.Weights.check(); err != nil {
		return err
	}
	if o.Weights != Unweighted && m != MetricKappa {
		return fmt.Errorf("%w, not to %s", ErrWeightsMetric, m)
	}
	if err := o.Level.check(); err != nil {
		return err
	}
	if o.Level != LevelNominal && m != MetricAlpha {
		return fmt.Errorf("%w, not to %s", ErrLevelMetric, m)
	}
	if o.Confidence != 0 && !(o.Confidence > 0 && o.Confidence < 1) {
		return fmt.Errorf("%w: %v", ErrConfidence, o.Confidence)
	}
	if o.Resamples < 0 {
		return fmt.Errorf("%w: %d", ErrResamples, o.Resamples)
	}
	if err := checkOrder(o.Order); err != nil {
		return err
	}
	return nil
}

// noItemsError is Analyze's error for a table with no rows.
type noItemsError struct{ file string }

func (e *noItemsError) Error() string { return e.file + ": no items after the header" }
func (e *noItemsError) Unwrap() error { return ErrNoItems }

// AnalyzeCSV reads a CSV label table from r (name names it in errors;
// raters and idColumn choose the columns) with the checks and errors of
// ReadLabels, and returns Analyze's result. The options are validated
// before r is read. It reads as it goes and keeps each rating as a small
// integer code, not as a string, and the ids front-coded, so that its
// memory stays a small multiple of the file's size; the list of
// disagreements it returns is most of it (a string, a line and a map
// reference each). AnalyzeCSVResult keeps them as row numbers and writes
// the text without the list: for a large file, use it.
func AnalyzeCSV(r io.Reader, name string, raters []string, idColumn string, opt Options) (*results.RaterAgreement, error) {
	res, err := AnalyzeCSVResult(r, name, raters, idColumn, opt)
	if err != nil {
		return nil, err
	}
	return res.Agreement(), nil
}

// Analyze measures how well the raters of t agree, as `evalbook agree`
// does: the statistic of opt.Metric (Cohen's kappa over the items both
// raters rated, Fleiss' kappa, or Krippendorff's alpha) with its observed
// and chance agreement, a percentile bootstrap interval over items, the
// confusion matrix when there are two raters, and every item on which
// the raters disagree, to adjudicate (disagreements with the same
// ratings share one Ratings map: read it, do not change it).
//
// Each statistic is computed in one pass over the items, and its
// bootstrap resamples tables of counts rather than items (see
// BootstrapKappa and BootstrapAlpha), so that a million items take about
// a second.
//
// Warnings carry the codes of this package (CodeFewItems and the other
// Warn constants). Their messages name the options by the command's
// flags (--weights, --level, --order), as the command prints them.
// Errors: those of Options.Validate; ErrNoItems for a table with no rows
// or no rated items; ErrOneLabel and the other errors of the statistics,
// prefixed with t.File; and a *ParseError at the cell of a rating that
// the interval or ratio level cannot use.
func Analyze(t *LabelTable, opt Options) (*results.RaterAgreement, error) {
	if err := opt.Validate(len(t.Raters)); err != nil {
		return nil, err
	}
	ct, err := t.coded()
	if err != nil {
		return nil, err
	}
	return analyze(ct, opt)
}

func analyze(t *codedTable, opt Options) (*results.RaterAgreement, error) {
	r, err := analyzeResult(t, opt)
	if err != nil {
		return nil, err
	}
	return r.Agreement(), nil
}

func analyzeResult(t *codedTable, opt Options) (*Result, error) {
	if opt.Confidence == 0 {
		opt.Confidence = 0.95
	}
	if opt.Resamples == 0 {
		opt.Resamples = 10000
	}
	if t.n == 0 {
		return nil, &noItemsError{t.file}
	}
	m := opt.Metric.For(len(t.raters))
	a := &analysis{opt: opt, tab: t, res: &results.RaterAgreement{Kind: "agree",
		Metric: m.String(), Raters: append([]string(nil), t.raters...),
		Confidence: opt.Confidence, Resamples: opt.Resamples, Seed: opt.Seed,
		Disagreements: []results.RaterDisagreement{}, Warnings: []results.Warning{},
	}}
	var err error
	switch m {
	case MetricKappa:
		err = a.kappa()
	case MetricFleiss:
		err = a.fleiss()
	case MetricAlpha:
		err = a.alpha()
	}
	if err != nil {
		return nil, err
	}
	buf := make([]uint32, len(t.raters))
	n := 0
	for i := range t.n {
		if disagree(t.row(i, buf)) {
			n++
		}
	}
	dis := make([]int, 0, n) // counted first: a quarter of a million rows, not grown
	for i := range t.n {
		if disagree(t.row(i, buf)) {
			dis = append(dis, i)
		}
	}
	return &Result{rep: a.res, tab: t, dis: dis}, nil
}

// disagree reports whether the present codes of a row (0 is missing)
// are not all the same.
func disagree(row []uint32) bool {
	var first uint32
	for _, c := range row {
		if c == 0 {
			continue
		}
		if first == 0 {
			first = c
		} else if c != first {
			return true
		}
	}
	return false
}

// analysis is one run of Analyze.
type analysis struct {
	opt Options
	tab *codedTable
	res *results.RaterAgreement
}

// addWarnings hands on a statistic's warnings with their codes and
// counts (see warn).
func (a *analysis) addWarnings(msgs []string, meta []warnMeta) {
	a.res.Warnings = append(a.res.Warnings, codedWarnings(msgs, meta)...)
}

// codedWarnings pairs a statistic's messages with their codes and counts.
func codedWarnings(msgs []string, meta []warnMeta) []results.Warning {
	var out []results.Warning
	for i, m := range msgs {
		w := results.Warning{Code: CodeAgree, Message: m}
		if i < len(meta) {
			w.Code, w.Count = meta[i].code, meta[i].count
		}
		out = append(out, w)
	}
	return out
}

// order returns the label order to hand a statistic: opt.Order, or else,
// for a statistic that uses the order of the labels (flag names the
// option that makes it do so, as the command spells it; "" for a
// statistic that ignores order) the default order of the distinct labels
// it uses made explicit, so that the statistic does not add its own
// warning about it. When that default is the alphabetical order of
// labels that are not all numbers (for a scale such as low, mid, high it
// is wrong, and the statistic with it), a warning says so, naming the
// flags.
func (a *analysis) order(flag string, distinct []string) []string {
	if a.opt.Order != nil || flag == "" {
		return a.opt.Order
	}
	labels := sortLabels(slices.Clone(distinct))
	if !allNumbers(labels) {
		a.res.Warnings = append(a.res.Warnings, results.Warning{Code: CodeOrderGuessed, Count: len(labels), Message: fmt.Sprintf(
			"%s needs the order of the labels, and without --order the labels (not all numbers) were taken alphabetically: %s; if that is not the order of the scale, pass it with --order (e.g. --order low,mid,high)",
			flag, strings.Join(labels, ", "))})
	}
	return labels
}

// maxWarnLines is how many lines a warning lists.
const maxWarnLines = 10

// pairCells counts, over the rows where the first two raters both gave a
// rating, each pair of codes: cells[(x−1)·L + y − 1] for L labels. It
// returns the number of such rows, and the lines (the first maxWarnLines)
// and number of the rows left out.
func (t *codedTable) pairCells() (cells []int, both int, skippedLines []int, skipped int) {
	l := len(t.labels)
	cells = make([]int, l*l)
	buf := make([]uint32, len(t.raters))
	for i := range t.n {
		r := t.row(i, buf)
		if r[0] == 0 || r[1] == 0 {
			if skipped < maxWarnLines {
				skippedLines = append(skippedLines, t.line(i))
			}
			skipped++
			continue
		}
		cells[int(r[0]-1)*l+int(r[1]-1)]++
		both++
	}
	return cells, both, skippedLines, skipped
}

// pairConfusion turns pairCells' counts into a Confusion in order (nil:
// the sorted labels used), with NewConfusion's error for a label that is
// not in the order (naming the first item, counted among the rows with
// both ratings, that holds one).
func (t *codedTable) pairConfusion(cells []int, order []string) (Confusion, error) {
	l := len(t.labels)
	used := make([]bool, l)
	for x := range l {
		for y := range l {
			if cells[x*l+y] > 0 {
				used[x], used[y] = true, true
			}
		}
	}
	var labels []string
	if order != nil {
		if err := checkOrder(order); err != nil {
			return Confusion{}, err
		}
		labels = slices.Clone(order)
	} else {
		for c, u := range used {
			if u {
				labels = append(labels, t.labels[c])
			}
		}
		labels = sortLabels(labels)
	}
	pos := make(map[string]int, len(labels))
	for i, s := range labels {
		pos[s] = i
	}
	for c, u := range used {
		if _, ok := pos[t.labels[c]]; u && !ok {
			return Confusion{}, t.notInOrder(pos, order)
		}
	}
	k := len(labels)
	flat := make([]int, k*k)
	for x := range l {
		for y := range l {
			if v := cells[x*l+y]; v > 0 {
				flat[pos[t.labels[x]]*k+pos[t.labels[y]]] += v
			}
		}
	}
	c := Confusion{Labels: labels, Counts: make([][]int, k)}
	for i := range k {
		c.Counts[i] = flat[i*k : (i+1)*k : (i+1)*k]
	}
	return c, nil
}

// notInOrder is encodePairs' error for the first rating, among the rows
// with both ratings, whose label is not in order (pos).
func (t *codedTable) notInOrder(pos map[string]int, order []string) error {
	item := 0
	buf := make([]uint32, len(t.raters))
	for i := range t.n {
		r := t.row(i, buf)
		if r[0] == 0 || r[1] == 0 {
			continue
		}
		for _, c := range r[:2] {
			if _, ok := pos[t.labels[c-1]]; !ok {
				return fmt.Errorf("agree: label %s of item %d is not in the given order %q", tabular.Quote(t.labels[c-1]), item+1, order)
			}
		}
		item++
	}
	return nil
}

func (a *analysis) kappa() error {
	t, res := a.tab, a.res
	cells, both, skippedLines, skipped := t.pairCells()
	if skipped > 0 {
		w := results.Warning{Code: CodeMissingRatings, Count: skipped, Lines: skippedLines}
		if skipped == 1 {
			w.Message = fmt.Sprintf("1 item lacks a rating from %s or %s and is left out (line %d)", t.raters[0], t.raters[1], skippedLines[0])
		} else {
			w.Message = fmt.Sprintf("%d items lack a rating from %s or %s and are left out (lines %s)", skipped, t.raters[0], t.raters[1], firstLines(skippedLines, skipped))
		}
		res.Warnings = append(res.Warnings, w)
	}
	if both == 0 {
		return fmt.Errorf("%s: %w", t.file, &noBothError{})
	}
	flag := ""
	if a.opt.Weights != Unweighted {
		flag = "--weights " + a.opt.Weights.String()
	}
	var distinct []string
	l := len(t.labels)
	for c := range l {
		for x := range l {
			if cells[c*l+x] > 0 || cells[x*l+c] > 0 {
				distinct = append(distinct, t.labels[c])
				break
			}
		}
	}
	order := a.order(flag, distinct)
	conf, err := t.pairConfusion(cells, order)
	if err != nil {
		return fmt.Errorf("%s: %w", t.file, err)
	}
	k := weightedKappa(conf, order, a.opt.Weights)
	iv, err := bootstrapKappaTable(conf.Counts, a.opt.Weights, a.opt.Resamples, a.opt.Confidence, a.opt.Seed)
	if err != nil {
		return fmt.Errorf("%s: %w", t.file, err)
	}
	if a.opt.Weights != Unweighted {
		res.Weights = a.opt.Weights.String()
	}
	res.N, res.Observed, res.Expected = k.N, k.Observed, k.Expected
	res.Kappa = &k.Kappa
	res.CILow, res.CIHigh = iv.Lo, iv.Hi
	res.Confusion = &results.RaterConfusion{Labels: k.Confusion.Labels, Rows: k.Confusion.Counts}
	a.addWarnings(k.Warnings, k.meta)
	a.addWarnings(iv.Warnings, iv.meta)
	return nil
}

// noBothError is the error for two raters with no item rated by both.
type noBothError struct{}

func (*noBothError) Error() string { return "no item has both ratings" }
func (*noBothError) Unwrap() error { return ErrNoItems }

// firstLines lists the line numbers (the first maxWarnLines of total),
// and how many more there are.
func firstLines(lines []int, total int) string {
	s := make([]string, min(len(lines), maxWarnLines))
	for i := range s {
		s[i] = strconv.Itoa(lines[i])
	}
	out := strings.Join(s, ", ")
	if total > maxWarnLines {
		out += fmt.Sprintf(" and %d more", total-maxWarnLines)
	}
	return out
}

func (a *analysis) fleiss() error {
	t, res := a.tab, a.res
	p := fleissPatterns(t)
	f, err := p.fleiss()
	if err != nil {
		return fmt.Errorf("%s: %w", t.file, err)
	}
	iv, err := p.bootstrapFleiss(f, a.opt.Resamples, a.opt.Confidence, a.opt.Seed)
	if err != nil {
		return fmt.Errorf("%s: %w", t.file, err)
	}
	res.N, res.Observed, res.Expected = f.Items, f.Observed, f.Expected
	res.FleissKappa = &f.Kappa
	res.CILow, res.CIHigh = iv.Lo, iv.Hi
	a.addWarnings(f.Warnings, f.meta)
	a.addWarnings(iv.Warnings, iv.meta)
	a.confusion()
	return nil
}

func (a *analysis) alpha() error {
	t, res := a.tab, a.res
	flag := ""
	if a.opt.Level == LevelOrdinal {
		flag = "--level ordinal"
	}
	order := a.order(flag, t.labels)
	al, d, err := krippendorffCoded(t, a.opt.Level, order)
	var ve *ValueError
	if errors.As(err, &ve) {
		return t.cellError(ve.code, fmt.Errorf("%s rated %s, which is %s", t.raters[ve.Rater], tabular.Quote(ve.Value), ve.Problem()))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", t.file, err)
	}
	iv, err := d.bootstrap(al, a.opt.Resamples, a.opt.Confidence, a.opt.Seed)
	if err != nil {
		return fmt.Errorf("%s: %w", t.file, err)
	}
	res.Level = a.opt.Level.String()
	res.N, res.Observed, res.Expected = al.Units, al.Agreement, al.ChanceAgreement
	res.Alpha = &al.Alpha
	res.ObservedDisagreement, res.ExpectedDisagreement = &al.Observed, &al.Expected
	res.CILow, res.CIHigh = iv.Lo, iv.Hi
	a.addWarnings(al.Warnings, al.meta)
	a.addWarnings(iv.Warnings, iv.meta)
	a.confusion()
	return nil
}

// confusion sets, for two raters, the confusion matrix over the items
// both rated (Fleiss' kappa and alpha; kappa has its own).
func (a *analysis) confusion() {
	if len(a.tab.raters) != 2 {
		return
	}
	cells, both, _, _ := a.tab.pairCells()
	if both == 0 {
		return
	}
	if c, err := a.tab.pairConfusion(cells, a.opt.Order); err == nil {
		a.res.Confusion = &results.RaterConfusion{Labels: c.Labels, Rows: c.Counts}
	}
}
