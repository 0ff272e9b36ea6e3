// Package design holds the parts of an evaluation that come before any
// score: the written plan (what can fail, what each failure costs, which
// metric shows it and whether it blocks a release), the case records with
// their taxonomy, the coverage matrix, the dataset hash, the dev/holdout
// split and the leakage check.
//
// Everything here is deterministic: the same input gives the same bytes,
// maps are read in sorted order, and the split uses SHA-256 of a salt and
// the case id, never a random source.
package design

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// The allowed values of a plan's enumerated fields.
var (
	Costs      = []string{"high", "medium", "low"}
	Families   = []string{"retrieval", "groundedness", "correctness", "format", "tool_use"}
	Gates      = []string{"block", "report"}
	Directions = []string{"min", "max"}
)

// Plan is an evaluation plan kept as data: the task, what can go wrong and
// at what cost, the metric that shows each failure, how each metric gates a
// release, the dataset it is measured on and the release rule in words.
type Plan struct {
	Task        string     `json:"task"`
	Failures    []Failure  `json:"failures"`
	Metrics     []Metric   `json:"metrics"`
	Dataset     DatasetRef `json:"dataset"`
	ReleaseRule string     `json:"release_rule"`
	// CaseValues adds allowed values of task, set and lang to
	// DefaultVocabulary for this plan's case records. Optional.
	CaseValues *Vocabulary `json:"case_values,omitempty"`
}

// Failure is one way the system can fail, its cost, and the metric that
// shows it.
type Failure struct {
	Name   string `json:"name"`
	Cost   string `json:"cost"`   // high, medium or low
	Metric string `json:"metric"` // the name of one of the plan's metrics
}

// Metric is one measured quantity and how it gates a release.
type Metric struct {
	Name   string `json:"name"`
	Family string `json:"family"` // retrieval, groundedness, correctness, format or tool_use
	Gate   string `json:"gate"`   // block or report
	// Threshold is the value the metric must reach; nil when absent. A
	// blocking metric needs one (Problems says so when it is missing).
	Threshold *float64 `json:"threshold,omitempty"`
	// Direction says which side of the threshold passes: "min" (the
	// value must be at least the threshold, the default when empty) or
	// "max" (at most).
	Direction string `json:"direction,omitempty"`
}

// DatasetRef names the dataset a plan is measured on.
type DatasetRef struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

var planSchema = schema{
	"":            {"task", "failures", "metrics", "dataset", "release_rule", "case_values"},
	"failures[]":  {"name", "cost", "metric"},
	"metrics[]":   {"name", "family", "gate", "threshold", "direction"},
	"dataset":     {"name", "version"},
	"case_values": {"task", "set", "lang"},
}

// The range of a metric threshold. Every metric family of a plan is
// measured as a rate or share of cases (answer_correct, recall_at_3,
// format_ok ...), so a threshold outside [0, 1] (1.8 typed for 0.8, or 80
// for 80%) could never be met, or never be missed.
const (
	MinThreshold = 0.0
	MaxThreshold = 1.0
)

// ReadPlan reads one plan from r; file names the input in errors. Decoding
// is strict: an empty input, text that is not UTF-8 (see BadText), unknown
// or repeated fields, wrong types, values outside the allowed lists, a
// threshold outside [MinThreshold, MaxThreshold], empty names and repeated
// failure or metric names are errors that name the field, its line and its
// column. A plan larger than tabular.FileLimit() (1 GiB, --max-file-mib)
// is refused unread. Gaps in the design
// (a high-cost failure nobody guards) are not errors: see Problems.
func ReadPlan(r io.Reader, file string) (*Plan, error) {
	data, err := tabular.ReadAll(r, file, 0)
	if err != nil {
		return nil, err
	}
	data = trimBOM(data)
	if len(bytes.TrimSpace(data)) == 0 {
		what := "the file is empty"
		if len(data) > 0 {
			what = "the file has only blank lines"
		}
		return nil, &ParseError{File: file, Err: fmt.Errorf("no plan (%s); want one JSON object", what)}
	}
	if off, terr := BadText(data); terr != nil {
		return nil, textError(file, data, 0, off, terr, planSchema)
	}
	var p Plan
	doc, err := parseStrict(data, planSchema, &p)
	if err != nil {
		return nil, toParseError(file, data, 0, err)
	}
	var errs ErrorList
	add := func(field string, format string, a ...any) {
		line, col := lineCol(data, max(doc.at(field), 0))
		errs = append(errs, &ParseError{File: file, Line: line, Column: col, Field: field, Err: fmt.Errorf(format, a...)})
	}
	need := func(field, value string) {
		if strings.TrimSpace(value) == "" {
			add(field, "must not be empty")
		}
	}
	oneOf := func(field, value string, allowed []string) {
		if !contains(allowed, value) {
			add(field, "%s is not one of %s", tabular.Quote(value), strings.Join(allowed, ", "))
		}
	}
	need("task", p.Task)
	need("dataset.name", p.Dataset.Name)
	need("dataset.version", p.Dataset.Version)
	need("release_rule", p.ReleaseRule)
	if len(p.Failures) == 0 {
		add("failures", "must list at least one failure")
	}
	if len(p.Metrics) == 0 {
		add("metrics", "must list at least one metric")
	}
	seen := map[string]bool{}
	for i, f := range p.Failures {
		at := "failures[" + strconv.Itoa(i) + "]"
		need(at+".name", f.Name)
		if f.Name != "" && seen[f.Name] {
			add(at+".name", "failure %s is listed twice", tabular.Quote(f.Name))
		}
		seen[f.Name] = true
		oneOf(at+".cost", f.Cost, Costs)
		need(at+".metric", f.Metric)
	}
	seen = map[string]bool{}
	for i, m := range p.Metrics {
		at := "metrics[" + strconv.Itoa(i) + "]"
		fes := m.Validate()
		if len(fes) > 0 && fes[0].Field == "name" {
			add(at+".name", "%w", fes[0].Err)
			fes = fes[1:]
		}
		if m.Name != "" && seen[m.Name] {
			add(at+".name", "metric %s is listed twice", tabular.Quote(m.Name))
		}
		seen[m.Name] = true
		for _, fe := range fes {
			add(at+"."+fe.Field, "%w", fe.Err)
		}
	}
	if p.CaseValues != nil {
		for _, fv := range []struct {
			name string
			vals []string
		}{{"task", p.CaseValues.Task}, {"set", p.CaseValues.Set}, {"lang", p.CaseValues.Lang}} {
			for i, v := range fv.vals {
				if strings.TrimSpace(v) == "" || v != strings.TrimSpace(v) {
					add(fmt.Sprintf("case_values.%s[%d]", fv.name, i), "must be a non-empty value without surrounding spaces")
				}
			}
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return &p, nil
}

// Vocabulary returns the allowed case values for this plan: the defaults
// extended by the plan's case_values.
func (p *Plan) Vocabulary() Vocabulary {
	if p == nil || p.CaseValues == nil {
		return DefaultVocabulary
	}
	return DefaultVocabulary.Extend(*p.CaseValues)
}

// Metric returns the plan's metric with the given name.
func (p *Plan) Metric(name string) (Metric, bool) {
	for _, m := range p.Metrics {
		if m.Name == name {
			return m, true
		}
	}
	return Metric{}, false
}

// Problems lists what the plan leaves unguarded, in this order (and, inside
// each kind, in the order the plan lists its metrics and failures):
//
//  1. blocking metric "<name>" has no threshold
//  2. failure "<name>" names unknown metric "<metric>"
//  3. no correctness metric
//  4. no groundedness metric
//  5. high-cost failure <name> is not guarded by a blocking metric
//
// A failure is guarded when the metric it names exists and has gate
// "block". The result is empty, not nil, for a plan with no problems.
func (p *Plan) Problems() []string {
	out := []string{}
	for _, m := range p.Metrics {
		if m.Gate == "block" && m.Threshold == nil {
			out = append(out, fmt.Sprintf("blocking metric %s has no threshold", tabular.Quote(m.Name)))
		}
	}
	for _, f := range p.Failures {
		if _, ok := p.Metric(f.Metric); !ok {
			out = append(out, fmt.Sprintf("failure %s names unknown metric %s", tabular.Quote(f.Name), tabular.Quote(f.Metric)))
		}
	}
	for _, fam := range []string{"correctness", "groundedness"} {
		found := false
		for _, m := range p.Metrics {
			found = found || m.Family == fam
		}
		if !found {
			out = append(out, "no "+fam+" metric")
		}
	}
	for _, f := range p.Failures {
		m, ok := p.Metric(f.Metric)
		if f.Cost == "high" && (!ok || m.Gate != "block") {
			out = append(out, fmt.Sprintf("high-cost failure %s is not guarded by a blocking metric", f.Name))
		}
	}
	return out
}

// Validate returns every rule m breaks, in field order (name, family,
// gate, direction, threshold), each naming its member; nil when m is
// valid. The rules are ReadPlan's: a non-blank name; family one of
// Families; gate one of Gates; direction empty or one of Directions; a
// threshold, when present, finite and within [MinThreshold,
// MaxThreshold]. Plan.Gate applies no invalid metric.
func (m Metric) Validate() []*FieldError {
	var out []*FieldError
	add := func(field, format string, a ...any) {
		out = append(out, &FieldError{field, fmt.Errorf(format, a...)})
	}
	if strings.TrimSpace(m.Name) == "" {
		add("name", "must not be empty")
	}
	for _, f := range []struct {
		name, val string
		allowed   []string
	}{{"family", m.Family, Families}, {"gate", m.Gate, Gates}, {"direction", m.Direction, Directions}} {
		if !contains(f.allowed, f.val) && !(f.name == "direction" && f.val == "") {
			add(f.name, "%s is not one of %s", tabular.Quote(f.val), strings.Join(f.allowed, ", "))
		}
	}
	switch th := m.Threshold; {
	case th == nil:
	case math.IsNaN(*th) || math.IsInf(*th, 0):
		add("threshold", "must be a finite number")
	case *th < MinThreshold || *th > MaxThreshold:
		add("threshold", "%g is outside [%g, %g]: a plan metric is a rate or share, so no run could measure that", *th, MinThreshold, MaxThreshold)
	}
	return out
}

// Passes reports whether value meets the metric's threshold in its
// direction (value >= threshold for "min" or "", value <= threshold for
// "max"). A metric without a threshold passes any value. With a
// threshold, Passes fails closed on what it cannot judge: it is false for
// a NaN value and for a Direction other than "", "min" and "max" (Validate
// reports that direction; ReadPlan refuses it, and Plan.Gate reports such
// a metric as invalid rather than calling Passes).
func (m Metric) Passes(value float64) bool {
	if m.Threshold == nil {
		return true
	}
	switch m.Direction {
	case "", "min":
		return value >= *m.Threshold
	case "max":
		return value <= *m.Threshold
	}
	return false
}

func toParseError(file string, data []byte, lineOffset int, err error) error {
	var oe *offsetError
	if errors.As(err, &oe) {
		line, col := lineCol(data, oe.off)
		return &ParseError{File: file, Line: line + lineOffset, Column: col, Field: oe.field, Err: oe.err}
	}
	return &ParseError{File: file, Err: err}
}

func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}
