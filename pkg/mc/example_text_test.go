package mc_test

import (
	"fmt"

	"github.com/evalbook/evalbook/pkg/mc"
)

// `evalbook mc` as a library call: read a prediction file, evaluate it
// with recall@2, and look at the figures the command prints. Accuracy is
// 15 of 32 questions (0.469); the interval is Wilson's.
func ExampleEvaluateFile() {
	const name = "../../datasets/mc/kestrel-7b_predictions.csv"
	f, err := mc.ReadFile(name, mc.Columns{})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := mc.EvaluateFile(f, "kestrel-7b_predictions.csv", mc.Options{K: []int{2}, Confidence: 0.95, Resamples: 1000, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	acc := rep.Overall.Metrics["acc"]
	fmt.Printf("%d questions, language from %s\n", rep.Overall.N, rep.LanguageSource)
	fmt.Printf("acc %.3f [%.3f, %.3f]\n", acc.Value, acc.CILow, acc.CIHigh)
	for _, g := range rep.Languages {
		fmt.Printf("%s %d\n", g.Group, g.N)
	}
	// Output:
	// 32 questions, language from column
	// acc 0.469 [0.309, 0.636]
	// bengali 8
	// english 8
	// hindi 8
	// tamil 8
}
