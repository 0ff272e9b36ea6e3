package ratings_test

import (
	"fmt"
	"strings"

	"github.com/evalbook/evalbook/pkg/ratings"
)

// Three models: A beat B 3 times of 4, C beat B 4 times of 6, A and C
// never met. Anchored at B, A's log-strength is ln 3 and C's ln 2.
func ExampleFile() {
	in := "model_a,model_b,winner\n" +
		"A,B,a\nA,B,a\nA,B,a\nA,B,b\n" +
		"B,C,a\nB,C,a\nB,C,b\nB,C,b\nB,C,b\nB,C,b\n"
	res, err := ratings.File(strings.NewReader(in), "verdicts.csv", ratings.Options{Anchor: "B", Resamples: -1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Ratings {
		fmt.Printf("%d %s %.4f elo %.0f\n", r.Rank, r.Model, r.Rating, r.Elo)
	}
	// Output:
	// 1 A 1.0986 elo 1191
	// 2 C 0.6931 elo 1120
	// 3 B 0.0000 elo 1000
}
