package sample

import (
	"strconv"

	"github.com/evalbook/evalbook/pkg/results"
)

// FromRow returns a scored row of a response table (what pkg/qa streams
// through qa.Options.Rows, a verdict file's row, a stored run's row) as a
// sample: the id column (or the row's line when there is none), the
// question, golden answer and response, the model and language columns in
// their fields, task as given (the dataset's name), every other input
// column a slice, and every metric's value. The sample owns its strings
// only as far as the row does: Clone the row first when rows are reused.
func FromRow(r *results.Row, task string) Sample {
	s := Sample{Task: task, Line: r.Line}
	for i, c := range r.Schema.Columns {
		v := r.Fields[i]
		switch c {
		case "id":
			s.SampleID = v
		case "question":
			s.Prompt, s.HasPrompt = v, true
		case "answer":
			s.Golden, s.HasGolden = v, true
		case "response":
			s.Response, s.HasResponse = v, true
		case SliceModel:
			s.Model = v
		case SliceLanguage:
			s.Language = v
		default:
			s.SetSlice(c, v)
		}
	}
	if s.SampleID == "" {
		s.SampleID = strconv.Itoa(r.Line)
	}
	s.Metrics = make([]Metric, 0, len(r.Values))
	for i, id := range r.Schema.Metrics {
		s.SetMetric(id, r.Values[i])
	}
	return s
}

// DefsOf gives the definitions of a row schema's metrics as evalbook
// computed them (pkg/qa's scoring of a response table).
func DefsOf(schema *results.RowSchema) []Def {
	defs := make([]Def, len(schema.Metrics))
	for i, id := range schema.Metrics {
		defs[i] = Def{Name: id, By: ByEvalbook, Source: "evalbook score", Graded: schema.Graded[i]}
	}
	return defs
}
