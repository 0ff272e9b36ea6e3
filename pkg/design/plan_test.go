package design

import (
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
)

func readPlanFile(t *testing.T, name string) *Plan {
	t.Helper()
	f, err := os.Open("../../datasets/helpdesk/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := ReadPlan(f, name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The lesson (seed 003, SPEC.md section 3): the example plan has no
// problems; demoting abstain_correct to report gives exactly one, with this
// message.
func TestPlanExample(t *testing.T) {
	p := readPlanFile(t, "plan_v1.json")
	if got := p.Problems(); len(got) != 0 {
		t.Errorf("plan_v1 problems = %q, want none", got)
	}
	if len(p.Failures) != 5 {
		t.Errorf("plan_v1 has %d failures, want the five of SPEC.md", len(p.Failures))
	}
	weak := readPlanFile(t, "plan_weak.json")
	want := []string{"high-cost failure answer given when the documents are silent is not guarded by a blocking metric"}
	if got := weak.Problems(); !reflect.DeepEqual(got, want) {
		t.Errorf("plan_weak problems = %q, want %q", got, want)
	}
	// The same demotion done in code, as the lesson does it.
	for i := range p.Metrics {
		if p.Metrics[i].Name == "abstain_correct" {
			p.Metrics[i].Gate = "report"
		}
	}
	if got := p.Problems(); !reflect.DeepEqual(got, want) {
		t.Errorf("demoted in code: problems = %q, want %q", got, want)
	}
}

func TestPlanProblemsOrder(t *testing.T) {
	th := 0.9
	p := &Plan{
		Failures: []Failure{
			{Name: "wrong fact", Cost: "high", Metric: "answer_ok"},
			{Name: "bad cite", Cost: "medium", Metric: "cites"},
			{Name: "silent docs", Cost: "high", Metric: "abstain_ok"},
		},
		Metrics: []Metric{
			{Name: "answer_ok", Family: "retrieval", Gate: "block"},
			{Name: "abstain_ok", Family: "format", Gate: "report", Threshold: &th},
		},
	}
	want := []string{
		`blocking metric "answer_ok" has no threshold`,
		`failure "bad cite" names unknown metric "cites"`,
		"no correctness metric",
		"no groundedness metric",
		"high-cost failure silent docs is not guarded by a blocking metric",
	}
	if got := p.Problems(); !reflect.DeepEqual(got, want) {
		t.Errorf("Problems() =\n%q\nwant\n%q", got, want)
	}
	// A high-cost failure naming an unknown metric is unguarded too.
	p.Failures = []Failure{{Name: "x", Cost: "high", Metric: "nope"}}
	p.Metrics = []Metric{{Name: "a", Family: "correctness", Gate: "report"}, {Name: "b", Family: "groundedness", Gate: "report"}}
	want = []string{`failure "x" names unknown metric "nope"`, "high-cost failure x is not guarded by a blocking metric"}
	if got := p.Problems(); !reflect.DeepEqual(got, want) {
		t.Errorf("Problems() = %q, want %q", got, want)
	}
}

func TestReadPlanErrors(t *testing.T) {
	const good = `{"task":"t","failures":[{"name":"f","cost":"high","metric":"m"}],` +
		`"metrics":[{"name":"m","family":"correctness","gate":"block","threshold":0.9}],` +
		`"dataset":{"name":"d","version":"1"},"release_rule":"r"}`
	if _, err := ReadPlan(strings.NewReader(good), "p.json"); err != nil {
		t.Fatalf("good plan: %v", err)
	}
	tests := []struct {
		name, in, want string
	}{
		// Columns counted by hand (python3 str.index + 1 gives the same).
		{"unknown top field", strings.Replace(good, `"task":"t"`, `"task":"t","owner":"me"`, 1),
			`p.json:1:13: unknown field "owner"`},
		{"unknown nested field", strings.Replace(good, `"threshold":0.9`, `"thresh":0.9`, 1),
			`p.json:1:127 (column "metrics[0].thresh"): unknown field "thresh"`},
		{"duplicate member", strings.Replace(good, `"task":"t"`, `"task":"t","task":"u"`, 1),
			`p.json:1:13 (column "task"): duplicate member name`},
		{"bad cost", strings.Replace(good, `"cost":"high"`, `"cost":"huge"`, 1),
			`p.json:1:44 (column "failures[0].cost"): "huge" is not one of high, medium, low`},
		{"bad gate", strings.Replace(good, `"gate":"block"`, `"gate":"blocking"`, 1),
			`(column "metrics[0].gate"): "blocking" is not one of block, report`},
		{"bad direction", strings.Replace(good, `"threshold":0.9`, `"threshold":0.9,"direction":"up"`, 1),
			`(column "metrics[0].direction"): "up" is not one of min, max`},
		{"wrong type", strings.Replace(good, `"threshold":0.9`, `"threshold":"high"`, 1),
			`(column "metrics[0].threshold"): want a number, got a JSON string`},
		{"empty task", strings.Replace(good, `"task":"t"`, `"task":" "`, 1), `(column "task"): must not be empty`},
		{"missing dataset version", strings.Replace(good, `,"version":"1"`, ``, 1), `(column "dataset.version"): must not be empty`},
		{"repeated metric", strings.Replace(good, `"threshold":0.9}]`, `"threshold":0.9},{"name":"m","family":"format","gate":"report"}]`, 1),
			`(column "metrics[1].name"): metric "m" is listed twice`},
		{"trailing data", good + ` {}`, `unexpected data after the JSON object`},
		{"not an object", `[1]`, `p.json:1:1: want a JSON object`},
		{"syntax", `{"task": }`, `p.json:1:10: invalid character '}'`},
		{"truncated", `{"task": "t"`, `unexpected end of JSON input`},
		{"second line", "{\n  \"task\": \"t\",\n  \"bogus\": 1}", `p.json:3:3: unknown field "bogus"`},
		// A rate threshold of 1.8 (0.8 mistyped) could never be met.
		{"threshold above 1", strings.Replace(good, `"threshold":0.9`, `"threshold":1.8`, 1),
			`p.json:1:139 (column "metrics[0].threshold"): 1.8 is outside [0, 1]`},
		{"threshold below 0", strings.Replace(good, `"threshold":0.9`, `"threshold":-0.1`, 1),
			`(column "metrics[0].threshold"): -0.1 is outside [0, 1]`},
		// encoding/json reads both as U+FFFD; the plan must not pass as valid.
		// Column 10: the bad byte follows {"task":" (9 characters); on line
		// 2 it follows ` "task": "ok ` (13 characters).
		{"invalid UTF-8", strings.Replace(good, `"task":"t"`, "\"task\":\"\xff\"", 1),
			`p.json:1:10 (column "task"): invalid UTF-8: byte 0xFF is not part of a UTF-8 character`},
		{"invalid UTF-8 on line 2", "{\n \"task\": \"ok \xfe\"}", `p.json:2:14 (column "task"): invalid UTF-8: byte 0xFE`},
		{"lone surrogate escape", strings.Replace(good, `"task":"t"`, `"task":"\ud800"`, 1),
			`p.json:1:10 (column "task"): invalid UTF-8: the escape \ud800 is half of a UTF-16 surrogate pair`},
		{"empty file", "", `p.json: no plan (the file is empty)`},
		{"blank file", "\n \n", `p.json: no plan (the file has only blank lines)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadPlan(strings.NewReader(tc.in), "p.json")
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 && !strings.Contains(tc.want, "no plan") {
				t.Errorf("error %v carries no *ParseError with a line", err)
			}
		})
	}
}

func TestPlanVocabulary(t *testing.T) {
	in := `{"task":"t","failures":[{"name":"f","cost":"low","metric":"m"}],` +
		`"metrics":[{"name":"m","family":"correctness","gate":"report"}],` +
		`"dataset":{"name":"d","version":"1"},"release_rule":"r","case_values":{"lang":["hi"],"task":["lookup","table"]}}`
	p, err := ReadPlan(strings.NewReader(in), "p.json")
	if err != nil {
		t.Fatal(err)
	}
	v := p.Vocabulary()
	if want := []string{"en", "bn", "hi"}; !reflect.DeepEqual(v.Lang, want) {
		t.Errorf("lang = %q, want %q", v.Lang, want)
	}
	if want := append(append([]string(nil), DefaultVocabulary.Task...), "table"); !reflect.DeepEqual(v.Task, want) {
		t.Errorf("task = %q, want %q", v.Task, want)
	}
	if !reflect.DeepEqual(v.Set, DefaultVocabulary.Set) {
		t.Errorf("set = %q, want the defaults", v.Set)
	}
	var nilPlan *Plan
	if !reflect.DeepEqual(nilPlan.Vocabulary(), DefaultVocabulary) {
		t.Error("a nil plan should give the default vocabulary")
	}
}

func TestGate(t *testing.T) {
	p := readPlanFile(t, "plan_v1.json")
	check := func(name string, measured map[string]Measurement, release bool, reasons []string, notMeasured []string) {
		t.Helper()
		t.Run(name, func(t *testing.T) {
			v := p.Gate(measured)
			if v.Release != release || !reflect.DeepEqual(v.Reasons, reasons) || !reflect.DeepEqual(v.NotMeasured, notMeasured) {
				t.Errorf("Gate = release %v, reasons %q, not measured %q; want %v, %q, %q",
					v.Release, v.Reasons, v.NotMeasured, release, reasons, notMeasured)
			}
		})
	}
	others := []string{"citation_support", "recall_at_3", "format_ok"}
	// SPEC.md section 3: unanswerable 0.67 (4 of 6) under the 0.9 abstain threshold is no release.
	check("lesson figures", map[string]Measurement{"answer_correct": {25.0 / 25, 25}, "abstain_correct": {4.0 / 6, 6}},
		false, []string{"abstain_correct 0.667 (n=6) is below its blocking threshold 0.9"}, others)
	// Exactly at the threshold passes (direction min: value >= threshold).
	check("at threshold", map[string]Measurement{"answer_correct": {0.8, 10}, "abstain_correct": {0.9, 10}}, true, []string{}, others)
	check("blocking metric not measured", map[string]Measurement{"answer_correct": {1, 3}, "abstain_correct": {1, 0}},
		false, []string{"blocking metric abstain_correct was not measured by this run"}, []string{"abstain_correct", "citation_support", "recall_at_3", "format_ok"})
	// A NaN or infinite value is no measurement: it used to read "NaN
	// (n=10) is below its blocking threshold".
	check("NaN measurement", map[string]Measurement{"answer_correct": {1, 10}, "abstain_correct": {math.NaN(), 10}},
		false, []string{"blocking metric abstain_correct has no valid measurement: its value NaN (n=10) is not a finite number"},
		[]string{"abstain_correct", "citation_support", "recall_at_3", "format_ok"})
	check("infinite measurement", map[string]Measurement{"answer_correct": {math.Inf(1), 10}, "abstain_correct": {1, 10}},
		false, []string{"blocking metric answer_correct has no valid measurement: its value +Inf (n=10) is not a finite number"},
		[]string{"answer_correct", "citation_support", "recall_at_3", "format_ok"})
	check("negative n", map[string]Measurement{"answer_correct": {1, -1}, "abstain_correct": {1, 10}},
		false, []string{"blocking metric answer_correct was not measured by this run"},
		[]string{"answer_correct", "citation_support", "recall_at_3", "format_ok"})
	weak := readPlanFile(t, "plan_weak.json")
	v := weak.Gate(map[string]Measurement{"answer_correct": {1, 3}, "abstain_correct": {1, 3}})
	if v.Release || len(v.Reasons) != 1 || !strings.HasPrefix(v.Reasons[0], "plan problem: high-cost failure") {
		t.Errorf("a plan with a problem must not release: %+v", v)
	}
}

func TestMetricPasses(t *testing.T) {
	th := 0.1
	minM := Metric{Threshold: &th}
	maxM := Metric{Threshold: &th, Direction: "max"}
	explicitMin := Metric{Threshold: &th, Direction: "min"}
	up := Metric{Threshold: &th, Direction: "up"}
	for _, tc := range []struct {
		name string
		m    Metric
		v    float64
		want bool
	}{
		{"min at threshold", minM, 0.1, true}, {"min below", minM, 0.09, false},
		{"explicit min at threshold", explicitMin, 0.1, true},
		{"max at threshold", maxM, 0.1, true}, {"max above", maxM, 0.11, false},
		{"no threshold", Metric{}, -5, true},
		// Fails closed: an unknown direction used to be read as "min", so
		// 0.5 passed "up" 0.1.
		{"unknown direction above", up, 0.5, false}, {"unknown direction below", up, 0.05, false},
		{"NaN min", minM, math.NaN(), false}, {"NaN max", maxM, math.NaN(), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.m.Passes(tc.v); got != tc.want {
				t.Errorf("%+v.Passes(%v) = %v, want %v", tc.m, tc.v, got, tc.want)
			}
		})
	}
}

func TestMetricValidate(t *testing.T) {
	th, big, nan := 0.9, 80.0, math.NaN()
	for _, tc := range []struct {
		name string
		m    Metric
		want []string
	}{
		{"valid", Metric{Name: "m", Family: "correctness", Gate: "block", Threshold: &th}, nil},
		{"valid max", Metric{Name: "m", Family: "format", Gate: "report", Direction: "max"}, nil},
		{"unknown direction", Metric{Name: "m", Family: "correctness", Gate: "block", Threshold: &th, Direction: "up"},
			[]string{`direction: "up" is not one of min, max`}},
		{"zero value", Metric{}, []string{"name: must not be empty", `family: "" is not one of retrieval, groundedness, correctness, format, tool_use`,
			`gate: "" is not one of block, report`}},
		{"threshold 80", Metric{Name: "m", Family: "correctness", Gate: "block", Threshold: &big},
			[]string{"threshold: 80 is outside [0, 1]: a plan metric is a rate or share, so no run could measure that"}},
		{"NaN threshold", Metric{Name: "m", Family: "correctness", Gate: "block", Threshold: &nan}, []string{"threshold: must be a finite number"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, fe := range tc.m.Validate() {
				got = append(got, fe.Error())
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Validate = %q, want %q", got, tc.want)
			}
		})
	}
}

// A plan built in code is not read by ReadPlan: Gate itself refuses to
// apply an invalid metric (it used to read direction "up" as "min" and
// release).
func TestGateInvalidMetric(t *testing.T) {
	p := readPlanFile(t, "plan_v1.json")
	for i := range p.Metrics {
		if p.Metrics[i].Name == "abstain_correct" {
			p.Metrics[i].Direction = "up"
		}
	}
	v := p.Gate(map[string]Measurement{"answer_correct": {1, 10}, "abstain_correct": {1, 10}})
	want := []string{`metric "abstain_correct" is invalid (direction: "up" is not one of min, max), so the plan cannot gate on it`}
	if v.Release || !reflect.DeepEqual(v.Reasons, want) {
		t.Errorf("Gate = release %v, reasons %q; want no release, %q", v.Release, v.Reasons, want)
	}
	for _, row := range v.Metrics {
		if row.Metric == "abstain_correct" && (row.Pass != nil || !row.Measured) {
			t.Errorf("row %+v: want measured, pass null", row)
		}
	}
}

// The gate's table beside its cards shows values as rates and the
// threshold with its direction as a rate ("≥ 80.0%"), as the cards do:
// answer_correct 20 of 24 = 83.3% (it once read 0.833 and ">= 0.8");
// a metric not measured has empty value and n.
func TestGateTableUnits(t *testing.T) {
	v := readPlanFile(t, "plan_v1.json").Gate(map[string]Measurement{"answer_correct": {20.0 / 24, 24}})
	tb := v.Tables()[0]
	rows := map[string][]string{}
	for i, r := range tb.Rows {
		var cells []string
		for j := range tb.Columns {
			cells = append(cells, tb.Cell(i, j))
		}
		rows[r[0]] = cells
	}
	if got := strings.Join(rows["answer_correct"][3:], " | "); got != "≥ 80.0% | 83.3% | 24 | pass" {
		t.Errorf("answer_correct: %q", got)
	}
	if got := strings.Join(rows["citation_support"][4:6], "|"); got != "|" {
		t.Errorf("citation_support value and n %q, want empty", got)
	}
	h := v.Headline()
	if len(h.Cards) == 0 || h.Cards[0].Unit != results.UnitRate || !strings.HasPrefix(h.Cards[0].Note, "≥ 80.0% · pass") {
		t.Errorf("cards %+v", h.Cards)
	}
}
