package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/evalbook/evalbook/pkg/replay"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var reportCommand = cli.Command{Name: "report", Summary: "render a saved result (any command's --json) again as text, JSON, XLSX and HTML (score: charts too) without recomputing", Run: runReport}

func runReport(e *cli.Env) error {
	fs := cli.NewFlags(e, "report")
	from := cli.InputFlag(fs, "from", "", "saved result `FILE` (the JSON of score --json, or of any command's --json); - reads standard input")
	verdicts := cli.InputFlag(fs, "verdicts", "", "verdict `FILE` of the same run (the CSV of score --out)")
	title := fs.String("title", "", "report `title` (default: \"Evaluation report: <dataset file name>\")")
	asJSON := fs.Bool("json", false, "print the result as one JSON document instead of the text report")
	exp := cli.AddExportFlags(fs)
	err := cli.ParseNoArgs(e, fs, "the result file goes after --from")
	if err != nil {
		return err
	}
	if *from == "" {
		return cli.Usagef("report: --from RESULT.json is required (save one with evalbook score --json > RESULT.json)")
	}
	if err := exp.Check("report"); err != nil {
		return err
	}
	if *verdicts != "" && !exp.NeedVerdicts() {
		return cli.Usagef("report: --verdicts is only read for --xlsx or --html")
	}
	var data []byte
	if *from == "-" {
		data, err = tabular.ReadAll(e.Stdin, "standard input", 0)
	} else {
		data, err = tabular.ReadFile(*from, 0)
	}
	if err != nil {
		return err
	}
	kind, err := replay.Kind(*from, data)
	if err != nil {
		return err
	}
	if kind != "score" && kind != "judge" {
		return replayReport(e, *from, kind, data, exp, *asJSON, *verdicts != "", *title != "")
	}
	res, tables, err := results.ReadResult(*from, data)
	if err != nil {
		return err
	}
	if *title != "" {
		res.Title = *title
	}
	if !exp.ShowPaths { // a result saved by an older evalbook may hold a path
		res.Dataset.Path = results.DisplayName(res.Dataset.Path)
	}
	if *verdicts != "" {
		if err := checkVerdicts(*verdicts, *from, res); err != nil {
			return err
		}
	}
	if exp.Any() {
		if err := cli.ExportScore(e, exp, res, tables, *verdicts, *verdicts); err != nil {
			return err
		}
		if !*asJSON {
			return nil
		}
	}
	if *asJSON {
		return res.WriteJSON(e.Stdout)
	}
	if err := res.WriteText(e.Stdout); err != nil {
		return err
	}
	for i := range tables {
		fmt.Fprintln(e.Stdout)
		if err := tables[i].WriteText(e.Stdout); err != nil {
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

// replayReport renders a saved result other than score and judge from
// its JSON alone, as the command that saved it renders it: the text (or
// the JSON again, with --json) and, with --xlsx and --html, the workbook
// and the page of its tables. The score-only flags are refused.
func replayReport(e *cli.Env, from, kind string, data []byte, exp *cli.ExportFlags, asJSON, verdicts, title bool) error {
	for _, f := range []struct {
		name string
		set  bool
	}{{"--verdicts", verdicts}, {"--charts", exp.Charts != ""}, {"--title", title}} {
		if f.set {
			return cli.Usagef("report: %s is for score and judge results; %s holds a %s result", f.name, from, kind)
		}
	}
	r, err := replay.Decode(from, kind, data)
	if err != nil {
		return err
	}
	return cli.Render(e, r, &cli.TableExport{JSON: asJSON, XLSX: exp.XLSX, HTML: exp.HTML, Cmd: replay.Command(kind)})
}
