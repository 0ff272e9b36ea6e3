package harness

import "github.com/evalbook/evalbook/pkg/design"

// RunCases copies case records into the runner's case type.
func RunCases(cases []design.Case) []RunCase {
	out := make([]RunCase, len(cases))
	for i, c := range cases {
		out[i] = RunCase{ID: c.ID, Question: c.Question, Task: c.Task, Set: c.Set,
			Lang: c.Lang, Expect: c.Expect, DocIDs: c.DocIDs, Facts: c.Facts}
	}
	return out
}

// Dataset turns case records into an answer-or-abstain dataset for
// Summarize: slice names the case field used as the slice (task, set or
// lang), and an answer case's fact key is its facts joined by FactKey.
func Dataset(cases []design.Case, slice string) []Case {
	out := make([]Case, len(cases))
	for i, c := range cases {
		out[i] = Case{ID: c.ID, Slice: c.Field(slice), Expected: c.Expect}
		if c.Expect == KindAnswer {
			k := FactKey(c.Facts)
			out[i].Fact = &k
		}
	}
	return out
}

// Outcomes turns run rows into Summarize's results: an answer carries the
// fact key of the facts it contains (RunRow.Fact).
func Outcomes(rows []RunRow) map[string]Outcome {
	out := make(map[string]Outcome, len(rows))
	for _, r := range rows {
		o := Outcome{Kind: r.Outcome}
		if r.Outcome == KindAnswer {
			o.Fact = r.Fact
		}
		out[r.ID] = o
	}
	return out
}

// PassVector returns 1 for each passing row and 0 otherwise, in row order:
// the form stats.Paired and the bootstrap take.
func PassVector(rows []RunRow) []float64 {
	v := make([]float64, len(rows))
	for i, r := range rows {
		if r.Pass {
			v[i] = 1
		}
	}
	return v
}

// Passed counts the passing rows.
func Passed(rows []RunRow) int {
	n := 0
	for _, r := range rows {
		if r.Pass {
			n++
		}
	}
	return n
}

// Measurements returns what Measure measures, in the form design's
// Plan.Gate takes.
func Measurements(rows []RunRow) map[string]design.Measurement {
	out := map[string]design.Measurement{}
	for name, r := range Measure(rows) {
		out[name] = design.Measurement{Value: r.Value(), N: r.N}
	}
	return out
}
