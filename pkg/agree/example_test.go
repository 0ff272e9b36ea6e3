package agree_test

import (
	"fmt"
	"os"

	"github.com/evalbook/evalbook/pkg/agree"
)

// Example reads the seed's eight-pair exercise from a CSV label table,
// measures agreement and lists the pairs to adjudicate (pairs 2 and 6, as
// the seed's answer says).
func Example() {
	f, err := os.Open("testdata/exercise.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	tab, err := agree.ReadLabels(f, "exercise.csv", []string{"ann1", "ann2"}, "pair")
	if err != nil {
		fmt.Println(err)
		return
	}
	k, err := agree.CohenKappa(tab.Rater(0), tab.Rater(1))
	if err != nil {
		fmt.Println(err)
		return
	}
	iv, _ := agree.BootstrapKappa(tab.Rater(0), tab.Rater(1), nil, agree.Unweighted, 2000, 0.95, 1)
	fmt.Printf("observed %.2f, expected %.3f, kappa %.2f (95%% interval %.2f to %.2f)\n", k.Observed, k.Expected, k.Kappa, iv.Lo, iv.Hi)
	for _, i := range agree.Disagreements(tab.Items()) {
		fmt.Println("adjudicate", tab.ItemName(i), tab.Rows[i].Ratings)
	}
	for _, w := range append(k.Warnings, iv.Warnings...) {
		fmt.Println("warning:", w)
	}
	// Output:
	// observed 0.75, expected 0.359, kappa 0.61 (95% interval 0.11 to 1.00)
	// adjudicate e2 [a b]
	// adjudicate e6 [tie a]
	// warning: only 8 items: kappa is very uncertain
	// warning: bootstrap over only 8 items: the interval is rough and too narrow
}

// ExampleAnalyzeCSV measures the agreement of the two annotators of the
// sample pairs (datasets/agreement/pairs.csv), as `evalbook agree
// --labels datasets/agreement/pairs.csv --raters ann1,ann2 --id id` does,
// and prints the command's text: observed 26/30 = 0.867, expected
// 307/900 = 0.341, kappa 0.798, and the four pairs to adjudicate.
func ExampleAnalyzeCSV() {
	f, err := os.Open("../../datasets/agreement/pairs.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	res, err := agree.AnalyzeCSV(f, "pairs.csv", []string{"ann1", "ann2"}, "id", agree.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	res.WriteText(os.Stdout)
	// Output:
	// raters    ann1, ann2
	// n         30 items
	// observed  0.867  26 of 30 items agree
	// expected  0.341  by chance
	// kappa     0.798  95% interval 0.603 to 0.949 (bootstrap over items, 10000 resamples, seed 1)
	//
	// confusion: ann1 in rows, ann2 in columns
	//         a   b  tie
	//     a  10   0    0
	//     b   0  11    0
	//   tie   3   1    5
	//
	// disagreements, to adjudicate (4)
	// item   line  ann1  ann2
	// lib03  4     tie   a
	// lib09  10    tie   a
	// lib18  19    tie   b
	// lib24  25    tie   a
}

// ExampleAnalyze compares Fleiss' kappa with Krippendorff's alpha at the
// ordinal level (the scale's order given) over the four raters of the
// sample ratings, and branches on a warning's code, never on its wording:
// Fleiss' kappa assumes the same number of ratings on every item, and 6
// of the 15 items have 3 ratings, not 4.
func ExampleAnalyze() {
	f, err := os.Open("../../datasets/agreement/ratings.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	tab, err := agree.ReadLabels(f, "ratings.csv", []string{"r1", "r2", "r3", "r4"}, "id")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, opt := range []agree.Options{
		{Metric: agree.MetricFleiss, Seed: 1},
		{Metric: agree.MetricAlpha, Level: agree.LevelOrdinal, Order: []string{"1", "2", "3", "4", "5"}, Seed: 1},
	} {
		res, err := agree.Analyze(tab, opt)
		if err != nil {
			fmt.Println(err)
			return
		}
		name, value := "Fleiss' kappa", res.FleissKappa
		if res.Alpha != nil {
			name, value = res.Level+" alpha", res.Alpha
		}
		fmt.Printf("%s %.3f (95%% interval %.3f to %.3f), %d items to adjudicate\n",
			name, *value, res.CILow, res.CIHigh, len(res.Disagreements))
		for _, w := range res.Warnings {
			if w.Code == agree.CodeUnequalRatings {
				fmt.Printf("  %d items have fewer ratings than the others\n", w.Count)
			}
		}
	}
	// Output:
	// Fleiss' kappa 0.403 (95% interval 0.219 to 0.552), 12 items to adjudicate
	//   6 items have fewer ratings than the others
	// ordinal alpha 0.882 (95% interval 0.724 to 0.908), 12 items to adjudicate
}
