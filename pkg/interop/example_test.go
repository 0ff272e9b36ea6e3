package interop_test

import (
	"context"
	"fmt"

	"github.com/evalbook/evalbook/pkg/interop"
)

// Check reads an lm-evaluation-harness output folder and recomputes the
// figures of its results file from the samples files.
func ExampleCheck() {
	rep, err := interop.Check(context.Background(), "testdata/lmeval/new", interop.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, t := range rep.Tasks[:2] {
		fmt.Printf("%s %s: n=%d recomputed %.4f reported %.4f match %v\n", t.Task, t.Metric, t.N, t.Recomputed, t.Reported, t.Match)
	}
	fmt.Println(rep.Records, "records; all agree:", rep.OK())
	// Output:
	// arc_easy_hi acc,none: n=4 recomputed 0.7500 reported 0.7500 match true
	// arc_easy_hi acc_norm,none: n=4 recomputed 0.5000 reported 0.5000 match true
	// 12 records; all agree: true
}

// Read auto-detects the format; an inspect .eval log gives one sample per
// sample and epoch, its C/I/P/N scores as numbers.
func ExampleRead() {
	run, err := interop.Read(context.Background(), "testdata/inspect/qa_hi_bn.eval", interop.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(run.Format, run.Model, len(run.Samples))
	for _, s := range run.Samples[:3] {
		v, _ := s.Value("model_graded_qa")
		fmt.Println(s.SampleID, s.Language, v)
	}
	// Output:
	// inspect openai/gpt-4o-mini 5
	// 1 hi 1
	// 2 bn 0
	// 3 hi 0.5
}
