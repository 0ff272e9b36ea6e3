package qa

import (
	"context"
	"strings"
	"testing"
)

// TestGuardedResponsesScoreAsWritten: a response table written by an
// evalbook CSV writer (generate --out) carries formula cells guarded with
// a leading '; they score as the text the model wrote. Without the
// unguard, exact_match fails "'=7*8=56" against "=7*8=56".
func TestGuardedResponsesScoreAsWritten(t *testing.T) {
	raw := "question,answer,Domain,response\nq1,=7*8=56,math,=7*8=56\nq2,'x,d,'x\n"
	guarded := "question,answer,Domain,response\nq1,=7*8=56,math,'=7*8=56\nq2,'x,d,'x\n"
	score := func(in string) (float64, float64) {
		res, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{Metrics: metricsOf(t, "exact_match")})
		if err != nil {
			t.Fatal(err)
		}
		return res.Combined.Metrics["exact_match"].Correct, res.Groups[0].Metrics["exact_match"].Correct
	}
	rc, _ := score(raw)
	gc, _ := score(guarded)
	if rc != 2 || gc != 2 {
		t.Errorf("exact_match correct: raw %v, guarded %v; want 2 and 2 (a plain leading ' is text and stays)", rc, gc)
	}
}
