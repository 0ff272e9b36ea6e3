package harness_test

import (
	"errors"
	"fmt"
	"io/fs"
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

// `evalbook run --chunking sentence --min-score 0.4 --min-margin 0.1` as
// library calls: the sample system over the 31 sample cases passes 24,
// answer cases 20 of 24 and abstain cases 4 of 7 (README, "How sure are
// we?").
func ExampleNewRunReport() {
	data, err := os.ReadFile("../../datasets/helpdesk/cases.jsonl")
	if err != nil {
		panic(err)
	}
	cases, err := design.ReadCaseFiles([]design.File{{Name: "cases.jsonl", Data: data}}, design.DefaultVocabulary)
	if err != nil {
		panic(err)
	}
	docs, err := harness.ReadCorpus(os.DirFS("../../datasets/helpdesk/corpus"))
	if err != nil {
		panic(err)
	}
	r, err := harness.NewRetriever(docs, harness.Sentence)
	if err != nil {
		panic(err)
	}
	sys := &harness.System{Retriever: r, MinScore: 0.4, MinMargin: 0.1}
	rows := harness.Run(sys, harness.RunCases(cases))
	rep := harness.NewRunReport(rows, sys.Info("corpus"), "cases.jsonl", design.Hash(cases))
	fmt.Printf("pass %d/%d\n", rep.Passed, rep.N)
	for _, m := range rep.Metrics {
		fmt.Printf("%s %d/%d\n", m.Name, m.Passed, m.N)
	}
	// Output:
	// pass 24/31
	// answer_correct 20/24
	// abstain_correct 4/7
}

// What `evalbook run` prints on its first line, from the system itself:
// the sample corpus's 11 documents cut into 41 sentence chunks.
func ExampleSystem_Info() {
	r, err := harness.LoadRetriever(os.DirFS("../../datasets/helpdesk/corpus"), "datasets/helpdesk/corpus", harness.Sentence)
	if err != nil {
		panic(err)
	}
	sys := &harness.System{Retriever: r, MinScore: 0.4, MinMargin: 0.1}
	fmt.Printf("%+v\n", sys.Info("datasets/helpdesk/corpus"))
	// Output:
	// {Chunking:sentence MinScore:0.4 MinMargin:0.1 Corpus:datasets/helpdesk/corpus Documents:11 Chunks:41}
}

// The sample corpus read and cut into paragraphs (25, as the first line of
// `evalbook run --chunking paragraph` says); a corpus that is not
// there is an error that names it.
func ExampleLoadRetriever() {
	r, err := harness.LoadRetriever(os.DirFS("../../datasets/helpdesk/corpus"), "corpus", harness.Paragraph)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Documents(), "documents,", r.Len(), "paragraph chunks")
	_, err = harness.LoadRetriever(os.DirFS("../../datasets/helpdesk/no-such-corpus"), "no-such-corpus", harness.Paragraph)
	fmt.Println(errors.Is(err, fs.ErrNotExist))
	// Output:
	// 11 documents, 25 paragraph chunks
	// true
}
