package qa

import (
	"context"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/stats"
)

// --ci takes every stats.ProportionInterval method: a 0/1 metric's
// interval is that method's for its pass count, and Settings.CI names it.
func TestProportionIntervalMethods(t *testing.T) {
	in := "question,answer,Domain,response\nq1,a,D,a\nq2,b,D,b\nq3,c,D,c\nq4,d,D,x\n"
	ms := metricsOf(t, "exact_match")
	for _, m := range stats.ProportionMethods() {
		res, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{Metrics: ms, CI: m})
		if err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		s := res.Combined.Metrics["exact_match"]
		want := stats.ProportionInterval(m, 3, 4, 0.95)
		if s.Accuracy != 0.75 || s.CILow != want.Lo || s.CIHigh != want.Hi || res.Settings.CI != m {
			t.Errorf("%s: %v [%v, %v] (settings %q), want [%v, %v]", m, s.Accuracy, s.CILow, s.CIHigh, res.Settings.CI, want.Lo, want.Hi)
		}
	}
	if _, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{Metrics: ms, CI: "wald"}); err == nil || !strings.Contains(err.Error(), "clopper-pearson") {
		t.Errorf("unknown method: %v", err)
	}
}
