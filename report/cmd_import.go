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

func runImport(e *env) error {
	fs := newFlags(e, "import")
	format := fs.String("format", "auto", "the harness `format`: auto, "+strings.Join(interop.Formats(), ", "))
	requests := fs.String("requests", "", "openai-batch: the request `FILE` to join the output with")
	out := fs.String("out", "", "write the rows to `FILE` (.csv, .jsonl, or .parquet with the Parquet writer)")
	check := fs.Bool("check", false, "recompute the reported aggregates from the per-sample records (exit 3 if any differs)")
	export := addTableExportFlags(fs)
	args, err := parseFlags(e, fs)
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
		return importCheckDone(e, rep, export)
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
		return importCheckDone(e, interop.CheckRun(run), export)
	}
	sum := interop.Summarize(run)
	sum.Out = *out
	return render(e, sum, export)
}

func importCheckDone(e *env, rep *interop.CheckReport, export *tableExport) error {
	export.cmd = "import --check"
	if err := render(e, rep, export); err != nil {
		return err
	}
	if !rep.OK() {
		return &silentError{code: exitGateFailed} // the differing figures are printed above
	}
	return nil
}
