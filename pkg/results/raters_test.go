package results

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// A hand-made Fleiss result over three raters: no confusion matrix (it is
// for two raters), one item to adjudicate, one warning.
func fleissSample() *RaterAgreement {
	k := 0.25
	return &RaterAgreement{
		Metric: "fleiss", Raters: []string{"r1", "r2", "r3"}, N: 4, Observed: 0.5, Expected: 1.0 / 3,
		FleissKappa: &k, CILow: -0.5, CIHigh: 1, Confidence: 0.9, Resamples: 100, Seed: 7,
		Disagreements: []RaterDisagreement{{Item: "x2", Line: 3, Ratings: map[string]string{"r1": "a", "r2": "b", "r3": ""}}},
		Warnings:      []Warning{{Code: "few_items", Count: 4, Message: "only 4 items: kappa is very uncertain"}},
	}
}

func TestRaterAgreementTables(t *testing.T) {
	got := fleissSample().Tables()
	want := []Table{
		{
			Title: "Agreement: r1, r2, r3",
			Note:  "fleiss over 4 items; 90% bootstrap interval over items (100 resamples, seed 7)",
			Columns: []Column{{Name: "figure"}, {Name: "value", Kind: KindNumber, PerRow: true},
				{Name: "low", Kind: KindNumber, PerRow: true}, {Name: "high", Kind: KindNumber, PerRow: true}},
			Rows: [][]string{
				{"n", "4", "", ""},
				{"observed", "0.5", "", ""},
				{"expected", "0.3333333333333333", "", ""},
				{"fleiss_kappa", "0.25", "-0.5", "1"},
			},
			// Each row's unit: the count, the two shares as rates (50.0%,
			// 33.3%), the statistic as a number.
			RowKinds: []string{KindCount, KindRate, KindRate, KindNumber},
		},
		{
			Title:   "Disagreements, to adjudicate",
			Columns: []Column{{Name: "item"}, {Name: "line", Kind: KindNumber}, {Name: "r1"}, {Name: "r2"}, {Name: "r3"}},
			Rows:    [][]string{{"x2", "3", "a", "b", ""}},
		},
		{Title: "Warnings", Columns: []Column{{Name: "code"}, {Name: "count", Kind: KindNumber}, {Name: "message"}}, Rows: [][]string{{"few_items", "4", "only 4 items: kappa is very uncertain"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Tables\n%+v\nwant\n%+v", got, want)
	}
	for _, tb := range got {
		if err := tb.Check(); err != nil {
			t.Error(err)
		}
	}
}

func TestRaterAgreementWriteText(t *testing.T) {
	var b strings.Builder
	if err := fleissSample().WriteText(&b); err != nil {
		t.Fatal(err)
	}
	// A missing rating shows as "-"; the observed agreement of Fleiss'
	// kappa is not a count of items, so it is named in words.
	want := `raters         r1, r2, r3
n              4 items
observed       0.500  mean share of agreeing rater pairs per item
expected       0.333  by chance
Fleiss' kappa  0.250  90% interval -0.500 to 1.000 (bootstrap over items, 100 resamples, seed 7)

disagreements, to adjudicate (1)
item  line  r1  r2  r3
x2    3     a   b   -

warnings:
  only 4 items: kappa is very uncertain
`
	if b.String() != want {
		t.Errorf("text\n%s\nwant\n%s", b.String(), want)
	}
	// A failing writer's error comes back.
	if err := fleissSample().WriteText(failWriter{}); err == nil {
		t.Error("WriteText to a failing writer returned nil")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }
