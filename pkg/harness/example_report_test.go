package harness_test

import (
	"fmt"
	"os"

	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/harness"
)

// `evalbook summarize` as a library call on seed 004's fixture: six cases,
// two successes, three answers of which one is correct (SPEC.md section 4).
func ExampleSummarizeFiles() {
	read := func(name string) design.File {
		b, err := os.ReadFile("../../datasets/helpdesk/" + name)
		if err != nil {
			panic(err)
		}
		return design.File{Name: name, Data: b}
	}
	rep, err := harness.SummarizeFiles(read("seed004_dataset.json"), read("seed004_results.json"), "task")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("total", rep.Total, "success", rep.Success, "answered", rep.Answered, "correct", rep.CorrectAnswers)
	fmt.Printf("task success %.3f, answer coverage %.3f\n", *rep.TaskSuccess, *rep.AnswerCoverage)
	fmt.Println("standard slice:", rep.Slices["standard"].Success, "of", rep.Slices["standard"].Total)
	// Output:
	// total 6 success 2 answered 3 correct 1
	// task success 0.333, answer coverage 0.500
	// standard slice: 1 of 2
}
