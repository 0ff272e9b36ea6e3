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
	"github.com/evalbook/evalbook/pkg/parquetio"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/sample"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/pkg/textnorm"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var scoreCommand = cli.Command{Name: "score", Summary: "score model responses against golden answers (per-group and combined accuracy)", Run: runScore}

// scoreFlags are score's flags.
type scoreFlags struct {
	responses, metrics, out, cluster, format, eeeModel *string
	outDir, sheet, partBy, refsCol, refSep, title, ci  *string
	pqCodec                                            *string
	asJSON, repair, rawCSV                             *bool
	examples, pqRows                                   *int
	by                                                 cli.MultiFlag
	cols                                               *qa.Columns
	normalize                                          *textnorm.Profile
	wbLimits                                           *cli.WorkbookLimitFlags
	iv                                                 *cli.IntervalFlags
	exp                                                *cli.ExportFlags
	rec                                                *cli.RecordFlags
	given                                              map[string]bool // the flags given, after parsing
}

func addScoreFlags(fs *flag.FlagSet) *scoreFlags {
	f := &scoreFlags{
		responses: cli.InputFlag(fs, "responses", "", "response table `FILE` (.csv, .jsonl, .xlsx); default: the built-in sample"),
		metrics:   fs.String("metrics", strings.Join(score.Default, ","), "comma-separated metric `ids` to score, in output order"),
		out:       cli.OutputFlag(fs, "out", "", "write the verdict `FILE` (CSV): input columns, one column per metric, matching_words, total_golden_words, blank_response, empty_golden; - writes it to standard output and the report to standard error"),
		asJSON:    fs.Bool("json", false, "print one JSON document (the accuracy JSON) instead of tables"),
		cluster:   fs.String("cluster", "", "`column` whose equal values form a cluster (e.g. a passage or question id): clustered intervals"),
		examples:  fs.Int("examples", 5, "example rows shown per agreement bucket"),
		format:    fs.String("format", "", "input `format` (csv, jsonl, xlsx, parquet, or a harness output: "+strings.Join(interop.Formats(), ", ")+"); default: from the file"),
		eeeModel:  fs.String("model", "", "with --out NAME.eee.json: the model `id` (model_info.id) of the Every Eval Ever export"),
		repair:    fs.Bool("repair-utf8", false, "replace invalid UTF-8 with U+FFFD and count the rows, instead of stopping with an error"),
		cols:      cli.AddColumnFlags(fs, "name of the optional id `column`"),
		rawCSV:    cli.AddRawCSVFlag(fs),
		outDir:    cli.OutputDirFlag(fs, "out-dir", "also write the verdict rows to a new Hive-partitioned Parquet `DIR` (with --partition-by); DuckDB reads it with read_parquet('DIR/**/*.parquet', hive_partitioning = true)"),
		wbLimits:  cli.AddWorkbookLimitFlags(fs),
		sheet:     fs.String("sheet", "", "the `sheet` of an .xlsx input to read (default: the first)"),
		partBy:    fs.String("partition-by", "", "comma-separated input `columns` that --out-dir partitions by, outermost first (e.g. model,language)"),
		refsCol:   fs.String("references", "", "list `column` of several references per item for bleu, bleu_indic, chrf, chrf_pp, ter and rouge (a JSON array of strings per cell, or text split on --ref-sep); the other metrics keep the answer column"),
		refSep:    fs.String("ref-sep", "", "with --references: the `separator` between references in a cell (default: each cell is a JSON array)"),
		title:     fs.String("title", "", "report `title` of the workbook and the page (default: \"Evaluation report: <dataset file name>\")"),
	}
	f.normalize = cli.AddNormalizeFlag(fs, "normalisation `profile` applied to both sides before scoring: none (seed protocols exactly), nfc, indic, indic_stem (indic plus light Hindi/Bengali suffix stripping)")
	f.pqRows = fs.Int("parquet-row-group-rows", 0, "rows in each row group of --out FILE.parquet (`N`; 0: 16,384): larger groups keep more of a table's repeats in one dictionary (a small table sorted by model), for more of the writer's memory")
	f.pqCodec = cli.AddChoice(fs, "parquet-compression", "`codec` of the Parquet pages --out FILE.parquet and --out-dir write: snappy (the default of pyarrow, Spark and DuckDB), zstd (about 30% smaller files, more CPU) or none (the least CPU, files about 3 times as large)", "snappy", "zstd", "none")
	f.ci = cli.AddChoice(fs, "ci", "confidence interval `method`: wilson, clopper-pearson, jeffreys, beta, bootstrap, bca or none", "wilson", "clopper-pearson", "jeffreys", "beta", "bootstrap", "bca", "none")
	f.iv = cli.AddIntervalFlags(fs, "")
	fs.Var(&f.by, "by", "group by `COL` (repeat for several groupings; COL1,COL2 for a cross grouping; \"\" for none); default Domain")
	f.exp = cli.AddExportFlags(fs) // --xlsx, --html, --charts, --html-rows (exports.go)
	f.rec = cli.AddRecordFlag(fs)  // --record, --store
	return f
}

// runScore scores a response table, or reports a harness output with its
// own metrics (or re-scores its responses with --metrics): flags, then
// options, input, outputs and the scoring run, then the result stamped,
// recorded and rendered.
func runScore(e *cli.Env) error {
	fs := cli.NewFlags(e, "score")
	f := addScoreFlags(fs)
	if err := cli.ParseNoArgs(e, fs, "the response file goes after --responses"); err != nil {
		return err
	}
	if err := f.wbLimits.Apply(); err != nil {
		return err
	}
	defer f.rec.Close()
	opt, err := f.options(e)
	if err != nil {
		return err
	}
	f.given = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.given[fl.Name] = true })
	in, err := f.input(e, &opt)
	if err != nil {
		return err
	}
	defer in.close()
	// --out - sends the verdict file to standard output; the report then
	// goes to standard error, so that the two never mix.
	report := e.Stdout
	if *f.out == "-" {
		report = e.Stderr
	}
	res, outs, err := f.score(e, in, &opt)
	if outs != nil {
		defer outs.Close()
	}
	if err != nil {
		return err
	}
	if err := f.stamp(e, res, in); err != nil {
		return err
	}
	if f.exp.Any() {
		if err := f.export(e, res, outs); err != nil {
			return err
		}
	}
	if *f.asJSON {
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

// options checks the flags that need no input and turns them into
// pkg/qa's options.
func (f *scoreFlags) options(e *cli.Env) (qa.Options, error) {
	if err := f.exp.Check("score"); err != nil {
		return qa.Options{}, err
	}
	if (*f.outDir == "") != (*f.partBy == "") {
		return qa.Options{}, cli.Usagef("score: --out-dir and --partition-by go together")
	}
	ms, err := score.ParseList(*f.metrics)
	if err != nil {
		return qa.Options{}, cli.Usagef("score: --metrics: %v", err)
	}
	if *f.pqRows < 0 {
		return qa.Options{}, cli.Usagef("score: --parquet-row-group-rows must not be negative (0 is the default of %d), not %d", parquetio.DefaultRowGroupRows, *f.pqRows)
	}
	if *f.pqRows > 0 && !output.IsParquet(*f.out) {
		return qa.Options{}, cli.Usagef("score: --parquet-row-group-rows applies to --out FILE.parquet")
	}
	if *f.examples < 0 {
		return qa.Options{}, cli.Usagef("score: --examples must not be negative (0 shows no example rows), not %d", *f.examples)
	}
	if *f.format != "" && !slices.Contains(qa.Formats(), *f.format) && !slices.Contains(interop.Formats(), *f.format) {
		return qa.Options{}, cli.Usagef("score: --format must be one of %s, not %q", strings.Join(qa.Formats(), ", "), *f.format)
	}
	if *f.refSep != "" && *f.refsCol == "" {
		return qa.Options{}, cli.Usagef("score: --ref-sep goes with --references")
	}
	f.cols.References = *f.refsCol
	opt := qa.Options{
		Sheet:        *f.sheet,
		RefSeparator: *f.refSep,
		Columns:      *f.cols,
		Metrics:      ms,
		Profile:      *f.normalize,
		CI:           *f.ci,
		Confidence:   f.iv.Confidence(),
		Resamples:    f.iv.Resamples(),
		Seed:         f.iv.Seed(),
		Cluster:      *f.cluster,
		Examples:     *f.examples,
		RepairUTF8:   *f.repair,
		Format:       qaFormat(*f.format),
		Advice:       scoreAdvice,
		RawCSV:       *f.rawCSV,
	}
	if *f.rawCSV {
		cli.RawCSVNote(e, "score")
	}
	if *f.examples == 0 {
		opt.Examples = -1 // none
	}
	if opt.By, err = qa.ParseBy(f.by); err != nil {
		return qa.Options{}, cli.Usagef("score: --by %v", err)
	}
	return opt, nil
}

// scoreInput is what score reads: a response table (the built-in sample,
// a file, or a harness output's responses to re-score), or a harness
// output reported with its own metrics (own).
type scoreInput struct {
	r        io.Reader
	name     string
	harness  string       // the harness format, "" for a response table
	own      bool         // a harness output with its own metrics
	rescored *interop.Run // the harness run whose responses are re-scored
	file     *os.File
}

func (in *scoreInput) close() {
	if in.file != nil {
		in.file.Close()
	}
}

// input opens what --responses names. The flags of re-scoring are
// refused for a harness output reported with its own metrics.
func (f *scoreFlags) input(e *cli.Env, opt *qa.Options) (*scoreInput, error) {
	in := &scoreInput{name: *f.responses}
	isHarness := false
	if in.name != "" {
		in.harness, isHarness = interop.Harness(in.name, *f.format)
	}
	in.own = isHarness && !f.given["metrics"]
	if in.own {
		// A harness output is reported with the harness's own per-sample
		// metrics; re-scoring its texts happens only when --metrics asks.
		for _, fl := range []string{"cluster", "normalize", "repair-utf8", "question-col", "answer-col", "domain-col", "response-col", "id-col"} {
			if f.given[fl] {
				return nil, cli.Usagef("score: --%s applies to re-scoring; %s is a %s output, reported with its own metrics (add --metrics IDS to re-score its responses with evalbook's metrics)", fl, in.name, in.harness)
			}
		}
		if *f.ci == "bca" {
			return nil, cli.Usagef("score: --ci bca applies to re-scoring; for %s's own metrics use wilson, clopper-pearson, jeffreys, beta, bootstrap or none", in.harness)
		}
	}
	switch {
	case in.name == "":
		fmt.Fprintf(e.Stderr, "evalbook: no --responses given: scoring the built-in sample %s (%d bytes)\n", datasets.ResponsesName, len(datasets.Responses))
		in.r = bytes.NewReader(datasets.Responses)
		in.name = datasets.ResponsesName
	case isHarness && !in.own:
		r, run, err := interop.ResponsesRun(e.Ctx, in.name, interop.Options{Format: in.harness})
		if err != nil {
			return nil, err
		}
		in.r, opt.Format, in.rescored = r, "csv", run
	case !isHarness:
		file, err := os.Open(in.name)
		if err != nil {
			return nil, err
		}
		in.r, in.file = file, file
	}
	return in, nil
}

// score opens the row outputs (--out, --out-dir, the store's rows, a
// spool for the workbook and page), scores the input into them and
// commits them. The caller closes the outputs it gets.
func (f *scoreFlags) score(e *cli.Env, in *scoreInput, opt *qa.Options) (*results.Score, *output.Rows, error) {
	if output.IsEEE(*f.out) && *f.eeeModel == "" {
		return nil, nil, cli.Usagef("score: --out %s: give the model id with --model (model_info.id of the export)", *f.out)
	}
	var partCols []string
	if *f.partBy != "" {
		partCols = strings.Split(*f.partBy, ",")
	}
	outs, err := output.OpenRows(output.RowOptions{Out: *f.out, Stdout: e.Stdout, Dir: *f.outDir, By: partCols, EEEModel: *f.eeeModel, Spool: f.exp.NeedVerdicts(), Compression: *f.pqCodec, RowGroupRows: *f.pqRows})
	var de *output.DirError
	if errors.As(err, &de) {
		return nil, nil, cli.Usagef("score: --out-dir: %v", de.Err)
	} else if err != nil {
		return nil, nil, err
	}
	if opt.Rows, err = f.rec.Hook(e, store.Columns{ID: opt.Columns.ID, Question: opt.Columns.Question, Answer: opt.Columns.Answer, Response: opt.Columns.Response}, nil); err != nil {
		return nil, outs, err
	}
	outs.Attach(opt)
	var res *results.Score
	if in.own {
		res, err = interop.Score(e.Ctx, in.name, interop.ScoreOptions{Read: interop.Options{Format: in.harness}, Rows: opt.Rows, Verdicts: opt.Verdicts, RawCSV: opt.RawCSV,
			Summary: sample.Options{By: opt.By, CI: opt.CI, Confidence: opt.Confidence, Resamples: opt.Resamples, Seed: opt.Seed}})
		if err == nil && !f.exp.ShowPaths {
			res.Dataset.Path = filepath.Base(filepath.Clean(in.name))
		}
	} else if res, err = qa.Score(e.Ctx, in.r, in.name, *opt); err != nil {
		err = scoreHint(err, *f.repair)
	}
	if err != nil {
		return nil, outs, err
	}
	said, err := outs.Commit(res)
	for _, s := range said {
		fmt.Fprintf(e.Stderr, "evalbook: wrote %s\n", s)
	}
	return res, outs, err
}

// stamp names the tool, time, title and path of a result, words its
// warnings with score's flags, marks a re-score and records the run
// (--record).
func (f *scoreFlags) stamp(e *cli.Env, res *results.Score, in *scoreInput) error {
	res.Tool = "evalbook " + version
	res.Created = results.Now()
	res.Title = *f.title
	if f.exp.ShowPaths {
		res.Dataset.Path = in.name
	}
	flagHints(res.Warnings)
	if in.rescored != nil {
		if err := interop.MarkRescore(res, in.rescored); err != nil {
			return err
		}
	}
	return f.rec.Score(e, "score", res)
}

// export writes the workbook, page and charts of a result (--xlsx,
// --html, --charts) with its verdict rows.
func (f *scoreFlags) export(e *cli.Env, res *results.Score, outs *output.Rows) error {
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
	return cli.ExportScore(e, f.exp, res, tables, verdicts, vname)
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
