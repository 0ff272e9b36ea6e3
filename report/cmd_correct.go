package main

import (
	"github.com/evalbook/evalbook/pkg/correct"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var correctCommand = cli.Command{Name: "correct", Summary: "a judge's pass rate corrected with human labels: PPI++, PPI, Rogan-Gladen, beside the naive and humans-only rates", Run: runCorrect}

func runCorrect(e *cli.Env) error {
	fs := cli.NewFlags(e, "correct")
	labelled := cli.InputFlag(fs, "labelled", "", "items labelled by a human and the judge (`FILE`, CSV or JSONL: id, human, judge as 0/1)")
	unlabelled := cli.InputFlag(fs, "unlabelled", "", "items verdicted by the judge (`FILE`, CSV or JSONL: id, judge as 0/1)")
	methods := correct.Methods()
	method := cli.AddChoice(fs, "method", "correction `method`: ppi++, ppi, classical or rogan-gladen", methods...)
	by := fs.String("by", "", "group `column` of both files (a language, a slice): each group corrected with its own labels")
	conf := cli.AddConfidenceFlag(fs, "")
	export := cli.AddTableExportFlags(fs)
	if err := cli.ParseNoArgs(e, fs, "the files go after --labelled and --unlabelled"); err != nil {
		return err
	}
	if *labelled == "" || *unlabelled == "" {
		return cli.Usagef("correct: --labelled FILE and --unlabelled FILE are required (see evalbook correct --help)")
	}
	res, err := correct.Files(*labelled, *unlabelled, correct.Options{Method: *method, By: *by, Confidence: conf.Level()})
	if err != nil {
		return err
	}
	return cli.Render(e, res, export)
}
