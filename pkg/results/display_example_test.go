package results_test

import (
	"fmt"

	"github.com/evalbook/evalbook/pkg/results"
)

func ExampleDisplayName() {
	fmt.Println(results.DisplayName("/home/asha/runs/2026-12/tern_hi.csv"))
	fmt.Println(results.DisplayName(`C:\Users\asha\run.jsonl`))
	// Output:
	// tern_hi.csv
	// run.jsonl
}
