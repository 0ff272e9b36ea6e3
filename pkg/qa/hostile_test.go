package qa

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
)

// TestScoreWarnsDuplicateIDsAndBidi (issue 17, findings 8 and 9): score
// used to accept repeated ids and bidi controls silently. A repeated id
// (per model, when there is a model column) is a warning with its lines;
// a response holding U+202E is counted in a bidi_controls warning.
func TestScoreWarnsDuplicateIDsAndBidi(t *testing.T) {
	in := "id,model,question,answer,Domain,response\n" +
		"q1,a,Q,x,D,x\n" +
		"q1,b,Q,x,D,x\n" + // the same question for another model: no warning
		"q2,a,Q,y,D,\u202Ey\n" + // line 4: a right-to-left override
		"q1,a,Q,x,D,x\n" // line 5: q1 again for model a
	res, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]results.Warning{}
	for _, w := range res.Warnings {
		got[w.Code] = w
	}
	if w := got[CodeDuplicateIDs]; w.Count != 1 || fmt.Sprint(w.Lines) != "[5]" {
		t.Errorf("duplicate ids: %+v, want 1 row at line 5", w)
	}
	if w := got[results.CodeBidiControls]; w.Count != 1 || fmt.Sprint(w.Lines) != "[4]" {
		t.Errorf("bidi controls: %+v, want 1 row at line 4", w)
	}
}
