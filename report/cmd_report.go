package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
)

func init() {
	register(&command{name: "report", summary: "render a saved score result (--json) as XLSX, HTML and charts without recomputing", run: runReport})
}

const reportHelp = `
Usage: evalbook report --from RESULT.json [--verdicts FILE] [--xlsx FILE] [--html FILE]
                       [--html-rows N] [--charts DIR] [--title TEXT] [--json]

Renders a result saved with "evalbook score --json > RESULT.json" (or "evalbook judge
--json", whose review table becomes one more sheet and section) again, without reading
the response table or scoring anything: every figure comes from the JSON document.
--verdicts names the verdict file of the same run (score --out FILE) so that the workbook
and the HTML page can list every row and the rows where metrics disagree; it is refused
unless it has the result's rows, metric columns, per-metric pass counts and agreement
buckets (the rows both metrics pass, both fail, only one passes). With no output flag,
the text report is printed (or, with --json, the result again as one JSON document).
--xlsx and --html need file names: standard output (-) is only for score --out.

The workbook has a Summary sheet, one sheet per grouping with a native bar chart and
interval error bars, Agreement, Verdicts (continued on further sheets past Excel's
1,048,576 rows), Disagreements and Warnings. The HTML page is one self-contained file.
Charts are written as PNG and SVG, one file per grouping and per metric pair.

Examples:
	evalbook score --responses run.csv --out verdicts.csv --json > result.json
	evalbook report --from result.json --verdicts verdicts.csv --xlsx report.xlsx --html report.html
	evalbook report --from result.json --charts charts/ --title "Run 7, Hindi and Bengali"
`

func runReport(e *env) error {
	fs := newFlags(e, "report", reportHelp)
	from := fs.String("from", "", "saved result `FILE` (the JSON of score --json); - reads standard input")
	verdicts := fs.String("verdicts", "", "verdict `FILE` of the same run (the CSV of score --out)")
	title := fs.String("title", "", "report `title` (default: \"Evaluation report: <dataset>\")")
	asJSON := fs.Bool("json", false, "print the result as one JSON document instead of the text report")
	exp := addExportFlags(fs)
	args, err := parseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("report: unexpected argument %q (the result file goes after --from)", args[0])
	}
	if *from == "" {
		return usagef("report: --from RESULT.json is required (save one with evalbook score --json > RESULT.json)")
	}
	if err := exp.check("report"); err != nil {
		return err
	}
	if *verdicts != "" && !exp.needVerdicts() {
		return usagef("report: --verdicts is only read for --xlsx or --html")
	}
	var data []byte
	if *from == "-" {
		data, err = io.ReadAll(e.stdin)
	} else {
		data, err = os.ReadFile(*from)
	}
	if err != nil {
		return err
	}
	res, tables, err := results.ReadResult(*from, data)
	if err != nil {
		return err
	}
	if *title != "" {
		res.Title = *title
	}
	if *verdicts != "" {
		if err := checkVerdicts(*verdicts, *from, res); err != nil {
			return err
		}
	}
	if exp.any() {
		if err := exportScore(e, exp, res, tables, *verdicts, *verdicts); err != nil {
			return err
		}
		if !*asJSON {
			return nil
		}
	}
	if *asJSON {
		return res.WriteJSON(e.stdout)
	}
	if err := res.WriteText(e.stdout); err != nil {
		return err
	}
	for i := range tables {
		fmt.Fprintln(e.stdout)
		if err := tables[i].WriteText(e.stdout); err != nil {
			return err
		}
	}
	return nil
}

// checkVerdicts refuses a verdict file that is not the one of the
// result: the row count, the metric columns, each metric's pass count
// (or sum, for a graded metric) and each agreement bucket must match
// (results.CheckVerdicts).
func checkVerdicts(path, from string, res *results.Score) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	isMetric := func(id string) bool { _, err := score.Lookup(id); return err == nil }
	err = results.CheckVerdicts(f, path, res, isMetric)
	var m *results.VerdictMismatch
	if errors.As(err, &m) {
		if from == "-" {
			from = "the result on standard input"
		}
		return fmt.Errorf("%s does not belong to %s: %s", path, from, m.Reason)
	}
	return err
}
