package interop

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/evalbook/evalbook/pkg/results"
)

// Tolerance is how far a recomputed aggregate may be from the reported
// one and still match, when the harness does not round.
const Tolerance = 1e-9

// CheckReport is what Check found: for every (task, metric) the harness
// reported, the mean recomputed from its per-sample records beside the
// reported value. It is evalbook import --check's result.
type CheckReport struct {
	Format  string `json:"format"`
	Source  string `json:"source"`
	Version string `json:"version,omitempty"`
	// Records is the number of per-sample records read.
	Records int           `json:"records"`
	Tasks   []CheckedTask `json:"tasks"`
	// Skipped lists reported figures that are not means of per-sample
	// values (groups, corpus metrics, stderr under a bootstrap), with why.
	Skipped  []SkippedTask     `json:"skipped,omitempty"`
	Warnings []results.Warning `json:"warnings,omitempty"`
}

// CheckedTask is one reported figure and its recomputation.
type CheckedTask struct {
	Model      string  `json:"model,omitempty"`
	Task       string  `json:"task"`
	Metric     string  `json:"metric"`
	N          int     `json:"n"`
	Recomputed float64 `json:"recomputed"`
	Reported   float64 `json:"reported"`
	Match      bool    `json:"match"`
	// Tolerance is what the comparison allowed: 1e-9, or half a unit of
	// the harness's last rounded decimal.
	Tolerance float64 `json:"tolerance"`
	// How says how the figure was recomputed ("mean", "mean_stderr").
	How string `json:"how"`
}

// SkippedTask is a reported figure Check did not recompute.
type SkippedTask struct {
	Model  string `json:"model,omitempty"`
	Task   string `json:"task"`
	Metric string `json:"metric"`
	Reason string `json:"reason"`
}

// OK reports whether every recomputed figure matches.
func (c *CheckReport) OK() bool {
	for _, t := range c.Tasks {
		if !t.Match {
			return false
		}
	}
	return true
}

type acc struct {
	n        int
	sum      float64
	mean, m2 float64 // Welford, for the standard error
}

func (a *acc) add(v float64) {
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

// Add counts one sample. NaN values (inspect's unscored samples) are left
// out of the means, as the harnesses leave them out.
func (c *Checker) Add(s *Sample) error {
	c.n++
	for _, m := range s.Metrics {
		if math.IsNaN(m.Value) {
			continue
		}
		k := [3]string{s.Model, s.Task, m.Name}
		a := c.accs[k]
		if a == nil {
			a = &acc{}
			c.accs[k] = a
		}
		a.add(m.Value)
	}
	return nil
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
		n := a.n + b.n
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
	return c.Report(run), nil
}

// CheckRun recomputes the aggregates of a run read whole.
func CheckRun(run *Run) *CheckReport {
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
// within half a unit of the last decimal the harness rounds to.
func (c *Checker) Report(run *Run) *CheckReport {
	rep := &CheckReport{Format: run.Format, Source: run.Source, Version: run.Version, Records: max(c.n, run.Count), Warnings: slices.Clone(run.Warnings)}
	opaque := map[[2]string]bool{}
	for _, o := range run.Opaque {
		opaque[o] = true
	}
	for _, a := range run.Reported {
		if strings.HasPrefix(a.Filter, "group:") {
			rep.Skipped = append(rep.Skipped, SkippedTask{a.Model, a.Task, a.Metric, "a group: lm-eval aggregates it from its subtasks (" + strings.TrimPrefix(a.Filter, "group:") + "), each checked on its own"})
			continue
		}
		if opaque[[2]string{a.Task, a.Metric}] {
			rep.Skipped = append(rep.Skipped, SkippedTask{a.Model, a.Task, a.Metric, "its per-sample values are not numbers (a corpus metric aggregated over all samples at once)"})
			continue
		}
		ac := c.accs[[3]string{a.Model, a.Task, a.Metric}]
		if a.Model == AllModels {
			ac = c.pooled(a.Task, a.Metric)
		}
		if ac == nil {
			ac = c.lookup(a)
		}
		if ac == nil {
			if run.Partial {
				continue
			}
			rep.Skipped = append(rep.Skipped, SkippedTask{a.Model, a.Task, a.Metric, "no per-sample values of this metric in the samples read"})
			continue
		}
		tol := Tolerance
		if a.Rounding >= 0 {
			tol = 0.5*math.Pow(10, -float64(a.Rounding)) + Tolerance
		}
		mean := ac.sum / float64(ac.n)
		rep.Tasks = append(rep.Tasks, CheckedTask{Model: a.Model, Task: a.Task, Metric: a.Metric, N: ac.n, Recomputed: mean,
			Reported: a.Value, Match: math.Abs(mean-a.Value) <= tol, Tolerance: tol, How: "mean"})
		if a.HasStderr && ac.n > 1 {
			se := math.Sqrt(ac.m2/float64(ac.n-1)) / math.Sqrt(float64(ac.n))
			rep.Tasks = append(rep.Tasks, CheckedTask{Model: a.Model, Task: a.Task, Metric: stderrName(a.Metric), N: ac.n, Recomputed: se,
				Reported: a.Stderr, Match: math.Abs(se-a.Stderr) <= tol, Tolerance: tol, How: "mean_stderr"})
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
	return rep
}

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
	}
	return out
}

func stderrName(metric string) string {
	if m, f, ok := strings.Cut(metric, ","); ok {
		return m + "_stderr," + f
	}
	return metric + "_stderr"
}

// WriteText prints the figures side by side, then what was skipped.
func (c *CheckReport) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s output %s: %d per-sample records\n", c.Format, c.Source, c.Records)
	if len(c.Tasks) == 0 {
		b.WriteString("no reported aggregate could be recomputed (the output has no aggregates, or none of them is a mean of per-sample values)\n")
	} else {
		fmt.Fprintf(&b, "\n%-28s %-36s %8s %14s %14s  %s\n", "task", "metric", "n", "recomputed", "reported", "")
		for _, t := range c.Tasks {
			mark := "ok"
			if !t.Match {
				mark = fmt.Sprintf("DIFFERS by %.3g", t.Recomputed-t.Reported)
			}
			task := t.Task
			if t.Model != "" && c.multiModel() {
				task = t.Model + " / " + t.Task
			}
			fmt.Fprintf(&b, "%-28s %-36s %8d %14.10f %14.10f  %s\n", task, t.Metric, t.N, t.Recomputed, t.Reported, mark)
		}
		bad := 0
		for _, t := range c.Tasks {
			if !t.Match {
				bad++
			}
		}
		if bad == 0 {
			fmt.Fprintf(&b, "\nall %d reported figures agree with the per-sample records\n", len(c.Tasks))
		} else {
			fmt.Fprintf(&b, "\n%d of %d reported figures differ from the per-sample records\n", bad, len(c.Tasks))
		}
	}
	for _, s := range c.Skipped {
		fmt.Fprintf(&b, "not recomputed: %s %s: %s\n", s.Task, s.Metric, s.Reason)
	}
	for _, wn := range c.Warnings {
		fmt.Fprintf(&b, "warning (%s): %s\n", wn.Code, wn.Message)
	}
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
		Note: fmt.Sprintf("%s output %s, %d records; a figure matches within its tolerance", c.Format, c.Source, c.Records),
		Columns: []results.Column{{Name: "model"}, {Name: "task"}, {Name: "metric"}, {Name: "n", Kind: "number"},
			{Name: "recomputed", Kind: "number"}, {Name: "reported", Kind: "number"}, {Name: "match"}}}
	for _, r := range c.Tasks {
		t.Rows = append(t.Rows, []string{r.Model, r.Task, r.Metric, strconv.Itoa(r.N), ftoa(r.Recomputed), ftoa(r.Reported), strconv.FormatBool(r.Match)})
	}
	out := []results.Table{t}
	if len(c.Skipped) > 0 {
		s := results.Table{Title: "Reported figures not recomputed", Columns: []results.Column{{Name: "model"}, {Name: "task"}, {Name: "metric"}, {Name: "reason"}}}
		for _, r := range c.Skipped {
			s.Rows = append(s.Rows, []string{r.Model, r.Task, r.Metric, r.Reason})
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
