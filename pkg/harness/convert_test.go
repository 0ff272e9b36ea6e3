package harness

import (
	"reflect"
	"testing"

	"github.com/evalbook/evalbook/pkg/design"
)

func TestConversions(t *testing.T) {
	cases := []design.Case{
		{ID: "a1", Question: "q1", Task: "lookup", Set: "golden", Lang: "en", Expect: "answer", DocIDs: []string{"d1"}, Facts: []string{"30 days", "receipt"}},
		{ID: "u1", Question: "q2", Task: "unanswerable", Set: "adversarial", Lang: "bn", Expect: "abstain"},
	}
	rc := RunCases(cases)
	if rc[0].ID != "a1" || rc[0].Task != "lookup" || !reflect.DeepEqual(rc[0].Facts, cases[0].Facts) || rc[1].Expect != "abstain" {
		t.Errorf("RunCases = %+v", rc)
	}
	ds := Dataset(cases, "task")
	if ds[0].Slice != "lookup" || ds[0].Fact == nil || *ds[0].Fact != FactKey(cases[0].Facts) || ds[1].Fact != nil {
		t.Errorf("Dataset = %+v", ds)
	}
	rows := []RunRow{
		{ID: "a1", Task: "lookup", Expect: "answer", Outcome: "answer", Fact: FactKey(cases[0].Facts), Pass: true},
		{ID: "u1", Task: "unanswerable", Expect: "abstain", Outcome: "answer", Fact: "x", Pass: false},
	}
	// Hand count: a1 answers with every fact (pass), u1 answers where it should abstain (fail).
	rep, err := Summarize(ds, Outcomes(rows))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Total != 2 || rep.Success != 1 || rep.Answered != 2 || rep.CorrectAnswers != 1 {
		t.Errorf("report = %+v", rep)
	}
	if got := PassVector(rows); !reflect.DeepEqual(got, []float64{1, 0}) || Passed(rows) != 1 {
		t.Errorf("PassVector = %v, Passed = %d", got, Passed(rows))
	}
	m := Measurements(rows)
	if a := m["answer_correct"]; a.N != 1 || a.Value != 1 {
		t.Errorf("answer_correct = %+v", a)
	}
	if a := m["abstain_correct"]; a.N != 1 || a.Value != 0 {
		t.Errorf("abstain_correct = %+v", a)
	}
}
