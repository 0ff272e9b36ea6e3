package qa

import (
	"context"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/score"
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

// --ci bca: a 0/1 metric gets stats.BootstrapBCaProportion of its count,
// a graded one stats.BootstrapBCaMean of its values, a corpus-level one
// stats.BootstrapStatisticBCa of its row statistics; a cluster column is
// refused.
func TestBCaIntervals(t *testing.T) {
	in := "question,answer,Domain,response\nq1,red apple,D,red apple\nq2,red apple,D,red pear\nq3,red apple,D,blue sky\nq4,red apple,D,green apple\n"
	ms := metricsOf(t, "exact_match", "squad_f1")
	o := Options{Metrics: ms, CI: "bca", Resamples: 2000, Seed: 3, Workers: 1}
	res, err := Score(context.Background(), strings.NewReader(in), "t.csv", o)
	if err != nil {
		t.Fatal(err)
	}
	em, f1 := res.Combined.Metrics["exact_match"], res.Combined.Metrics["squad_f1"]
	if want := stats.BootstrapBCaProportion(1, 4, 2000, 0.95, 3); em.CILow != want.Lo || em.CIHigh != want.Hi {
		t.Errorf("exact_match [%v, %v], want [%v, %v]", em.CILow, em.CIHigh, want.Lo, want.Hi)
	}
	// SQuAD F1 per row: 1, ½ (red of red pear), 0, ½ (apple of green apple).
	if want := stats.BootstrapBCaMean([]float64{1, 0.5, 0, 0.5}, 2000, 0.95, 3); f1.Accuracy != 0.5 || f1.CILow != want.Lo || f1.CIHigh != want.Hi {
		t.Errorf("squad_f1 %v [%v, %v], want 0.5 [%v, %v]", f1.Accuracy, f1.CILow, f1.CIHigh, want.Lo, want.Hi)
	}
	if res.Settings.CI != "bca" || res.Settings.Resamples != 2000 {
		t.Errorf("settings %+v", res.Settings)
	}
	corpus := "question,answer,Domain,response\nq,abcdefghij,D,abcde\nq,ab,D,ab\n"
	cres, err := Score(context.Background(), strings.NewReader(corpus), "t.csv", Options{Metrics: []*score.Metric{corpusMetric}, CI: "bca", Resamples: 500, Seed: 2, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	c := cres.Combined.Metrics["test_length_ratio"]
	if want := stats.BootstrapStatisticBCa([]float64{5, 10, 2, 2}, 2, ratioFinal, 500, 0.95, 2); c.CILow != want.Lo || c.CIHigh != want.Hi {
		t.Errorf("corpus [%v, %v], want [%v, %v]", c.CILow, c.CIHigh, want.Lo, want.Hi)
	}
	if _, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{Metrics: ms, CI: "bca", Cluster: "question"}); err == nil {
		t.Error("bca with a cluster column was accepted")
	}
}
