package main

import (
	"errors"
	"slices"
	"strings"

	"github.com/evalbook/evalbook/pkg/interop"
)

func init() {
	register(&command{name: "import", summary: "read lm-eval, inspect, promptfoo, Every Eval Ever, lighteval or OpenAI batch outputs; --check their reported figures", run: runImport})
}

const importHelp = `
Usage: evalbook import PATH [--format auto|lm-eval|lighteval|inspect|promptfoo|eee|openai-batch]
       [--requests FILE] [--out rows.jsonl|rows.csv|rows.parquet] [--check] [--json] [--xlsx FILE] [--html FILE]

Reads another evaluation harness's per-sample output into evalbook rows (model, task, language,
sample id, each metric's value, and prompt, response and golden answer when the format has them):
  lm-eval       an lm-evaluation-harness --output_path folder (results_*.json, samples_<task>_*.jsonl
                from --log_samples), or one of its files; also the JSON-array files of lm-eval < 0.4.3
  inspect       an inspect_ai .eval log (also one still being written) or .json log
  promptfoo     the file of promptfoo eval -o results.json (results versions 2 and 3)
  eee           an Every Eval Ever aggregate .json (schemas 0.2.x, 0.3.0) or a folder of them; the
                instance JSONL it names is looked for beside it and in the folders above it
  lighteval     a lighteval output folder or results_*.json (details_*.parquet need the Parquet reader)
  openai-batch  an OpenAI Batch API output .jsonl, joined with its request file by custom_id
                (--requests, or the file beside it named with "input" for "output")
--format auto (the default) tells them apart by their names and first bytes.

--check recomputes every (task, metric) figure the harness reported from its per-sample records
(the mean; for a reported standard error, the sample standard deviation over sqrt(n)) and prints
them side by side. They agree within 1e-9 (none of these harnesses rounds what it writes); a figure
that is not a mean of per-sample values (an lm-eval group, a corpus BLEU) is listed as not
recomputed, with the reason. Exit status: 0 all agree, 3 any differs, 1 a bad file, 2 a bad flag.
--json prints {"format", "source", "records", "tasks": [{"task", "metric", "n", "recomputed",
"reported", "match"}], ...}.

--out writes the rows: .csv (formula cells guarded), .jsonl, or .parquet when the Parquet writer
is linked in.

Example:
	evalbook import out/ --check
	evalbook import logs/2026-12-01_qa.eval --out rows.csv
`

func runImport(e *env) error {
	fs := newFlags(e, "import", importHelp)
	format := fs.String("format", "auto", "the harness `format`: auto, "+strings.Join(interop.Formats(), ", "))
	requests := fs.String("requests", "", "openai-batch: the request `FILE` to join the output with")
	out := fs.String("out", "", "write the rows to `FILE` (.csv, .jsonl, or .parquet with the Parquet writer)")
	check := fs.Bool("check", false, "recompute the reported aggregates from the per-sample records (exit 3 if any differs)")
	asJSON := fs.Bool("json", false, "print one JSON document")
	export := addTableExportFlags(fs)
	args, err := kitParse(e, fs)
	if err != nil {
		return err
	}
	switch {
	case len(args) == 0:
		return usagef("import: give the harness output PATH (a folder or a file)")
	case len(args) > 1:
		return usagef("import: one PATH at a time (got %q and %q)", args[0], args[1])
	}
	if *format != "auto" && !slices.Contains(interop.Formats(), *format) {
		return usagef("import: --format %q: want auto, %s", *format, strings.Join(interop.Formats(), ", "))
	}
	rowFormat := ""
	if *out != "" {
		if *out == "-" {
			return usagef("import: --out needs a file name")
		}
		rowFormat = interop.RowFormatOf(*out)
		if rowFormat != "csv" && rowFormat != "jsonl" && !interop.CanWriteRows(rowFormat) {
			return usagef("import: --out %q: write .csv or .jsonl (.parquet needs the Parquet writer)", *out)
		}
	}
	opt := interop.Options{Format: *format, Requests: *requests}
	if *check && *out == "" {
		rep, err := interop.Check(e.ctx, args[0], opt) // streams: nothing is kept per sample
		if err != nil {
			return err
		}
		return importCheckDone(e, rep, *asJSON, export)
	}
	run, err := interop.Read(e.ctx, args[0], opt)
	if err != nil {
		return err
	}
	if *out != "" {
		w, commit, abort, err := createAtomic(*out)
		if err != nil {
			return err
		}
		defer abort()
		if err := interop.WriteRows(w, run, rowFormat); err != nil {
			if errors.Is(err, interop.ErrRowFormat) {
				return usagef("import: --out: %v", err)
			}
			return err
		}
		if err := commit(); err != nil {
			return err
		}
	}
	if *check {
		return importCheckDone(e, interop.CheckRun(run), *asJSON, export)
	}
	sum := interop.Summarize(run)
	sum.Out = *out
	return render(e, sum, *asJSON, export, "import")
}

func importCheckDone(e *env, rep *interop.CheckReport, asJSON bool, export *tableExport) error {
	if err := render(e, rep, asJSON, export, "import --check"); err != nil {
		return err
	}
	if !rep.OK() {
		return &silentError{code: exitGateFailed} // the differing figures are printed above
	}
	return nil
}
