package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/harness"
)

func init() {
	register(&command{name: "summarize", summary: "score answer-or-abstain outcomes: success, coverage, answered accuracy, slices", run: runSummarize})
}

const summarizeHelp = `
Usage: evalbook summarize [--dataset FILE] [--results FILE] [--slice FIELD] [--json]

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
	var dsData, resData []byte
	dsName, resName := *datasetFile, *resultsFile
	if dsName == "" {
		dsName, resName = "datasets/helpdesk/seed004_dataset.json", "datasets/helpdesk/seed004_results.json"
		if dsData, err = kitEmbedded(e, "helpdesk/seed004_dataset.json", "--dataset/--results"); err != nil {
			return err
		}
		if resData, err = kitEmbeddedQuiet("helpdesk/seed004_results.json"); err != nil {
			return err
		}
	} else {
		if dsData, err = kitReadFile(e, dsName); err != nil {
			return err
		}
		if resData, err = kitReadFile(e, resName); err != nil {
			return err
		}
	}
	dataset, err := kitReadDataset(dsData, dsName, *slice)
	if err != nil {
		return err
	}
	results, lines, err := kitReadResults(resData, resName)
	if err != nil {
		return err
	}
	if err := kitUnknownResults(dataset, dsName, results, lines, resName); err != nil {
		return err
	}
	rep, err := harness.Summarize(dataset, results)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, rep)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for _, kv := range []struct {
		k string
		v any
	}{{"total", rep.Total}, {"success", rep.Success}, {"answered", rep.Answered}, {"correct answers", rep.CorrectAnswers},
		{"errors", rep.Errors}, {"missing", rep.Missing}, {"task success", kitFmt(rep.TaskSuccess)},
		{"answer coverage", kitFmt(rep.AnswerCoverage)}, {"answered accuracy", kitFmt(rep.AnsweredAccuracy)}} {
		fmt.Fprintf(tw, "%s\t%v\n", kv.k, kv.v)
	}
	fmt.Fprintln(tw, "\nslice\ttotal\tsuccess")
	names := make([]string, 0, len(rep.Slices))
	for n := range rep.Slices {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(tw, "%s\t%d\t%d\n", n, rep.Slices[n].Total, rep.Slices[n].Success)
	}
	return tw.Flush()
}

func kitEmbeddedQuiet(name string) ([]byte, error) {
	return datasets.Helpdesk.ReadFile(name)
}

// kitReadDataset reads a seed 004 dataset, or case records (recognised by
// an "expect" member in the first record) converted with slice as the
// slice field and the joined facts as the fact.
func kitReadDataset(data []byte, file, slice string) ([]harness.Case, error) {
	if !kitLooksLikeRecords(data) {
		return harness.ReadDataset(bytes.NewReader(data), file)
	}
	recs, err := design.ReadCases(bytes.NewReader(data), file, design.DefaultVocabulary)
	if err != nil {
		return nil, err
	}
	return harness.Dataset(recs, slice), nil
}

// kitLooksLikeRecords reports whether the first JSON line is an object
// with an "expect" member (a case record), not "expected" (seed 004).
func kitLooksLikeRecords(data []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		t := bytes.TrimSpace(bytes.TrimPrefix(sc.Bytes(), []byte("\xef\xbb\xbf")))
		if len(t) == 0 {
			continue
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(t, &m) != nil {
			return false
		}
		_, ok := m["expect"]
		return ok
	}
	return false
}

// kitReadResults reads results as JSON, JSONL or a run CSV (recognised by
// its header line), with the line each id's outcome starts on.
func kitReadResults(data []byte, file string) (map[string]harness.Outcome, map[string]int, error) {
	head := strings.TrimPrefix(string(data[:min(len(data), 64)]), "\ufeff")
	if strings.HasPrefix(head, strings.Join(harness.CSVHeader, ",")) || strings.HasSuffix(strings.ToLower(file), ".csv") {
		rows, lines, err := harness.ReadCSVLines(bytes.NewReader(data), file)
		if err != nil {
			return nil, nil, err
		}
		return harness.Outcomes(rows), lines, nil
	}
	return harness.ReadResultsLines(bytes.NewReader(data), file)
}

// kitUnknownResults is Summarize's "Unknown result ID" check, placed: it
// names the results file and the line of the first outcome (in file
// order) whose id is no case of the dataset, and the lines of a few more.
func kitUnknownResults(dataset []harness.Case, dsName string, results map[string]harness.Outcome, lines map[string]int, resName string) error {
	ids := make(map[string]bool, len(dataset))
	for _, c := range dataset {
		ids[c.ID] = true
	}
	var unknown []string
	for id := range results {
		if !ids[id] {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Slice(unknown, func(i, j int) bool {
		a, b := unknown[i], unknown[j]
		return lines[a] < lines[b] || lines[a] == lines[b] && a < b
	})
	more := ""
	if n := len(unknown) - 1; n > 0 {
		const most = 5
		var list []string
		for _, id := range unknown[1:min(len(unknown), 1+most)] {
			list = append(list, fmt.Sprintf("%q on line %d", id, lines[id]))
		}
		if n > most {
			list = append(list, fmt.Sprintf("%d others", n-most))
		}
		more = fmt.Sprintf("; %d more: %s", n, strings.Join(list, ", "))
	}
	return fmt.Errorf("%s:%d: %w: %q (no case of %s has this id%s)", resName, lines[unknown[0]], harness.ErrUnknownResult, unknown[0], dsName, more)
}
