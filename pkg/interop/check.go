package interop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// Tolerance is how far a recomputed aggregate may be from the reported
// one and still match, when the harness does not round.
const Tolerance = 1e-9

// CheckReport is what Check found: for every (task, metric) the harness
// reported, the mean recomputed from its per-sample records beside the
// reported value. It is evalbook import --check's result.
type CheckReport struct {
	Kind    string `json:"kind"` // always "import_check"
	Format  string `json:"format"`
	Source  string `json:"source"`
	Version string `json:"version,omitempty"`
	// Records is the number of per-sample records read.
	Records int           `json:"records"`
	Tasks   []CheckedTask `json:"tasks"`
	// Skipped lists reported figures that were not recomputed, with why:
	// status "skipped" for a figure that is not a mean of per-sample
	// values (a group, a corpus metric, lm-eval's "N/A"), "unchecked" for
	// one that should have been and could not (no samples of it, a
	// reported value that is not a number).
	Skipped []SkippedTask `json:"skipped,omitempty"`
	// Status is the verdict: StatusMatch when every figure recomputed
	// matches from all the samples it covers and nothing the harness
	// reported went unchecked; StatusDiffers when a figure differs;
	// StatusPartial when a figure covers fewer samples than the harness
	// says, or a figure or file could not be checked; StatusUnchecked
	// when nothing could be checked (no samples, no comparable figure).
	Status string `json:"status"`
	// Message says the verdict in a sentence.
	Message string `json:"message"`
	// Incomplete lists what the files say is missing beyond the figures
	// (an EEE instance file with fewer rows than its total_rows).
	Incomplete []string          `json:"incomplete,omitempty"`
	Warnings   []results.Warning `json:"warnings,omitempty"`
}

// The statuses of a CheckReport and of each CheckedTask.
const (
	StatusMatch     = "match"
	StatusDiffers   = "differs"
	StatusPartial   = "partial"
	StatusUnchecked = "unchecked"
	// StatusSkipped marks a SkippedTask that is not a mean of per-sample
	// values, so there is nothing to recompute (it does not fail a check).
	StatusSkipped = "skipped"
)

// CheckedTask is one reported figure and its recomputation.
type CheckedTask struct {
	Model      string  `json:"model,omitempty"`
	Task       string  `json:"task"`
	Metric     string  `json:"metric"`
	N          int     `json:"n"`
	Recomputed float64 `json:"recomputed"`
	Reported   float64 `json:"reported"`
	// Match is true only when Status is StatusMatch.
	Match bool `json:"match"`
	// Tolerance is what the comparison allowed: 1e-9, or half a unit of
	// the harness's last rounded decimal.
	Tolerance float64 `json:"tolerance"`
	// How says how the figure was recomputed ("mean", "mean_stderr").
	How string `json:"how"`
	// Status is StatusMatch, StatusDiffers, or StatusPartial (n is below
	// what the harness says the figure covers).
	Status string `json:"status"`
	// ExpectedN is the number of samples the harness says the figure
	// covers (lm-eval's n-samples effective, inspect's completed_samples,
	// promptfoo's test counts, EEE's num_samples or total_rows); absent
	// when its files do not say, and then n cannot be compared.
	ExpectedN int `json:"expected_n,omitempty"`
	// Note says why the figure is partial or differs in n, or that n
	// could not be compared.
	Note string `json:"note,omitempty"`
	// rate says the figure is a mean of 0/1 values, a proportion the
	// page and the workbook show as a percentage (not in JSON).
	rate bool
}

// SkippedTask is a reported figure Check did not recompute.
type SkippedTask struct {
	Model  string `json:"model,omitempty"`
	Task   string `json:"task"`
	Metric string `json:"metric"`
	Reason string `json:"reason"`
	// Status is StatusSkipped (not a per-sample mean: nothing to check)
	// or StatusUnchecked (it should have been checked and was not).
	Status string `json:"status"`
}

// OK reports whether the check passed: every reported figure that is a
// mean of per-sample values was recomputed from all the samples it
// covers and matches (Status is StatusMatch).
func (c *CheckReport) OK() bool { return c.Status == StatusMatch }

type acc struct {
	n        int
	sum      float64
	mean, m2 float64 // Welford, for the standard error
	binary   bool    // every value so far is 0 or 1 (Summarize sets it)
	// nonBinary is set by add when a value is neither 0 nor 1: the
	// figure is not a rate (Check's table shows it as a number).
	nonBinary bool
	// nan is the first sample (in file order) whose value is NaN.
	nan *BadValue
}

func (a *acc) add(v float64) {
	a.nonBinary = a.nonBinary || v != 0 && v != 1
	a.n++
	a.sum += v
	d := v - a.mean
	a.mean += d / float64(a.n)
	a.m2 += d * (v - a.mean)
}

// Checker accumulates per-sample values for Check; Add takes samples as a
// reader streams them (Options.Each), so nothing is kept per sample.
type Checker struct {
	accs map[[3]string]*acc
	n    int
}

// NewChecker returns an empty Checker.
func NewChecker() *Checker { return &Checker{accs: map[[3]string]*acc{}} }

// Add counts one sample. A NaN value is not counted, and its place is
// kept: a reported figure of that metric cannot be recomputed from all
// its samples, and Report refuses it naming the first.
func (c *Checker) Add(s *Sample) error {
	c.n++
	for _, m := range s.Metrics {
		k := [3]string{s.Model, s.Task, m.Name}
		a := c.accs[k]
		if a == nil {
			a = &acc{}
			c.accs[k] = a
		}
		if math.IsNaN(m.Value) {
			if a.nan == nil {
				a.nan = &BadValue{Model: s.Model, Task: s.Task, Metric: m.Name, File: s.File, Line: s.Line, SampleID: s.SampleID, Field: m.Name, What: "NaN"}
			}
			continue
		}
		a.add(m.Value)
	}
	return nil
}

func earlier(a, b *BadValue) *BadValue {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case b.File < a.File || b.File == a.File && b.Line < a.Line:
		return b
	}
	return a
}

// merge adds o's counts to c (Chan et al.'s pairwise update of the
// mean and the sum of squared deviations).
func (c *Checker) merge(o *Checker) {
	c.n += o.n
	keys := make([][3]string, 0, len(o.accs))
	for k := range o.accs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0]+"\x00"+keys[i][1]+"\x00"+keys[i][2] < keys[j][0]+"\x00"+keys[j][1]+"\x00"+keys[j][2]
	})
	for _, k := range keys {
		b := o.accs[k]
		a := c.accs[k]
		if a == nil {
			cp := *b
			c.accs[k] = &cp
			continue
		}
		a.nan = earlier(a.nan, b.nan)
		n := a.n + b.n
		if n == 0 {
			continue
		}
		d := b.mean - a.mean
		a.m2 += b.m2 + d*d*float64(a.n)*float64(b.n)/float64(n)
		a.mean += d * float64(b.n) / float64(n)
		a.sum += b.sum
		a.n = n
	}
}

// Check reads the harness output at path, streaming its samples, and
// recomputes every aggregate the harness reported; see CheckRun.
func Check(ctx context.Context, path string, opt Options) (*CheckReport, error) {
	c := NewChecker()
	opt.Each = c.Add
	opt.NoText = true // the check needs only the metric values
	var mu sync.Mutex
	parts := map[[2]int]*Checker{}
	files := map[string]int{}
	opt.sinks = func(file string, block int) func(*Sample) error { // large JSONL files are parsed on all cores
		p := NewChecker()
		mu.Lock()
		f, ok := files[file]
		if !ok {
			f = len(files)
			files[file] = f
		}
		parts[[2]int{f, block}] = p
		mu.Unlock()
		return p.Add
	}
	run, err := Read(ctx, path, opt)
	if err != nil {
		return nil, err
	}
	idx := make([][2]int, 0, len(parts))
	for i := range parts {
		idx = append(idx, i)
	}
	sort.Slice(idx, func(i, j int) bool {
		return idx[i][0] < idx[j][0] || idx[i][0] == idx[j][0] && idx[i][1] < idx[j][1]
	})
	for _, i := range idx { // in file order, so the sums are the same on every run
		c.merge(parts[i])
	}
	return c.Report(run)
}

// CheckRun recomputes the aggregates of a run read whole. Its error is
// Report's: a value where a number belongs in a metric of a reported
// figure, naming the file, line and sample.
func CheckRun(run *Run) (*CheckReport, error) {
	c := NewChecker()
	for i := range run.Samples {
		_ = c.Add(&run.Samples[i])
	}
	c.n = max(c.n, run.Count)
	return c.Report(run)
}

// Report compares the accumulated means with run.Reported. A figure is
// recomputed as the mean of the task's per-sample values of that metric
// (the sample standard error over sqrt(n) for a reported stderr, as
// lm-eval's mean_stderr computes it); it matches within Tolerance, or
// within half a unit of the last decimal the harness rounds to, and only
// when n is the number of samples the harness says the figure covers
// (Aggregate.Expected) where it says one: fewer is StatusPartial ("10 of
// 5,000 samples"), more is StatusDiffers.
//
// A metric of a reported figure with a per-sample value that is not a
// number (a string, null, NaN; a list among numbers) is an error naming
// the file, line, sample and field: the figure cannot be recomputed from
// all its samples, and skipping the value would hide a false claim.
// A metric whose values are all lists (lm-eval's corpus metrics) and a
// group are skipped; a reported figure with no per-sample values, or
// reported as something else than a number, is unchecked.
func (c *Checker) Report(run *Run) (*CheckReport, error) {
	rep := &CheckReport{Kind: "import_check", Format: run.Format, Source: run.Source, Version: run.Version, Records: max(c.n, run.Count), Warnings: slices.Clone(run.Warnings), Incomplete: slices.Clone(run.Short)}
	opaque := map[[2]string]bool{}
	for _, o := range run.Opaque {
		opaque[o] = true
	}
	skip := func(a Aggregate, status, format string, args ...any) {
		rep.Skipped = append(rep.Skipped, SkippedTask{Model: a.Model, Task: a.Task, Metric: a.Metric, Status: status, Reason: fmt.Sprintf(format, args...)})
	}
	for _, b := range run.BadReported {
		a := Aggregate{Model: b.Model, Task: b.Task, Metric: b.Metric}
		if b.NA {
			skip(a, StatusSkipped, "the harness reported \"N/A\" (%s in %s): it could not aggregate the metric", b.Field, b.File)
			continue
		}
		skip(a, StatusUnchecked, "the reported value %s in %s is %s, not a number, so it cannot be compared: a harness writes its figures as numbers; correct the results file", b.Field, b.File, b.What)
	}
	for _, a := range run.Reported {
		if strings.HasPrefix(a.Filter, "group:") {
			skip(a, StatusSkipped, "a group: lm-eval aggregates it from its subtasks (%s), each checked on its own", strings.TrimPrefix(a.Filter, "group:"))
			continue
		}
		ac := c.accs[[3]string{a.Model, a.Task, a.Metric}]
		if a.Model == AllModels {
			ac = c.pooled(a.Task, a.Metric)
		}
		if ac == nil {
			ac = c.lookup(a)
		}
		bad, list := run.badFor(a)
		switch {
		case bad != nil:
			return nil, badValueError(bad, a)
		case list != nil && ac != nil && ac.n > 0:
			return nil, badValueError(list, a)
		case ac != nil && ac.nan != nil:
			return nil, badValueError(ac.nan, a)
		case opaque[[2]string{a.Task, a.Metric}] || list != nil:
			skip(a, StatusSkipped, "its per-sample values are lists, not numbers (a corpus metric aggregated over all samples at once)")
			continue
		}
		if ac == nil || ac.n == 0 {
			if run.Partial {
				continue
			}
			why := "no per-sample values of this metric in the samples read"
			if a.Expected > 0 {
				why = fmt.Sprintf("partial: 0 of %s samples (%s): %s", thousands(a.Expected), a.ExpectedFrom, why)
			}
			skip(a, StatusUnchecked, "%s", why)
			continue
		}
		tol := Tolerance
		if a.Rounding >= 0 {
			tol = 0.5*math.Pow(10, -float64(a.Rounding)) + Tolerance
		}
		status, note := nStatus(ac.n, a)
		mean := ac.sum / float64(ac.n)
		add := func(metric, how string, got, want float64) {
			st := status
			if st == StatusMatch && math.Abs(got-want) > tol {
				st = StatusDiffers
			}
			rep.Tasks = append(rep.Tasks, CheckedTask{Model: a.Model, Task: a.Task, Metric: metric, N: ac.n, Recomputed: got,
				Reported: want, Match: st == StatusMatch, Tolerance: tol, How: how, Status: st, ExpectedN: a.Expected, Note: note,
				rate: how == "mean" && !ac.nonBinary})
		}
		add(a.Metric, "mean", mean, a.Value)
		if a.HasStderr && ac.n > 1 {
			add(stderrName(a.Metric), "mean_stderr", math.Sqrt(ac.m2/float64(ac.n-1))/math.Sqrt(float64(ac.n)), a.Stderr)
		}
	}
	sort.SliceStable(rep.Tasks, func(i, j int) bool {
		x, y := rep.Tasks[i], rep.Tasks[j]
		if x.Model != y.Model {
			return x.Model < y.Model
		}
		if x.Task != y.Task {
			return x.Task < y.Task
		}
		return x.Metric < y.Metric
	})
	rep.verdict(run)
	return rep, nil
}

// nStatus compares the samples counted with the number the harness says
// the figure covers.
func nStatus(n int, a Aggregate) (status, note string) {
	switch {
	case a.Expected == 0:
		return StatusMatch, ""
	case n < a.Expected:
		return StatusPartial, fmt.Sprintf("partial: %s of %s samples (%s)", thousands(n), thousands(a.Expected), a.ExpectedFrom)
	case n > a.Expected:
		return StatusDiffers, fmt.Sprintf("%s samples, but the harness says the figure covers %s (%s)", thousands(n), thousands(a.Expected), a.ExpectedFrom)
	}
	return StatusMatch, ""
}

// verdict sets Status and Message from the figures.
func (c *CheckReport) verdict(run *Run) {
	var differs, partial int
	for _, t := range c.Tasks {
		switch t.Status {
		case StatusDiffers:
			differs++
		case StatusPartial:
			partial++
		}
	}
	unchecked := 0
	for _, s := range c.Skipped {
		if s.Status == StatusUnchecked {
			unchecked++
		}
	}
	switch {
	case c.Records == 0 || len(c.Tasks) == 0:
		c.Status = StatusUnchecked
		why := "no reported figure is a mean of per-sample values"
		switch {
		case c.Records == 0:
			why = "the output holds no per-sample records"
		case len(run.Reported) == 0 && len(run.BadReported) == 0 && run.Partial:
			why = "the log was still being written and reports no figures yet"
		case len(run.Reported) == 0 && len(run.BadReported) == 0:
			why = "the output reports no figures to compare the samples with"
		case unchecked > 0:
			why = "no reported figure could be recomputed from the samples read"
		}
		c.Message = "nothing could be checked: " + why
	case differs > 0:
		c.Status = StatusDiffers
		c.Message = fmt.Sprintf("%d of %d reported figures differ from the per-sample records", differs, len(c.Tasks))
	case partial > 0 || unchecked > 0 || len(c.Incomplete) > 0:
		c.Status = StatusPartial
		var parts []string
		if partial > 0 {
			parts = append(parts, fmt.Sprintf("%d of %d figures cover fewer samples than the harness says", partial, len(c.Tasks)))
		}
		if unchecked > 0 {
			parts = append(parts, fmt.Sprintf("%d reported figure(s) could not be checked", unchecked))
		}
		if len(c.Incomplete) > 0 {
			parts = append(parts, fmt.Sprintf("%d file(s) hold fewer records than stated", len(c.Incomplete)))
		}
		c.Message = "partial: " + strings.Join(parts, "; ")
	default:
		c.Status = StatusMatch
		c.Message = fmt.Sprintf("all %d reported figures agree with the per-sample records", len(c.Tasks))
		unknown := 0
		for _, t := range c.Tasks {
			if t.ExpectedN == 0 {
				unknown++
			}
		}
		if unknown > 0 {
			c.Message += fmt.Sprintf(" (%d of them from all the samples read: the %s output does not say how many samples they cover)", unknown, c.Format)
		} else {
			c.Message += ", each from all the samples it covers"
		}
	}
}

// thousands writes n with commas: 5,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// badFor returns the first bad per-sample value (not a list) and the
// first list value of the reported figure's metric, matching names as
// lookup does.
func (r *Run) badFor(a Aggregate) (bad, list *BadValue) {
	names := []string{a.Metric}
	if m, f, ok := strings.Cut(a.Metric, ","); ok && f == "none" {
		names = append(names, m)
	} else if !ok {
		names = append(names, a.Metric+",none")
	}
	for i := range r.BadValues {
		b := &r.BadValues[i]
		if b.Task != a.Task || !slices.Contains(names, b.Metric) || a.Model != AllModels && a.Model != "" && b.Model != "" && b.Model != a.Model {
			continue
		}
		if b.List {
			list = earlier(list, b)
		} else {
			bad = earlier(bad, b)
		}
	}
	return bad, list
}

// badValueError names the sample whose value stops the figure being
// recomputed.
func badValueError(b *BadValue, a Aggregate) error {
	why := "a figure recomputed without it would not be the harness's, and skipping it would hide a false claim"
	if b.List {
		why = "the metric's other values are numbers, so a list among them is not a corpus metric's pair"
	}
	file, line := recordAt(b.File, b.Line)
	return &tabular.ParseError{File: file, Line: line, Err: fmt.Errorf("%w: sample %q: %s is %s, not a number: the reported %s of task %s cannot be recomputed from all its samples (%s); correct or remove the record, then check again",
		ErrBadValue, b.SampleID, b.Field, b.What, a.Metric, a.Task, why)}
}

// ErrBadValue is matched by Check's error for a per-sample value that is
// not a number in a metric the harness reported a figure of.
var ErrBadValue = errors.New("a per-sample value is not a number")

// lookup finds the accumulator of a reported figure when the sample and
// result files name it differently: no model on one side, or "acc" for
// "acc,none".
func (c *Checker) lookup(a Aggregate) *acc {
	names := []string{a.Metric}
	if m, f, ok := strings.Cut(a.Metric, ","); ok && f == "none" {
		names = append(names, m)
	} else if !ok {
		names = append(names, a.Metric+",none")
	}
	for _, n := range names {
		for _, model := range []string{a.Model, ""} {
			if ac := c.accs[[3]string{model, a.Task, n}]; ac != nil {
				return ac
			}
		}
	}
	if a.Model == "" {
		var found *acc
		for k, ac := range c.accs {
			if k[1] == a.Task && slices.Contains(names, k[2]) {
				if found != nil {
					return nil // several models: ambiguous
				}
				found = ac
			}
		}
		return found
	}
	return nil
}

// pooled merges every model's accumulator of (task, metric).
func (c *Checker) pooled(task, metric string) *acc {
	var out *acc
	keys := make([][3]string, 0)
	for k := range c.accs {
		if k[1] == task && k[2] == metric {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i][0] < keys[j][0] })
	for _, k := range keys {
		a := c.accs[k]
		if out == nil {
			out = &acc{}
		}
		out.n += a.n
		out.sum += a.sum
		out.nonBinary = out.nonBinary || a.nonBinary
		out.nan = earlier(out.nan, a.nan)
	}
	return out
}

func stderrName(metric string) string {
	if m, f, ok := strings.Cut(metric, ","); ok {
		return m + "_stderr," + f
	}
	return metric + "_stderr"
}

// WriteText prints the figures side by side, then what was not
// recomputed, then the verdict.
func (c *CheckReport) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s output %s: %d per-sample records\n", c.Format, c.Source, c.Records)
	if len(c.Tasks) > 0 {
		fmt.Fprintf(&b, "\n%-28s %-36s %8s %14s %14s  %s\n", "task", "metric", "n", "recomputed", "reported", "")
		for _, t := range c.Tasks {
			mark := "ok"
			switch t.Status {
			case StatusDiffers:
				mark = fmt.Sprintf("DIFFERS by %.3g", t.Recomputed-t.Reported)
				if t.Note != "" {
					mark = "DIFFERS: " + t.Note
				}
			case StatusPartial:
				mark = "PARTIAL: " + strings.TrimPrefix(t.Note, "partial: ")
			}
			if t.Status != StatusMatch && t.Status != StatusDiffers && math.Abs(t.Recomputed-t.Reported) > t.Tolerance {
				mark += fmt.Sprintf(" (differs by %.3g)", t.Recomputed-t.Reported)
			}
			task := t.Task
			if t.Model != "" && c.multiModel() {
				task = t.Model + " / " + t.Task
			}
			fmt.Fprintf(&b, "%-28s %-36s %8d %14.10f %14.10f  %s\n", task, t.Metric, t.N, t.Recomputed, t.Reported, mark)
		}
		b.WriteByte('\n')
	}
	for _, s := range c.Skipped {
		label := "not recomputed"
		if s.Status == StatusUnchecked {
			label = "UNCHECKED"
		}
		fmt.Fprintf(&b, "%s: %s %s: %s\n", label, s.Task, s.Metric, s.Reason)
	}
	for _, s := range c.Incomplete {
		fmt.Fprintf(&b, "INCOMPLETE: %s\n", s)
	}
	for _, wn := range c.Warnings {
		fmt.Fprintf(&b, "warning (%s): %s\n", wn.Code, wn.Message)
	}
	fmt.Fprintf(&b, "%s\n", c.Message)
	_, err := io.WriteString(w, b.String())
	return err
}

func (c *CheckReport) multiModel() bool {
	for _, t := range c.Tasks {
		if t.Model != c.Tasks[0].Model {
			return true
		}
	}
	return false
}

// Tables gives the comparison as one table (and the skipped figures).
func (c *CheckReport) Tables() []results.Table {
	t := results.Table{Title: "Reported aggregates recomputed from per-sample records",
		Note: fmt.Sprintf("%s output %s, %d records; a figure matches within its tolerance", c.Format, results.DisplayName(c.Source), c.Records),
		Columns: []results.Column{{Name: "model"}, {Name: "task"}, {Name: "metric"}, {Name: "n", Kind: "number"},
			{Name: "recomputed", Kind: "number", PerRow: true}, {Name: "reported", Kind: "number", PerRow: true}, {Name: "match"},
			{Name: "status"}, {Name: "expected_n", Kind: "number"}, {Name: "note"}}}
	t.Note += "; status " + c.Status + ": " + c.Message
	for _, r := range c.Tasks {
		exp := ""
		if r.ExpectedN > 0 {
			exp = strconv.Itoa(r.ExpectedN)
		}
		t.Rows = append(t.Rows, []string{r.Model, r.Task, r.Metric, strconv.Itoa(r.N), ftoa(r.Recomputed), ftoa(r.Reported), results.YesNo(r.Match), r.Status, exp, r.Note})
		kind := results.KindNumber // a standard error, a mean of scores
		if r.rate {
			kind = results.KindRate // a mean of 0/1 values
		}
		t.RowKinds = append(t.RowKinds, kind)
	}
	out := []results.Table{t}
	if len(c.Skipped) > 0 {
		s := results.Table{Title: "Reported figures not recomputed", Columns: []results.Column{{Name: "model"}, {Name: "task"}, {Name: "metric"}, {Name: "status"}, {Name: "reason"}}}
		for _, r := range c.Skipped {
			s.Rows = append(s.Rows, []string{r.Model, r.Task, r.Metric, r.Status, r.Reason})
		}
		out = append(out, s)
	}
	return out
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// MarshalJSON keeps tasks an array (never null) so scripts can iterate.
func (c *CheckReport) MarshalJSON() ([]byte, error) {
	type plain CheckReport
	p := plain(*c)
	if p.Tasks == nil {
		p.Tasks = []CheckedTask{}
	}
	return json.Marshal(p)
}
