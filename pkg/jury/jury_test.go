package jury

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// testdata/dawid_skene_table1.csv is Table 1 of Dawid and Skene (1979,
// Applied Statistics 28:20-28): 45 patients, 5 observers, observer 1
// three times, classes 1-4; transcribed from the table as
// dallascard/dawid_skene's generate_sample_data() ships it. From the
// paper's initialisation (eq. 3.1), the fit issue 28 quotes: class
// marginals (0.3996, 0.4220, 0.1118, 0.0667), log-likelihood -192.8909.
func TestDawidSkeneTable1(t *testing.T) {
	f, err := os.Open("testdata/dawid_skene_table1.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := File(f, "testdata/dawid_skene_table1.csv", Options{Method: MethodDawidSkene})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Items) != 45 || len(res.Raters) != 5 || res.Labels != 315 || strings.Join(res.Classes, ",") != "1,2,3,4" {
		t.Fatalf("%d items, %d raters, %d labels, classes %v", len(res.Items), len(res.Raters), res.Labels, res.Classes)
	}
	for j, want := range []float64{0.3996, 0.4220, 0.1118, 0.0667} {
		if math.Abs(res.Marginals[j]-want) > 5e-5 {
			t.Errorf("marginal %d = %.5f, want %.4f", j+1, res.Marginals[j], want)
		}
	}
	if math.Abs(res.LogLik+192.8909) > 5e-5 || !res.Converged {
		t.Errorf("log-likelihood %.5f (converged %t), want -192.8909", res.LogLik, res.Converged)
	}
	// Every row of a confusion matrix is a distribution; each item's
	// posterior sums to 1; patient 1 (every label 1) is class 1.
	for _, r := range res.Raters {
		for j, row := range r.Confusion {
			if s := sum(row); math.Abs(s-1) > 1e-9 {
				t.Errorf("%s: confusion row %d sums to %g", r.Rater, j, s)
			}
		}
	}
	for _, it := range res.Items {
		if s := sum(it.Posterior); math.Abs(s-1) > 1e-9 {
			t.Errorf("%s: posterior sums to %g", it.Item, s)
		}
	}
	if res.Items[0].Label != "1" || res.Items[0].Posterior[0] < 0.99 {
		t.Errorf("patient 1: %+v", res.Items[0])
	}
}

func sum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

func analyze(t *testing.T, csv string, method string) (*Result, error) {
	t.Helper()
	ls, err := ReadLabels(strings.NewReader(csv), "labels.csv")
	if err != nil {
		return nil, err
	}
	return Analyze(ls, Options{Method: method})
}

// Majority by hand. a: 2 pass, 1 fail -> pass (2/3). b: judge-1 pass,
// judge-2 fail, judge-3 errored (left out) -> tie, no label. c: judge-1
// labels it twice (pass, fail: half a vote each), judge-2 and judge-3
// fail -> fail with 2.5 of 3 votes. Untied: a pass, c fail -> marginals
// fail 0.5, pass 0.5. judge-1's labels on untied items: a pass (right),
// c pass (wrong), c fail (right): accuracy 2/3. judge-3: a fail (wrong),
// c fail (right): 1/2; its error on b is not counted.
func TestMajority(t *testing.T) {
	res, err := analyze(t, `item,judge,label
a,judge-1,pass
a,judge-2,pass
a,judge-3,fail
b,judge-1,pass
b,judge-2,fail
b,judge-3,ERROR
c,judge-1,pass
c,judge-1,fail
c,judge-2,fail
c,judge-3,fail
`, MethodMajority)
	if err != nil {
		t.Fatal(err)
	}
	if res.Items[0].Label != "pass" || math.Abs(res.Items[0].Posterior[1]-2.0/3) > 1e-12 {
		t.Errorf("a: %+v", res.Items[0])
	}
	if !res.Items[1].Tie || res.Items[1].Label != "" || res.Items[1].Errored != 1 || res.Items[1].Raters != 2 {
		t.Errorf("b: %+v", res.Items[1])
	}
	if res.Items[2].Label != "fail" || math.Abs(res.Items[2].Posterior[0]-2.5/3) > 1e-12 {
		t.Errorf("c: %+v", res.Items[2])
	}
	if strings.Join(res.Ties, ",") != "b" || res.Errored != 1 {
		t.Errorf("ties %v errored %d", res.Ties, res.Errored)
	}
	if math.Abs(*res.Raters[0].Accuracy-2.0/3) > 1e-12 || res.Raters[2].Errored != 1 || *res.Raters[2].Accuracy != 0.5 {
		t.Errorf("raters %+v", res.Raters)
	}
	codes := ""
	for _, w := range res.Warnings {
		codes += w.Code + " "
	}
	if codes != "jury_ties errored_labels " {
		t.Errorf("warnings %q", codes)
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		name, csv, method string
		line              int
		want              string
	}{
		{"no rater column", "item,label\na,pass\n", MethodMajority, 1, "no rater column"},
		{"single class", "item,rater,label\na,r1,pass\na,r2,pass\nb,r1,pass\n", MethodMajority, 1, "only the class \"pass\""},
		{"one rater under dawid-skene", "item,rater,label\na,r1,pass\na,r2,fail\nb,r1,pass\nb,r1,fail\nb,r2,error\n", MethodDawidSkene, 4, "one rater only"},
		{"empty item", "item,rater,label\na,r1,pass\n,r2,fail\n", MethodMajority, 3, "empty item id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := analyze(t, tc.csv, tc.method)
			var pe *tabular.ParseError
			if !errors.As(err, &pe) || pe.File != "labels.csv" || pe.Line != tc.line || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want a ParseError at labels.csv:%d saying %q", err, tc.line, tc.want)
			}
		})
	}
	// The same one-rater item is fine under majority.
	if _, err := analyze(t, "item,rater,label\na,r1,pass\na,r2,fail\nb,r1,pass\n", MethodMajority); err != nil {
		t.Errorf("majority with a one-rater item: %v", err)
	}
}
