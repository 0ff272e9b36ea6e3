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
	// observed 0.75, expected 0.359, kappa 0.61 (95% interval 0.09 to 1.00)
	// adjudicate e2 [a b]
	// adjudicate e6 [tie a]
	// warning: only 8 items: kappa is very uncertain
	// warning: bootstrap over only 8 items: the interval is rough and too narrow
}
