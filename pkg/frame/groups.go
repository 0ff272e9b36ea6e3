package frame

import (
	"fmt"
	"slices"
	"sort"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// Groups returns the figures of one grouping of s (by is a value of
// results.Group.By; "" for the combined figures alone) as a DataFrame:
// columns group, n, blank, empty_golden, then per metric <id>_correct,
// <id>_accuracy, <id>_ci_low, <id>_ci_high; one row per group in the
// result's order, and a last row "combined" for all rows.
func Groups(s *results.Score, by string) (dataframe.DataFrame, error) {
	var rows []results.Group
	for _, g := range s.Groups {
		if g.By == by {
			rows = append(rows, g)
		}
	}
	if len(rows) == 0 && by != "" {
		return dataframe.DataFrame{}, fmt.Errorf("frame: the result has no grouping %q", by)
	}
	comb := s.Combined
	comb.Group = "combined"
	rows = append(rows, comb)
	names := make([]string, len(rows))
	n, blank, empty := make([]int, len(rows)), make([]int, len(rows)), make([]int, len(rows))
	for i, g := range rows {
		names[i], n[i], blank[i], empty[i] = g.Group, g.N, g.Blank, g.EmptyGolden
	}
	cols := []series.Series{
		series.New(names, series.String, "group"),
		series.New(n, series.Int, "n"),
		series.New(blank, series.Int, "blank"),
		series.New(empty, series.Int, "empty_golden"),
	}
	for _, id := range s.Settings.Metrics {
		f := func(get func(results.MetricScore) float64) []float64 {
			out := make([]float64, len(rows))
			for i, g := range rows {
				out[i] = get(g.Metrics[id])
			}
			return out
		}
		cols = append(cols,
			series.New(f(func(m results.MetricScore) float64 { return m.Correct }), series.Float, id+"_correct"),
			series.New(f(func(m results.MetricScore) float64 { return m.Accuracy }), series.Float, id+"_accuracy"),
			series.New(f(func(m results.MetricScore) float64 { return m.CILow }), series.Float, id+"_ci_low"),
			series.New(f(func(m results.MetricScore) float64 { return m.CIHigh }), series.Float, id+"_ci_high"),
		)
	}
	df := dataframe.New(cols...)
	return df, df.Err
}

// Summarize computes, from a verdict DataFrame (ReadVerdicts), the rows
// per value of the group column and, per metric, the sum of verdicts
// (correct) and their mean (accuracy):
//
//	accuracy = (1/n) Σ verdict
//
// Groups are sorted by name; a last row "combined" covers all rows.
// Columns: group, n, then <id>_correct and <id>_accuracy per metric.
// It recomputes what evalbook score reports, from the rows, for a check
// or for a grouping the run did not ask for.
func Summarize(df dataframe.DataFrame, group string, metrics ...string) (dataframe.DataFrame, error) {
	if df.Err != nil {
		return df, df.Err
	}
	names := df.Names()
	if !slices.Contains(names, group) {
		return dataframe.DataFrame{}, fmt.Errorf("frame: no column %q", group)
	}
	keys := df.Col(group).Records()
	vals := make([][]float64, len(metrics))
	for i, m := range metrics {
		if !slices.Contains(names, m) {
			return dataframe.DataFrame{}, fmt.Errorf("frame: no column %q", m)
		}
		c := df.Col(m)
		if c.Type() != series.Float && c.Type() != series.Int {
			return dataframe.DataFrame{}, fmt.Errorf("frame: column %q is %s, not numeric (read it with ReadVerdicts and its metric ids)", m, c.Type())
		}
		vals[i] = c.Float()
	}
	type acc struct {
		n   int
		sum []float64
	}
	by := map[string]*acc{}
	all := &acc{sum: make([]float64, len(metrics))}
	for r, k := range keys {
		a := by[k]
		if a == nil {
			a = &acc{sum: make([]float64, len(metrics))}
			by[k] = a
		}
		a.n++
		all.n++
		for i := range metrics {
			a.sum[i] += vals[i][r]
			all.sum[i] += vals[i][r]
		}
	}
	order := make([]string, 0, len(by))
	for k := range by {
		order = append(order, k)
	}
	sort.Strings(order)
	accs := make([]*acc, 0, len(order)+1)
	for _, k := range order {
		accs = append(accs, by[k])
	}
	accs = append(accs, all)
	order = append(order, "combined")
	n := make([]int, len(accs))
	for i, a := range accs {
		n[i] = a.n
	}
	cols := []series.Series{series.New(order, series.String, "group"), series.New(n, series.Int, "n")}
	for i, m := range metrics {
		correct, accuracy := make([]float64, len(accs)), make([]float64, len(accs))
		for j, a := range accs {
			correct[j] = a.sum[i]
			if a.n > 0 {
				accuracy[j] = a.sum[i] / float64(a.n)
			}
		}
		cols = append(cols, series.New(correct, series.Float, m+"_correct"), series.New(accuracy, series.Float, m+"_accuracy"))
	}
	out := dataframe.New(cols...)
	return out, out.Err
}
