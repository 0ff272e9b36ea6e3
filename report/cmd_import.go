package main

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var importCommand = cli.Command{Name: "import", Summary: "read lm-eval, inspect, promptfoo, Every Eval Ever, lighteval or OpenAI batch outputs; --check their reported figures", Run: runImport}

func runImport(e *cli.Env) error {
	fs := cli.NewFlags(e, "import")
	format := fs.String("format", "auto", "the harness `format`: auto, "+strings.Join(interop.Formats(), ", "))
	requests := cli.InputFlag(fs, "requests", "", "openai-batch: the request `FILE` to join the output with")
	out := cli.OutputFlag(fs, "out", "", "write the rows to `FILE` (.csv, .jsonl, or .parquet with the Parquet writer)")
	check := fs.Bool("check", false, "recompute the reported aggregates from the per-sample records: exit 0 only when every figure matches from all the samples it covers; 3 when one differs, is partial (fewer samples than the harness says) or nothing could be checked; 1 when a sample's value is not a number")
	dropDups := fs.Bool("drop-duplicates", false, "keep the first of duplicated samples (the same id twice) and count the rest as dropped, with a warning; without it a duplicate is an error naming both places")
	root := new(string) // bounds the paths the harness files name: neither read whole nor written
	cli.PathFlag(fs, root, "root", "", cli.Scope, "the `FOLDER` that paths named inside the harness files (EEE's detailed_evaluation_results.file_path) must resolve in; default the folder imported, or the file's folder")
	export := cli.AddTableExportFlags(fs)
	rec := cli.AddRecordFlag(fs) // --record, --record-title, --record-model, --store
	defer rec.Close()
	args, err := cli.ParseFlags(e, fs, cli.InputArgs)
	if err != nil {
		return err
	}
	switch {
	case len(args) == 0:
		return cli.Usagef("import: give the harness output PATH (a folder or a file)")
	case len(args) > 1:
		return cli.Usagef("import: one PATH at a time (got %q and %q)", args[0], args[1])
	}
	if *format != "auto" && !slices.Contains(interop.Formats(), *format) {
		return cli.Usagef("import: --format %q: want auto, %s", *format, strings.Join(interop.Formats(), ", "))
	}
	rowFormat := ""
	if *out != "" {
		if *out == "-" {
			return cli.Usagef("import: --out needs a file name")
		}
		rowFormat = interop.RowFormatOf(*out)
		if rowFormat != "csv" && rowFormat != "jsonl" && !interop.CanWriteRows(rowFormat) {
			return cli.Usagef("import: --out %q: write .csv or .jsonl (.parquet needs the Parquet writer)", *out)
		}
	}
	opt := interop.Options{Format: *format, Requests: *requests, DropDuplicates: *dropDups, Root: *root}
	if err := importRecord(e, args[0], opt, rec); err != nil {
		return err
	}
	if *check && *out == "" {
		rep, err := interop.Check(e.Ctx, args[0], opt) // streams: nothing is kept per sample
		if err != nil {
			return err
		}
		return importCheckDone(e, rep, export)
	}
	if *out == "" {
		sum, err := interop.SummarizeFrom(e.Ctx, args[0], opt) // a sample at a time
		if err != nil {
			return err
		}
		return cli.Render(e, sum, export)
	}
	// The rows are written as they are read (the texts of a sample are
	// held only while it is written), so a file of any size converts in
	// the memory of a few rows.
	w, commit, abort, err := cli.CreateAtomic(*out)
	if err != nil {
		return err
	}
	defer abort()
	_, sum, err := interop.WriteRowsFrom(e.Ctx, w, args[0], opt, rowFormat)
	if err != nil {
		if errors.Is(err, interop.ErrRowFormat) {
			return cli.Usagef("import: --out: %v", err)
		}
		return err
	}
	if err := commit(); err != nil {
		return err
	}
	if *check {
		rep, err := interop.Check(e.Ctx, args[0], opt) // another pass, streaming too
		if err != nil {
			return err
		}
		return importCheckDone(e, rep, export)
	}
	sum.Out = *out
	return cli.Render(e, sum, export)
}

func importCheckDone(e *cli.Env, rep *interop.CheckReport, export *cli.TableExport) error {
	export.Cmd = "import --check"
	if err := cli.Render(e, rep, export); err != nil {
		return err
	}
	if !rep.OK() {
		return &cli.SilentError{Code: cli.ExitGateFailed} // the differing, partial or unchecked figures and the verdict are printed above
	}
	return nil
}

// importRecord keeps the imported run in the run store (--record): every
// sample a row keyed "task / sample id" with the harness's own per-sample
// metrics, the figures per task as score reports them (interop.Score), so
// gate, history, aa and runs diff work on it. Without --record it does
// nothing.
func importRecord(e *cli.Env, path string, opt interop.Options, rec *cli.RecordFlags) error {
	hook, err := rec.Hook(e, store.Columns{}, nil)
	if err != nil || hook == nil {
		return err
	}
	res, err := interop.Score(e.Ctx, path, interop.ScoreOptions{Read: opt, Rows: hook})
	if err != nil {
		return err
	}
	res.Tool = "evalbook " + version
	res.Created = results.Now()
	res.Dataset.Path = filepath.Base(filepath.Clean(path))
	return rec.Score(e, "import", res)
}
