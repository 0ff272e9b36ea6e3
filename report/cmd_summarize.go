package main

import (
	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/harness"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var summarizeCommand = cli.Command{Name: "summarize", Summary: "score answer-or-abstain outcomes: success, coverage, answered accuracy, slices", Run: runSummarize}

func runSummarize(e *cli.Env) error {
	fs := cli.NewFlags(e, "summarize")
	datasetFile := cli.InputFlag(fs, "dataset", "", "dataset `FILE` (JSON array, JSONL, or case records JSONL)")
	resultsFile := cli.InputFlag(fs, "results", "", "results `FILE` (JSON object, JSONL, or a run CSV)")
	slice := fs.String("slice", "task", "for case records: the `field` that names the slice (task, set, lang, expect)")
	export := cli.AddTableExportFlags(fs)
	err := cli.ParseNoArgs(e, fs, "use --dataset and --results")
	if err != nil {
		return err
	}
	if (*datasetFile == "") != (*resultsFile == "") {
		return cli.Usagef("summarize: give both --dataset and --results, or neither for the embedded fixture")
	}
	if _, err := design.DefaultVocabulary.Values(*slice); err != nil {
		return cli.Usagef("summarize: --slice: %v", err)
	}
	ds, res := design.File{Name: *datasetFile}, design.File{Name: *resultsFile}
	if ds.Name == "" {
		ds.Name, res.Name = "datasets/helpdesk/seed004_dataset.json", "datasets/helpdesk/seed004_results.json"
		if ds.Data, err = kitEmbedded(e, "helpdesk/seed004_dataset.json", "--dataset/--results"); err == nil {
			res.Data, err = datasets.Helpdesk.ReadFile("helpdesk/seed004_results.json")
		}
	} else if ds.Data, err = kitReadFile(e, ds.Name); err == nil {
		res.Data, err = kitReadFile(e, res.Name)
	}
	if err != nil {
		return err
	}
	rep, err := harness.SummarizeFiles(ds, res, *slice)
	if err != nil {
		return err
	}
	return cli.Render(e, rep, export)
}
