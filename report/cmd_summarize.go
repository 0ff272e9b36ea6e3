package main

import (
	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/harness"
)

func init() {
	register(&command{name: "summarize", summary: "score answer-or-abstain outcomes: success, coverage, answered accuracy, slices", run: runSummarize})
}

const summarizeHelp = `
Usage: evalbook summarize [--dataset FILE] [--results FILE] [--slice FIELD] [--json] [--xlsx FILE] [--html FILE]

Scores recorded outcomes against a dataset (seed 004). A case passes when it expects abstain and
the outcome is an abstention, or expects answer and the outcome is an answer with the same fact.
A case with no outcome is missing: it stays in the totals and never passes. Rates with a zero
denominator are null. A repeated case id ("Duplicate case ID") or an outcome for an id not in the
dataset ("Unknown result ID") is an error (exit status 1).

--dataset: a JSON array or JSONL of {id, slice, expected: answer|abstain, fact (null for
abstain)}; or case records (JSONL with "expect", as for "evalbook cases"), whose --slice field
(task, set, lang or expect) becomes the slice and whose facts joined by " | " become the fact.
--results: a JSON object from case id to {kind: answer|abstain|error, fact}, JSONL of
{id, kind, fact}, or the CSV that "evalbook run" writes.
JSON output has exactly the keys total, success, answered, correct_answers, errors, missing,
task_success, answer_coverage, answered_accuracy and slices.
With neither flag, the seed 004 fixture embedded as datasets/helpdesk/seed004_*.json is scored.

Example:
	evalbook summarize --dataset datasets/helpdesk/example_dataset.json --results datasets/helpdesk/example_results.json
	evalbook run --out new.csv && evalbook summarize --dataset datasets/helpdesk/cases.jsonl --results new.csv --slice set
`

func runSummarize(e *env) error {
	fs := newFlags(e, "summarize", summarizeHelp)
	datasetFile := fs.String("dataset", "", "dataset `FILE` (JSON array, JSONL, or case records JSONL)")
	resultsFile := fs.String("results", "", "results `FILE` (JSON object, JSONL, or a run CSV)")
	slice := fs.String("slice", "task", "for case records: the `field` that names the slice (task, set, lang, expect)")
	asJSON := fs.Bool("json", false, "print one JSON document")
	export := addTableExportFlags(fs)
	args, err := kitParse(e, fs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("summarize: unexpected argument %q (use --dataset and --results)", args[0])
	}
	if (*datasetFile == "") != (*resultsFile == "") {
		return usagef("summarize: give both --dataset and --results, or neither for the embedded fixture")
	}
	if _, err := design.DefaultVocabulary.Values(*slice); err != nil {
		return usagef("summarize: --slice: %v", err)
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
	return render(e, rep, *asJSON, export, "summarize")
}
