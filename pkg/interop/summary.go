package interop

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
)

// Summary is what evalbook import prints without --check: the run read,
// per model and task the number of samples and each metric's mean.
type Summary struct {
	Kind     string            `json:"kind"` // always "import"
	Format   string            `json:"format"`
	Source   string            `json:"source"`
	Version  string            `json:"version,omitempty"`
	Model    string            `json:"model,omitempty"`
	Records  int               `json:"records"`
	Partial  bool              `json:"partial,omitempty"`
	Files    []string          `json:"files"`
	Tasks    []SummaryTask     `json:"tasks"`
	Reported int               `json:"reported"`
	Out      string            `json:"out,omitempty"`
	Warnings []results.Warning `json:"warnings,omitempty"`
}

// SummaryTask is one model's task.
type SummaryTask struct {
	Model   string          `json:"model,omitempty"`
	Task    string          `json:"task"`
	N       int             `json:"n"`
	Metrics []SummaryMetric `json:"metrics"`
}

// SummaryMetric is one metric's mean over the samples that have it
// (NaN values, unscored samples, left out).
type SummaryMetric struct {
	Name string  `json:"name"`
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	// CILow and CIHigh bound Mean at 95%: Wilson's interval when every
	// value is 0 or 1 (Interval "wilson"), else mean ± 1.96·sd/√n
	// ("normal"); both equal Mean ("none") for fewer than two values of
	// a graded metric.
	CILow    float64 `json:"ci_low"`
	CIHigh   float64 `json:"ci_high"`
	Interval string  `json:"interval"`
}

// SummaryConfidence is the level of Summary's intervals.
const SummaryConfidence = 0.95

// interval gives a's mean its interval (SummaryMetric's).
func (a *acc) interval() (lo, hi float64, method string) {
	mean := a.sum / float64(a.n)
	if a.binary {
		lo, hi = stats.Wilson(int(math.Round(a.sum)), a.n, SummaryConfidence)
		return lo, hi, "wilson"
	}
	if a.n < 2 {
		return mean, mean, "none"
	}
	z := stats.NormalQuantile(1 - (1-SummaryConfidence)/2)
	half := z * math.Sqrt(a.m2/float64(a.n-1)) / math.Sqrt(float64(a.n))
	return mean - half, mean + half, "normal"
}

// Summarize describes a run read whole.
func Summarize(run *Run) *Summary {
	sum := newSummarizer()
	for i := range run.Samples {
		sum.add(&run.Samples[i])
	}
	return sum.summary(run)
}

// summarizer adds up a Summary's figures a sample at a time, so a run
// given to Options.Each is summarized without being held.
type summarizer struct {
	tasks []SummaryTask
	idx   map[[2]string]int
	sums  []map[string]*acc
	n     int
}

func newSummarizer() *summarizer { return &summarizer{idx: map[[2]string]int{}} }

func (z *summarizer) add(sm *Sample) {
	z.n++
	k := [2]string{sm.Model, sm.Task}
	j, ok := z.idx[k]
	if !ok {
		j = len(z.tasks)
		z.idx[k] = j
		z.tasks = append(z.tasks, SummaryTask{Model: sm.Model, Task: sm.Task})
		z.sums = append(z.sums, map[string]*acc{})
	}
	z.tasks[j].N++
	for _, m := range sm.Metrics {
		if math.IsNaN(m.Value) {
			continue
		}
		a := z.sums[j][m.Name]
		if a == nil {
			a = &acc{binary: true}
			z.sums[j][m.Name] = a
		}
		a.add(m.Value)
		a.binary = a.binary && (m.Value == 0 || m.Value == 1)
	}
}

// summary is the Summary of run, whose samples were given to add.
func (z *summarizer) summary(run *Run) *Summary {
	s := &Summary{Kind: "import", Format: run.Format, Source: run.Source, Version: run.Version, Model: run.Model, Records: max(len(run.Samples), run.Count, z.n),
		Partial: run.Partial, Files: append([]string{}, run.Files...), Reported: len(run.Reported), Warnings: run.Warnings, Tasks: z.tasks}
	for j := range s.Tasks {
		names := make([]string, 0, len(z.sums[j]))
		for n := range z.sums[j] {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			a := z.sums[j][n]
			lo, hi, how := a.interval()
			s.Tasks[j].Metrics = append(s.Tasks[j].Metrics, SummaryMetric{Name: n, N: a.n, Mean: a.sum / float64(a.n), CILow: lo, CIHigh: hi, Interval: how})
		}
	}
	sort.SliceStable(s.Tasks, func(i, j int) bool {
		if s.Tasks[i].Model != s.Tasks[j].Model {
			return s.Tasks[i].Model < s.Tasks[j].Model
		}
		return s.Tasks[i].Task < s.Tasks[j].Task
	})
	if s.Tasks == nil {
		s.Tasks = []SummaryTask{}
	}
	return s
}

// WriteText prints the summary.
func (s *Summary) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s output %s", s.Format, s.Source)
	if s.Version != "" {
		fmt.Fprintf(&b, " (format version %s)", s.Version)
	}
	fmt.Fprintf(&b, ": %d per-sample records in %d file(s), %d reported figures\n", s.Records, len(s.Files), s.Reported)
	if s.Partial {
		b.WriteString("the log was still being written: what was flushed is read\n")
	}
	for _, t := range s.Tasks {
		name := t.Task
		if t.Model != "" {
			name = t.Model + " / " + t.Task
		}
		fmt.Fprintf(&b, "\n%s: %d samples\n", name, t.N)
		for _, m := range t.Metrics {
			fmt.Fprintf(&b, "  %-32s mean %.6f over %d\n", m.Name, m.Mean, m.N)
		}
	}
	if s.Out != "" {
		fmt.Fprintf(&b, "\nrows written to %s\n", s.Out)
	}
	for _, wn := range s.Warnings {
		fmt.Fprintf(&b, "warning (%s): %s\n", wn.Code, wn.Message)
	}
	if s.Reported > 0 {
		b.WriteString("\n(--check recomputes the reported figures from these records)\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Tables gives one row per model, task and metric.
func (s *Summary) Tables() []results.Table {
	t := results.Table{Title: "Imported per-sample records", Note: fmt.Sprintf("%s output %s, %d records; 95%% intervals: Wilson for 0/1 metrics, mean ± 1.96·sd/√n for others", s.Format, results.DisplayName(s.Source), s.Records),
		Columns: []results.Column{{Name: "model"}, {Name: "task"}, {Name: "samples", Kind: "number"}, {Name: "metric"}, {Name: "n", Kind: "number"}, {Name: "mean", Kind: "number", PerRow: true},
			{Name: "ci_low", Kind: "number", PerRow: true}, {Name: "ci_high", Kind: "number", PerRow: true}, {Name: "interval"}}}
	for _, tk := range s.Tasks {
		for _, m := range tk.Metrics {
			t.Rows = append(t.Rows, []string{tk.Model, tk.Task, strconv.Itoa(tk.N), m.Name, strconv.Itoa(m.N), ftoa(m.Mean), ftoa(m.CILow), ftoa(m.CIHigh), m.Interval})
			kind := results.KindNumber
			if m.Interval == "wilson" {
				kind = results.KindRate
			}
			t.RowKinds = append(t.RowKinds, kind)
		}
	}
	return append([]results.Table{t}, results.WarningTable(s.Warnings)...)
}
