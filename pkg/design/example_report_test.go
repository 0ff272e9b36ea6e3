package design_test

import (
	"fmt"
	"os"

	"github.com/evalbook/evalbook/pkg/design"
)

// The cases commands as library calls: read case files, then count them
// over two fields, split them, and write what `evalbook cases coverage`
// and `evalbook cases split` print.
func ExampleCoverageReportOf() {
	const name = "../../datasets/helpdesk/cases.jsonl"
	data, err := os.ReadFile(name)
	if err != nil {
		fmt.Println(err)
		return
	}
	cases, err := design.ReadCaseFiles([]design.File{{Name: "cases.jsonl", Data: data}}, design.DefaultVocabulary)
	if err != nil {
		fmt.Println(err)
		return
	}
	cov, err := design.CoverageReportOf(cases, "lang", "expect", design.DefaultVocabulary, 3, "cases.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d cases, hash %s\n", cov.N, cov.Hash)
	for i, lang := range cov.RowValues {
		fmt.Println(lang, cov.ColValues, cov.Counts[i])
	}
	fmt.Println("thin cells:", len(cov.UnderMin))
	for _, t := range cov.Tables() {
		fmt.Println("table:", t.Title)
	}
	// Output:
	// 31 cases, hash 7d310008b7ea
	// en [answer abstain] [19 4]
	// bn [answer abstain] [5 3]
	// thin cells: 0
	// table: Coverage: lang x expect
	// table: Cells with fewer than 3 cases
}
