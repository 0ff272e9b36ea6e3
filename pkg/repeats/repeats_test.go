package repeats

import (
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// testdata/hand.csv is issue 28's hand vector: A 1,1,1; B 1,1,0; C 1,0,0;
// D 0,0,0. By hand (stats.TestRepeatsHand shows the steps): mean 0.5,
// SE √(5/108) = 0.215166, within 1/27 = 0.037037, between 4/27 = 0.148148.
// Flaky: B and C; stability 1, 2/3, 2/3, 1 (mean 5/6).
func TestHand(t *testing.T) {
	f, err := os.Open("testdata/hand.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := File(f, "testdata/hand.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"mean", r.Mean, 0.5}, {"se", r.SE, math.Sqrt(5.0 / 108)}, {"within", r.Within, 1.0 / 27}, {"between", r.Between, 4.0 / 27},
		{"mean stability", r.MeanStability, 5.0 / 6},
		// 95%: 0.5 ± 1.959963985 · 0.2151657415
		{"ci_low", r.CILow, 0.5 - 1.959963984540054*math.Sqrt(5.0/108)},
		{"se at 3 samples", r.Projections[2].SE, r.SE},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %.12g, want %.12g", c.name, c.got, c.want)
		}
	}
	if strings.Join(r.Flaky, ",") != "B,C" || r.Items != 4 || r.Samples != 12 {
		t.Errorf("flaky %v, %d items, %d samples", r.Flaky, r.Items, r.Samples)
	}
}

func TestBadPass(t *testing.T) {
	for _, tc := range []struct{ name, csv, want string }{
		{"pass 0.5", "item,sample,pass\nA,1,1\nA,2,0.5\n", "want 0 or 1"},
		{"no pass column", "item,sample,score\nA,1,1\n", "no pass column"},
	} {
		_, err := ReadSamples(strings.NewReader(tc.csv), "s.csv")
		var pe *tabular.ParseError
		if !errors.As(err, &pe) || pe.File != "s.csv" || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v", tc.name, err)
		}
		if tc.name == "pass 0.5" && pe.Line != 3 {
			t.Errorf("%s: line %d, want 3", tc.name, pe.Line)
		}
	}
}

// The page's summary table shows the mean (6 passes of 12 samples:
// 50.0%), its interval and the mean stability ((1 + 2/3 + 2/3 + 1)/4 =
// 83.3%) as rates, as the cards do; the text keeps its decimals.
func TestSummaryTableUnits(t *testing.T) {
	f, err := os.Open("testdata/hand.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := File(f, "testdata/hand.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	sum := r.Tables()[0]
	got := map[string]string{}
	for i, row := range sum.Rows {
		got[row[0]] = sum.Cell(i, 1)
	}
	if got["mean"] != "50.0%" || got["mean stability"] != "83.3%" || got["items"] != "4" || !strings.HasSuffix(got["interval low"], "%") {
		t.Errorf("summary table %v", got)
	}
	var text strings.Builder
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "\nmean            0.500\n") {
		t.Errorf("text summary changed:\n%s", text.String())
	}
}
