package main

import (
	"os"

	"github.com/evalbook/evalbook/pkg/jury"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var juryCommand = cli.Command{Name: "jury", Summary: "aggregate several raters' labels by majority or Dawid-Skene: item labels, posteriors, rater confusion matrices", Run: runJury}

func runJury(e *cli.Env) error {
	fs := cli.NewFlags(e, "jury")
	labels := cli.InputFlag(fs, "labels", "", "label `FILE` (CSV or JSONL: item, rater, label; one row per label)")
	method := cli.AddChoice(fs, "method", "aggregation `method`: majority or dawid-skene", jury.Methods...)
	maxIter := fs.Int("max-iter", 0, "Dawid-Skene: at most `N` EM iterations (0: 10000)")
	export := cli.AddTableExportFlags(fs)
	if err := cli.ParseNoArgs(e, fs, "the file goes after --labels"); err != nil {
		return err
	}
	if *labels == "" {
		return cli.Usagef("jury: --labels FILE is required")
	}
	if *maxIter < 0 {
		return cli.Usagef("jury: --max-iter %d: want 0 or more", *maxIter)
	}
	f, err := os.Open(*labels)
	if err != nil {
		return err
	}
	defer f.Close()
	res, err := jury.File(f, *labels, jury.Options{Method: *method, MaxIter: *maxIter})
	if err != nil {
		return err
	}
	return cli.Render(e, res, export)
}
