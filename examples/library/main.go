// Command library is the tour in docs/library.md of the evalbook library: it scores
// the embedded sample responses by language, prints each group's accuracy
// with its interval, writes the HTML report people forward, and measures
// how well two annotators of the sample agree. Run it with
//
//	go run ./examples/library
package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"os"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/agree"
	"github.com/evalbook/evalbook/pkg/compare"
	"github.com/evalbook/evalbook/pkg/htmlreport"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
)

func main() {
	if err := run(os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(out io.Writer) error {
	// Score a response table (any io.Reader; CSV here) under two metrics,
	// grouped by language. The scored rows (one per response) are kept as
	// values; Options.Verdicts would write them as a CSV file instead.
	metrics, err := score.ParseList("exact_substring,squad_f1")
	if err != nil {
		return err
	}
	var rows results.RowTable
	res, err := qa.Score(context.Background(), bytes.NewReader(datasets.Responses), datasets.ResponsesName, qa.Options{
		Metrics: metrics,
		By:      [][]string{{"language"}},
		Rows:    rows.Add,
	})
	if err != nil {
		return err // a *qa.ParseError names file, line and column
	}
	for _, g := range append(res.Groups, res.Combined) {
		name := g.Group
		if name == "" {
			name = "combined"
		}
		m := g.Metrics["exact_substring"]
		fmt.Fprintf(out, "%-8s n=%3d  exact_substring %5.1f%% [%4.1f, %4.1f]  squad_f1 %.3f\n",
			name, g.N, 100*m.Accuracy, 100*m.CILow, 100*m.CIHigh, g.Metrics["squad_f1"].Accuracy)
	}

	// The single-file HTML report, with the verdict rows.
	var page bytes.Buffer
	if err := htmlreport.Write(&page, res, htmlreport.Options{Rows: &rows}); err != nil {
		return err
	}
	fmt.Fprintf(out, "HTML report: %d bytes, file hash %s\n", page.Len(), res.Dataset.Hash)

	// Agreement of two annotators on the sample's 30 answer pairs: the
	// whole analysis of `evalbook agree` in one call, printed as the
	// command prints it.
	f, err := datasets.Agreement.Open("agreement/pairs.csv")
	if err != nil {
		return err
	}
	defer f.Close()
	ag, err := agree.AnalyzeCSV(f, "pairs.csv", []string{"ann1", "ann2"}, "id", agree.Options{Seed: 1})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Cohen's kappa %.3f (observed %.3f, chance %.3f), 95%% bootstrap interval %.2f to %.2f over %d items\n",
		*ag.Kappa, ag.Observed, ag.Expected, ag.CILow, ag.CIHigh, ag.N)

	// Two versions of a system on the same six cases, as `evalbook
	// compare` would pair them from two files.
	cmp, err := compare.Versions([]string{"q1", "q2", "q3", "q4", "q5", "q6"},
		[]float64{0, 0, 0, 1, 1, 1}, []float64{1, 1, 1, 1, 1, 0}, nil, compare.Options{Seed: 1})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "compare: %d better, %d worse, sign test p = %.3f\n", len(cmp.Better), len(cmp.Worse), cmp.PSign)
	return nil
}
