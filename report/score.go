package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/output"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/sample"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var scoreCommand = cli.Command{Name: "score", Summary: "score model responses against golden answers (per-group and combined accuracy)", Run: runScore}

func runScore(e *cli.Env) error {
	fs := cli.NewFlags(e, "score")
	var (
		responses = cli.InputFlag(fs, "responses", "", "response table `FILE` (.csv, .jsonl, .xlsx); default: the built-in sample")
		metrics   = fs.String("metrics", strings.Join(score.Default, ","), "comma-separated metric `ids` to score, in output order")
		by        cli.MultiFlag
		out       = cli.OutputFlag(fs, "out", "", "write the verdict `FILE` (CSV): input columns, one column per metric, matching_words, total_golden_words, blank_response, empty_golden; - writes it to standard output and the report to standard error")
		asJSON    = fs.Bool("json", false, "print one JSON document (the accuracy JSON) instead of tables")
		cluster   = fs.String("cluster", "", "`column` whose equal values form a cluster (e.g. a passage or question id): clustered intervals")
		examples  = fs.Int("examples", 5, "example rows shown per agreement bucket")
		format    = fs.String("format", "", "input `format` (csv, jsonl, xlsx, parquet, or a harness output: "+strings.Join(interop.Formats(), ", ")+"); default: from the file")
		eeeModel  = fs.String("model", "", "with --out NAME.eee.json: the model `id` (model_info.id) of the Every Eval Ever export")
		repair    = fs.Bool("repair-utf8", false, "replace invalid UTF-8 with U+FFFD and count the rows, instead of stopping with an error")
		cols      = cli.AddColumnFlags(fs, "name of the optional id `column`")
		rawCSV    = cli.AddRawCSVFlag(fs)
		outDir    = cli.OutputDirFlag(fs, "out-dir", "also write the verdict rows to a new Hive-partitioned Parquet `DIR` (with --partition-by); DuckDB reads it with read_parquet('DIR/**/*.parquet', hive_partitioning = true)")
		wbLimits  = cli.AddWorkbookLimitFlags(fs)
		sheet     = fs.String("sheet", "", "the `sheet` of an .xlsx input to read (default: the first)")
		partBy    = fs.String("partition-by", "", "comma-separated input `columns` that --out-dir partitions by, outermost first (e.g. model,language)")
		refsCol   = fs.String("references", "", "list `column` of several references per item for bleu, bleu_indic, chrf, chrf_pp, ter and rouge (a JSON array of strings per cell, or text split on --ref-sep); the other metrics keep the answer column")
		refSep    = fs.String("ref-sep", "", "with --references: the `separator` between references in a cell (default: each cell is a JSON array)")
		title     = fs.String("title", "", "report `title` of the workbook and the page (default: \"Evaluation report: <dataset file name>\")")
	)
	normalize := cli.AddNormalizeFlag(fs, "normalisation `profile` applied to both sides before scoring: none (seed protocols exactly), nfc, indic, indic_stem (indic plus light Hindi/Bengali suffix stripping)")
	pqCodec := cli.AddChoice(fs, "parquet-compression", "`codec` of the Parquet pages --out FILE.parquet and --out-dir write: snappy (the default of pyarrow, Spark and DuckDB), zstd (about 30% smaller files, more CPU) or none (the least CPU, files about 3 times as large)", "snappy", "zstd", "none")
	ci := cli.AddChoice(fs, "ci", "confidence interval `method`: wilson, clopper-pearson, jeffreys, beta, bootstrap, bca or none", "wilson", "clopper-pearson", "jeffreys", "beta", "bootstrap", "bca", "none")
	iv := cli.AddIntervalFlags(fs, "")
	fs.Var(&by, "by", "group by `COL` (repeat for several groupings; COL1,COL2 for a cross grouping; \"\" for none); default Domain")
	exp := cli.AddExportFlags(fs) // --xlsx, --html, --charts, --html-rows (exports.go)
	rec := cli.AddRecordFlag(fs)  // --record, --store
	if err := cli.ParseNoArgs(e, fs, "the response file goes after --responses"); err != nil {
		return err
	}
	if err := wbLimits.Apply(); err != nil {
		return err
	}
	defer rec.Close()
	if err := exp.Check("score"); err != nil {
		return err
	}
	if (*outDir == "") != (*partBy == "") {
		return cli.Usagef("score: --out-dir and --partition-by go together")
	}
	ms, err := score.ParseList(*metrics)
	if err != nil {
		return cli.Usagef("score: --metrics: %v", err)
	}
	if *examples < 0 {
		return cli.Usagef("score: --examples must not be negative (0 shows no example rows), not %d", *examples)
	}
	if *format != "" && !slices.Contains(qa.Formats(), *format) && !slices.Contains(interop.Formats(), *format) {
		return cli.Usagef("score: --format must be one of %s, not %q", strings.Join(qa.Formats(), ", "), *format)
	}
	if *refSep != "" && *refsCol == "" {
		return cli.Usagef("score: --ref-sep goes with --references")
	}
	cols.References = *refsCol
	opt := qa.Options{
		Sheet:        *sheet,
		RefSeparator: *refSep,
		Columns:      *cols,
		Metrics:      ms,
		Profile:      *normalize,
		CI:           *ci,
		Confidence:   iv.Confidence(),
		Resamples:    iv.Resamples(),
		Seed:         iv.Seed(),
		Cluster:      *cluster,
		Examples:     *examples,
		RepairUTF8:   *repair,
		Format:       qaFormat(*format),
		Advice:       scoreAdvice,
		RawCSV:       *rawCSV,
	}
	if *rawCSV {
		cli.RawCSVNote(e, "score")
	}
	if *examples == 0 {
		opt.Examples = -1 // none
	}
	if opt.By, err = qa.ParseBy(by); err != nil {
		return cli.Usagef("score: --by %v", err)
	}

	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	var in io.Reader
	var rescored *interop.Run // the harness run whose responses are re-scored
	name := *responses
	harness, isHarness := "", false
	if name != "" {
		harness, isHarness = interop.Harness(name, *format)
	}
	if isHarness && !given["metrics"] {
		// A harness output is reported with the harness's own per-sample
		// metrics; re-scoring its texts happens only when --metrics asks.
		for _, f := range []string{"cluster", "normalize", "repair-utf8", "question-col", "answer-col", "domain-col", "response-col", "id-col"} {
			if given[f] {
				return cli.Usagef("score: --%s applies to re-scoring; %s is a %s output, reported with its own metrics (add --metrics IDS to re-score its responses with evalbook's metrics)", f, name, harness)
			}
		}
		if *ci == "bca" {
			return cli.Usagef("score: --ci bca applies to re-scoring; for %s's own metrics use wilson, clopper-pearson, jeffreys, beta, bootstrap or none", harness)
		}
	}
	if name == "" {
		fmt.Fprintf(e.Stderr, "evalbook: no --responses given: scoring the built-in sample %s (%d bytes)\n", datasets.ResponsesName, len(datasets.Responses))
		in = bytes.NewReader(datasets.Responses)
		name = datasets.ResponsesName
	} else if isHarness && given["metrics"] {
		r, run, err := interop.ResponsesRun(e.Ctx, name, interop.Options{Format: harness})
		if err != nil {
			return err
		}
		in, opt.Format = r, "csv"
		rescored = run
	} else if !isHarness {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}

	// --out - sends the verdict file to standard output; the report then
	// goes to standard error, so that the two never mix.
	report := e.Stdout
	if *out == "-" {
		report = e.Stderr
	}
	if output.IsEEE(*out) && *eeeModel == "" {
		return cli.Usagef("score: --out %s: give the model id with --model (model_info.id of the export)", *out)
	}
	var partCols []string
	if *partBy != "" {
		partCols = strings.Split(*partBy, ",")
	}
	outs, err := output.OpenRows(output.RowOptions{Out: *out, Stdout: e.Stdout, Dir: *outDir, By: partCols, EEEModel: *eeeModel, Spool: exp.NeedVerdicts(), Compression: *pqCodec})
	var de *output.DirError
	if errors.As(err, &de) {
		return cli.Usagef("score: --out-dir: %v", de.Err)
	} else if err != nil {
		return err
	}
	defer outs.Close()
	if opt.Rows, err = rec.Hook(e, store.Columns{ID: opt.Columns.ID, Question: opt.Columns.Question, Answer: opt.Columns.Answer, Response: opt.Columns.Response}, nil); err != nil {
		return err
	}
	outs.Attach(&opt)
	var res *results.Score
	if isHarness && !given["metrics"] {
		res, err = interop.Score(e.Ctx, name, interop.ScoreOptions{Read: interop.Options{Format: harness}, Rows: opt.Rows, Verdicts: opt.Verdicts, RawCSV: opt.RawCSV,
			Summary: sample.Options{By: opt.By, CI: opt.CI, Confidence: opt.Confidence, Resamples: opt.Resamples, Seed: opt.Seed}})
		if err == nil && !exp.ShowPaths {
			res.Dataset.Path = filepath.Base(filepath.Clean(name))
		}
	} else if res, err = qa.Score(e.Ctx, in, name, opt); err != nil {
		err = scoreHint(err, *repair)
	}
	if err != nil {
		return err
	}
	said, err := outs.Commit(res)
	for _, s := range said {
		fmt.Fprintf(e.Stderr, "evalbook: wrote %s\n", s)
	}
	if err != nil {
		return err
	}
	res.Tool = "evalbook " + version
	res.Created = results.Now()
	res.Title = *title
	if exp.ShowPaths {
		res.Dataset.Path = name
	}
	flagHints(res.Warnings)
	if rescored != nil {
		if err := interop.MarkRescore(res, rescored); err != nil {
			return err
		}
	}
	if err := rec.Score(e, "score", res); err != nil {
		return err
	}
	if exp.Any() {
		verdicts, err := outs.VerdictCSV()
		if err != nil {
			return err
		}
		vname := verdicts
		if outs.Spooled() {
			vname = "verdicts of " + res.Dataset.Path
		}
		var tables []results.Table
		if len(res.Reported) > 0 {
			tables = append(tables, res.ReportedTable())
		}
		if err := cli.ExportScore(e, exp, res, tables, verdicts, vname); err != nil {
			return err
		}
	}
	if *asJSON {
		return res.WriteJSON(report)
	}
	if err := res.WriteText(report); err != nil {
		return err
	}
	if w := outs.Wrote(); w != "" {
		fmt.Fprintf(e.Stderr, "evalbook: wrote %s\n", w)
	}
	return nil
}

// scoreHint adds to an error of pkg/qa what the user can do about it
// with score's flags.
func scoreHint(err error, repaired bool) error {
	switch {
	case errors.Is(err, qa.ErrInvalidUTF8) && !repaired:
		return fmt.Errorf("%w; or pass --repair-utf8 to replace bad bytes with U+FFFD and count the rows", err)
	case errors.Is(err, qa.ErrInvalidUTF8):
		return fmt.Errorf("%w (--repair-utf8 repairs CSV and JSONL input only)", err)
	case errors.Is(err, qa.ErrRequiredColumn):
		return fmt.Errorf("%w (name the columns with --question-col, --answer-col, --domain-col, --response-col)", err)
	}
	return err
}

// scoreAdvice closes the warnings pkg/qa words with the flag of score
// that acts on them (qa.Options.Advice): the library's own advice names
// "the nfc or indic profile" and "a bootstrap interval", not its caller's
// flags.
var scoreAdvice = map[string]string{
	qa.CodeNotNFC:     "consider --normalize nfc (or indic)",
	qa.CodeNoInterval: "ask for a bootstrap interval (--ci bootstrap)",
}

// flagHints names score's flag after the warnings pkg/stats words whose
// remedy is a bootstrap interval (their messages end with it), by code.
func flagHints(ws []results.Warning) {
	for i := range ws {
		switch ws[i].Code {
		case stats.CodeFewValues, stats.CodeNearZeroVariance:
			ws[i].Message += " (--ci bootstrap)"
		}
	}
}

// qaFormat is --format as pkg/qa takes it: a harness format is read by
// pkg/interop first and reaches qa as CSV.
func qaFormat(f string) string {
	if slices.Contains(interop.Formats(), f) {
		return "csv"
	}
	return f
}
