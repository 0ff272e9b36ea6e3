package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/report/internal/cli"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/harness"
)

var runCommand = cli.Command{Name: "run", Summary: "run the sample retrieval system over case records and write per-case outcomes", Run: runRun}

func runRun(e *cli.Env) error {
	fset := cli.NewFlags(e, "run")
	casesFile := cli.InputFlag(fset, "cases", "", "case records `FILE` (JSONL); default: the embedded sample")
	corpusDir := cli.InputFlag(fset, "corpus", "", "corpus `DIR` of *.md documents; default: the embedded sample corpus")
	chunking := fset.String("chunking", "paragraph", "chunk `unit`: paragraph or sentence")
	minScore := fset.Float64("min-score", 0.3, "abstain when the top score is below `X`, in [0, 1]")
	minMargin := fset.Float64("min-margin", 0, "abstain when the top score beats other documents by less than `Y`, in [0, 1]")
	planFile := cli.InputFlag(fset, "plan", "", "plan `FILE` whose case_values extend the allowed case values")
	out := cli.OutputFlag(fset, "out", "", "write the per-case run `FILE` (CSV)")
	rawCSV := cli.AddRawCSVFlag(fset)
	export := cli.AddTableExportFlags(fset)
	if err := cli.ParseNoArgs(e, fset, "cases go after --cases"); err != nil {
		return err
	}
	ch, err := harness.ParseChunking(*chunking)
	if err != nil {
		return cli.Usagef("run: %v", err)
	}
	// A score is the share of the question's words a chunk holds, and a
	// margin the difference of two scores: both lie in [0, 1], so a
	// setting outside it would abstain on every case, or never.
	if !(*minScore >= 0 && *minScore <= 1) {
		return cli.Usagef("run: --min-score %v is outside [0, 1] (a score is the share of the question's words a chunk holds)", *minScore)
	}
	if !(*minMargin >= 0 && *minMargin <= 1) {
		return cli.Usagef("run: --min-margin %v is outside [0, 1] (a margin is the difference of two scores)", *minMargin)
	}
	if *corpusDir != "" {
		switch st, err := os.Stat(*corpusDir); {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("corpus %s: no such directory", *corpusDir)
		case err != nil:
			return fmt.Errorf("corpus %s: %w", *corpusDir, err)
		case !st.IsDir():
			return fmt.Errorf("corpus %s: not a directory (--corpus names a directory of *.md documents)", *corpusDir)
		}
	}
	var files []string
	if *casesFile != "" {
		files = []string{*casesFile}
	}
	cases, _, label, err := kitLoadCases(e, files, *planFile, "--cases FILE")
	if err != nil {
		return err
	}
	corpus, corpusLabel := os.DirFS(*corpusDir), *corpusDir
	if corpusLabel == "" {
		fmt.Fprintln(e.Stderr, "evalbook: no --corpus given; using the embedded sample datasets/helpdesk/corpus")
		corpus, _ = fs.Sub(datasets.Helpdesk, "helpdesk/corpus")
		corpusLabel = "datasets/helpdesk/corpus"
	}
	retriever, err := harness.LoadRetriever(corpus, corpusLabel, ch)
	if err != nil {
		return err
	}
	sys := &harness.System{Retriever: retriever, MinScore: *minScore, MinMargin: *minMargin}
	rows := harness.Run(sys, harness.RunCases(cases))
	if *out != "" {
		write := func(w io.Writer, o tabular.CSVOptions) (int, error) { return harness.WriteCSVOptions(w, rows, o) }
		if err := cli.WriteCSVFile(e, "run", *out, *rawCSV, write); err != nil {
			return err
		}
	}
	rep := harness.NewRunReport(rows, sys.Info(corpusLabel), label, design.Hash(cases))
	if err := cli.Render(e, rep, export); err != nil || export.JSON || *out == "" {
		return err
	}
	fmt.Fprintf(e.Stdout, "wrote %s\n", *out)
	return nil
}
