package design_test

import (
	"bytes"
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

// `evalbook plan check` and `evalbook plan gate` as library calls: the
// weak sample plan leaves one high-cost failure unguarded; the sample
// plan's gate refuses a run whose abstain cases pass 4 of 7 (0.571, below
// the blocking 0.9) although its answer cases pass 20 of 24 (0.833).
func ExamplePlan_Check() {
	read := func(name string) *design.Plan {
		b, err := os.ReadFile("../../datasets/helpdesk/" + name)
		if err != nil {
			panic(err)
		}
		p, err := design.ReadPlan(bytes.NewReader(b), name)
		if err != nil {
			panic(err)
		}
		return p
	}
	read("plan_weak.json").Check().WriteText(os.Stdout)
	v := read("plan_v1.json").Gate(map[string]design.Measurement{
		"answer_correct":  {Value: 20.0 / 24, N: 24},
		"abstain_correct": {Value: 4.0 / 7, N: 7},
	})
	fmt.Println("release:", v.Release)
	fmt.Println(v.Reasons[0])
	// Output:
	// 1 problem(s):
	//   high-cost failure answer given when the documents are silent is not guarded by a blocking metric
	// release: false
	// abstain_correct 0.571 (n=7) is below its blocking threshold 0.9
}

// `evalbook cases split` as a library call: each case's side follows
// from SHA-256 of the salt and its id alone, so the split reproduces.
func ExampleSplitOf() {
	data, err := os.ReadFile("../../datasets/helpdesk/cases.jsonl")
	if err != nil {
		panic(err)
	}
	cases, err := design.ReadCaseFiles([]design.File{{Name: "cases.jsonl", Data: data}}, design.DefaultVocabulary)
	if err != nil {
		panic(err)
	}
	s, err := design.SplitOf(cases, design.DefaultHoldout, design.DefaultSalt)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(s.Dev), "dev,", len(s.Holdout), "holdout:", s.Holdout)
	// Output:
	// 24 dev, 7 holdout: [a04 a05 a07 g01 g03 p05 p09]
}

// `evalbook cases hash` and `evalbook cases leakage` as library calls: the
// sample's hash labels its reports, and the leakage check finds case p03
// near-copied across the split (g01) and case g06 word for word in the
// few-shot prompt.
func ExampleLeakageConfig_CheckSplitLeakage() {
	read := func(name string) []byte {
		b, err := os.ReadFile("../../datasets/helpdesk/" + name)
		if err != nil {
			panic(err)
		}
		return b
	}
	cases, err := design.ReadCaseFiles([]design.File{{Name: "cases.jsonl", Data: read("cases.jsonl")}}, design.DefaultVocabulary)
	if err != nil {
		panic(err)
	}
	fmt.Println("hash", design.HashOf(cases).Hash)
	src, err := design.ReadSource(bytes.NewReader(read("sources/few_shot.txt")), "few_shot", "few_shot.txt")
	if err != nil {
		panic(err)
	}
	leak, err := design.DefaultLeakageConfig.CheckSplitLeakage(cases, design.DefaultHoldout, design.DefaultSalt, []design.Source{src})
	if err != nil {
		panic(err)
	}
	for _, l := range leak.DevHoldout {
		fmt.Printf("split: %s ~ %s by %s %.2f\n", l.Dev, l.Holdout, l.Method, l.Score)
	}
	for _, l := range leak.Sources {
		fmt.Printf("source: %s in %s line %d by %s %.2f\n", l.ID, l.Source, l.Line, l.Method, l.Score)
	}
	// Output:
	// hash 7d310008b7ea
	// split: p03 ~ g01 by char_ngram 0.91
	// split: p03 ~ g01 by jaccard 0.71
	// source: g06 in few_shot line 1 by char_ngram 1.00
	// source: g06 in few_shot line 1 by jaccard 1.00
}
