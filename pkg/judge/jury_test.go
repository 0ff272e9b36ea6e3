package judge

import (
	"bytes"
	"testing"

	"github.com/evalbook/evalbook/pkg/jury"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// TestJuryLabels: each kind of row gives the label judge --judges writes
// for it, two judges one after the other, and the label file reads back
// as the same labels.
func TestJuryLabels(t *testing.T) {
	tbl := &Responses{Name: "r.csv", Rows: []ResponseRow{
		{ID: "q1", Line: 2, Verdict: RefVerdict{Valid: true, Correct: true}},
		{ID: "q2", Line: 3, Verdict: RefVerdict{Valid: true}},
		{ID: "", Line: 4, Verdict: RefVerdict{Error: "HTTP 500", Kind: "server_error"}}, // failed call
		{ID: "q4", Line: 5, Verdict: RefVerdict{Invalid: "no verdict"}},                 // broke the contract
		{ID: "q5", Line: 6, GenError: "timeout"},                                        // never generated
		{ID: "q6", Line: 7, Blank: true, Verdict: RefVerdict{Valid: true, Reason: "blank response (not sent)"}},
	}}
	ls := &jury.Labels{Source: tbl.Name}
	tbl.JuryLabels(ls, "a")
	tbl.JuryLabels(ls, "b")
	want := []jury.Label{
		{Item: "q1", Rater: "a", Label: "correct", Line: 2},
		{Item: "q2", Rater: "a", Label: "incorrect", Line: 3},
		{Item: "line 4", Rater: "a", Label: "", Errored: true, Line: 4},
		{Item: "q4", Rater: "a", Label: "", Errored: true, Line: 5},
		{Item: "q6", Rater: "a", Label: "incorrect", Line: 6},
	}
	if len(ls.Labels) != 2*len(want) {
		t.Fatalf("%d labels, want %d: %+v", len(ls.Labels), 2*len(want), ls.Labels)
	}
	for i, l := range ls.Labels {
		w := want[i%len(want)]
		if i >= len(want) {
			w.Rater, w.Line = "b", w.Line+len(want)
		}
		if l != w {
			t.Errorf("label %d = %+v, want %+v", i, l, w)
		}
	}

	var b bytes.Buffer
	if _, err := ls.WriteCSV(&b, tabular.CSVOptions{}); err != nil {
		t.Fatal(err)
	}
	back, err := jury.ReadLabels(&b, "labels.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Labels) != len(ls.Labels) {
		t.Fatalf("read back %d labels, want %d", len(back.Labels), len(ls.Labels))
	}
	for i, l := range back.Labels {
		if w := ls.Labels[i]; l.Item != w.Item || l.Rater != w.Rater || l.Label != w.Label || l.Errored != w.Errored || l.Line != w.Line {
			t.Errorf("read back label %d = %+v, want %+v", i, l, w)
		}
	}
}
