package design

import (
	"fmt"
	"math"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// Measurement is a measured value of a plan metric and the number of cases
// it rests on.
type Measurement struct {
	Value float64
	N     int
}

// GateRow is one plan metric as the gate saw it.
type GateRow struct {
	Metric    string   `json:"metric"`
	Family    string   `json:"family"`
	Gate      string   `json:"gate"`
	Threshold *float64 `json:"threshold"`
	Direction string   `json:"direction"`
	Measured  bool     `json:"measured"`
	Value     *float64 `json:"value"` // null when not measured
	N         int      `json:"n"`
	// Pass is null when the metric was not measured or has no threshold.
	Pass *bool `json:"pass"`
}

// GateDecision is the plan's decision on one run: release or not, with
// the reasons (evalbook plan gate). It was called Verdict, a word that
// elsewhere means one row's metric value (score.Verdict) or a judge's
// decision on a pair (judge.Verdict).
type GateDecision struct {
	Kind    string    `json:"kind"` // always "plan_gate"
	Release bool      `json:"release"`
	Reasons []string  `json:"reasons"` // why not, empty on release
	Metrics []GateRow `json:"metrics"`
	// NotMeasured names the plan's metrics the run could not measure.
	NotMeasured []string `json:"not_measured"`
}

// Gate applies the plan to measured values (metric name to measurement).
// A measurement with N <= 0, or whose Value is NaN or infinite, counts as
// not measured (for a blocking metric the reason says which). Release
// needs all of: the plan has no Problems; every metric is valid (see
// Metric.Validate; an invalid metric is reported, never applied); every
// blocking metric was measured; and every measured blocking metric passes
// its threshold. Reasons lists each unmet condition in the plan's order.
// Report-gate metrics are shown but never block; a value is never guessed
// for a metric the run cannot measure.
func (p *Plan) Gate(measured map[string]Measurement) GateDecision {
	v := GateDecision{Kind: "plan_gate", Reasons: []string{}, Metrics: []GateRow{}, NotMeasured: []string{}}
	for _, prob := range p.Problems() {
		v.Reasons = append(v.Reasons, "plan problem: "+prob)
	}
	for _, m := range p.Metrics {
		dir := m.Direction
		if dir == "" {
			dir = "min"
		}
		row := GateRow{Metric: m.Name, Family: m.Family, Gate: m.Gate, Threshold: m.Threshold, Direction: dir}
		var invalid []string
		for _, fe := range m.Validate() {
			invalid = append(invalid, fe.Error())
		}
		if len(invalid) > 0 {
			v.Reasons = append(v.Reasons, fmt.Sprintf("metric %s is invalid (%s), so the plan cannot gate on it", tabular.Quote(m.Name), strings.Join(invalid, "; ")))
		}
		meas, ok := measured[m.Name]
		finite := !math.IsNaN(meas.Value) && !math.IsInf(meas.Value, 0)
		switch {
		case ok && meas.N > 0 && finite:
			val := meas.Value
			row.Measured, row.Value, row.N = true, &val, meas.N
			if m.Threshold != nil && len(invalid) == 0 {
				pass := m.Passes(val)
				row.Pass = &pass
				if !pass && m.Gate == "block" {
					word := "below"
					if dir == "max" {
						word = "above"
					}
					v.Reasons = append(v.Reasons, fmt.Sprintf("%s %.3f (n=%d) is %s its blocking threshold %g",
						m.Name, val, meas.N, word, *m.Threshold))
				}
			}
		case ok && meas.N > 0:
			v.NotMeasured = append(v.NotMeasured, m.Name)
			if m.Gate == "block" {
				v.Reasons = append(v.Reasons, fmt.Sprintf("blocking metric %s has no valid measurement: its value %v (n=%d) is not a finite number",
					m.Name, meas.Value, meas.N))
			}
		default:
			v.NotMeasured = append(v.NotMeasured, m.Name)
			if m.Gate == "block" {
				v.Reasons = append(v.Reasons, fmt.Sprintf("blocking metric %s was not measured by this run", m.Name))
			}
		}
		v.Metrics = append(v.Metrics, row)
	}
	v.Release = len(v.Reasons) == 0
	return v
}

// Verdict is the old name of GateDecision.
//
// Deprecated: use GateDecision.
type Verdict = GateDecision
