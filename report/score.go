package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/parquetio"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
)

func init() {
	register(&command{name: "score", summary: "score model responses against golden answers (per-group and combined accuracy)", run: runScore})
}

// multiFlag collects a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, " ") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func runScore(e *env) error {
	fs := newFlags(e, "score")
	var (
		responses = fs.String("responses", "", "response table `FILE` (.csv, .jsonl, .xlsx); default: the built-in sample")
		metrics   = fs.String("metrics", strings.Join(score.Default, ","), "comma-separated metric `ids` to score, in output order")
		by        multiFlag
		out       = fs.String("out", "", "write the verdict `FILE` (CSV): input columns, one column per metric, matching_words, total_golden_words, blank_response, empty_golden; - writes it to standard output and the report to standard error")
		asJSON    = fs.Bool("json", false, "print one JSON document (the accuracy JSON) instead of tables")
		cluster   = fs.String("cluster", "", "`column` whose equal values form a cluster (e.g. a passage or question id): clustered intervals")
		examples  = fs.Int("examples", 5, "example rows shown per agreement bucket")
		format    = fs.String("format", "", "input `format` (csv, jsonl, xlsx, parquet, or a harness output: "+strings.Join(interop.Formats(), ", ")+"); default: from the file")
		eeeModel  = fs.String("model", "", "with --out NAME.eee.json: the model `id` (model_info.id) of the Every Eval Ever export")
		repair    = fs.Bool("repair-utf8", false, "replace invalid UTF-8 with U+FFFD and count the rows, instead of stopping with an error")
		qCol      = fs.String("question-col", qa.DefaultColumns.Question, "name of the question `column`")
		aCol      = fs.String("answer-col", qa.DefaultColumns.Answer, "name of the golden answer `column`")
		dCol      = fs.String("domain-col", qa.DefaultColumns.Domain, "name of the domain `column`")
		rCol      = fs.String("response-col", qa.DefaultColumns.Response, "name of the response `column`")
		idCol     = fs.String("id-col", qa.DefaultColumns.ID, "name of the optional id `column`")
		rawCSV    = addRawCSVFlag(fs)
		outDir    = fs.String("out-dir", "", "also write the verdict rows to a new Hive-partitioned Parquet `DIR` (with --partition-by); DuckDB reads it with read_parquet('DIR/**/*.parquet', hive_partitioning = true)")
		wbLimits  = addWorkbookLimitFlags(fs)
		partBy    = fs.String("partition-by", "", "comma-separated input `columns` that --out-dir partitions by, outermost first (e.g. model,language)")
		title     = fs.String("title", "", "report `title` of the workbook and the page (default: \"Evaluation report: <dataset file name>\")")
	)
	normalize := addNormalizeFlag(fs, "normalisation `profile` applied to both sides before scoring: none (seed protocols exactly), nfc, indic, indic_stem (indic plus light Hindi/Bengali suffix stripping)")
	ci := addChoice(fs, "ci", "confidence interval `method`: wilson, clopper-pearson, jeffreys, beta, bootstrap, bca or none", "wilson", "clopper-pearson", "jeffreys", "beta", "bootstrap", "bca", "none")
	iv := addIntervalFlags(fs, "")
	fs.Var(&by, "by", "group by `COL` (repeat for several groupings; COL1,COL2 for a cross grouping; \"\" for none); default Domain")
	exp := addExportFlags(fs) // --xlsx, --html, --charts, --html-rows (exports.go)
	rec := addRecordFlag(fs)  // --record, --store (record.go)
	if err := parseNoArgs(e, fs, "the response file goes after --responses"); err != nil {
		return err
	}
	if err := wbLimits.apply(); err != nil {
		return err
	}
	defer rec.close()
	if err := exp.check("score"); err != nil {
		return err
	}
	if err := checkOut("score", *out, *responses); err != nil {
		return err
	}
	if (*outDir == "") != (*partBy == "") {
		return usagef("score: --out-dir and --partition-by go together")
	}
	outParquet := strings.EqualFold(filepath.Ext(*out), ".parquet") // typed verdict rows (pkg/parquetio)
	ms, err := score.ParseList(*metrics)
	if err != nil {
		return usagef("score: --metrics: %v", err)
	}
	if *examples < 0 {
		return usagef("score: --examples must not be negative (0 shows no example rows), not %d", *examples)
	}
	if *format != "" && !slices.Contains(qa.Formats(), *format) && !slices.Contains(interop.Formats(), *format) {
		return usagef("score: --format must be one of %s, not %q", strings.Join(qa.Formats(), ", "), *format)
	}
	opt := qa.Options{
		Columns:    qa.Columns{Question: *qCol, Answer: *aCol, Domain: *dCol, Response: *rCol, ID: *idCol},
		Metrics:    ms,
		Profile:    *normalize,
		CI:         *ci,
		Confidence: iv.Confidence(),
		Resamples:  iv.Resamples(),
		Seed:       iv.Seed(),
		Cluster:    *cluster,
		Examples:   *examples,
		RepairUTF8: *repair,
		Format:     qaFormat(*format),
		Advice:     scoreAdvice,
		RawCSV:     *rawCSV,
	}
	if *rawCSV {
		rawCSVNote(e, "score")
	}
	if *examples == 0 {
		opt.Examples = -1 // none
	}
	if opt.By, err = qa.ParseBy(by); err != nil {
		return usagef("score: --by %v", err)
	}

	var in io.Reader
	name := *responses
	if name == "" {
		fmt.Fprintf(e.stderr, "evalbook: no --responses given: scoring the built-in sample %s (%d bytes)\n", datasets.ResponsesName, len(datasets.Responses))
		in = bytes.NewReader(datasets.Responses)
		name = datasets.ResponsesName
	} else if _, ok := interop.Harness(name, *format); ok {
		r, err := interop.ResponsesReader(e.ctx, name, interop.Options{Format: *format})
		if err != nil {
			return err
		}
		in, opt.Format = r, "csv"
	} else {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}

	eeeOut := strings.HasSuffix(strings.ToLower(*out), ".eee.json")
	var kept []*results.Row
	if eeeOut {
		if *eeeModel == "" {
			return usagef("score: --out %s: give the model id with --model (model_info.id of the export)", *out)
		}
		opt.Rows = func(r *results.Row) error { kept = append(kept, r.Clone()); return nil }
	}

	// --out - sends the verdict file to standard output; the report then
	// goes to standard error, so that the two never mix.
	toStdout := *out == "-"
	report := e.stdout
	var commit func() error
	if toStdout {
		bw := bufio.NewWriterSize(e.stdout, 64<<10)
		opt.Verdicts, commit, report = bw, bw.Flush, e.stderr
	} else if *out != "" && !eeeOut {
		w, c, abort, err := createAtomic(*out)
		if err != nil {
			return err
		}
		defer abort()
		if outParquet {
			sink := parquetio.NewFileSink(w, parquetio.WriteOptions{})
			opt.Rows = sink.Row
			commit = func() error {
				if err := sink.Close(); err != nil {
					return err
				}
				return c()
			}
		} else {
			opt.Verdicts, commit = w, c
		}
	}
	if *outDir != "" {
		ds, err := parquetio.NewDirSink(*outDir, parquetio.DirOptions{By: strings.Split(*partBy, ",")})
		if err != nil {
			return usagef("score: --out-dir: %v", err)
		}
		defer ds.Abort()
		prev, prevCommit := opt.Rows, commit
		opt.Rows = func(r *results.Row) error {
			if prev != nil {
				if err := prev(r); err != nil {
					return err
				}
			}
			return ds.Row(r)
		}
		commit = func() error {
			if prevCommit != nil {
				if err := prevCommit(); err != nil {
					return err
				}
			}
			dr, err := ds.Close()
			if err == nil {
				fmt.Fprintf(e.stderr, "evalbook: wrote %s in %s to %s (partitioned by %s)\n", plural(int(dr.Rows), "row", "rows"),
					plural(dr.Files, "file", "files"), dr.Dir, strings.Join(dr.By, ", "))
			}
			return err
		}
	}
	// The workbook and the HTML page list verdict rows: without --out,
	// spool them to a temporary file.
	var spool *verdictSpool
	if exp.needVerdicts() && (*out == "" || toStdout || outParquet) {
		if spool, err = newVerdictSpool(); err != nil {
			return err
		}
		defer spool.remove()
		if toStdout {
			opt.Verdicts = io.MultiWriter(opt.Verdicts, spool)
		} else {
			opt.Verdicts = spool
		}
	}
	if opt.Rows, err = rec.rowHook(e, opt, opt.Rows); err != nil {
		return err
	}
	res, err := qa.Score(e.ctx, in, name, opt)
	if err != nil {
		return scoreHint(err, *repair)
	}
	if commit != nil {
		if err := commit(); err != nil {
			return err
		}
	}
	res.Tool = "evalbook " + version
	res.Created = results.Now()
	res.Title = *title
	if exp.showPaths {
		res.Dataset.Path = name
	}
	flagHints(res.Warnings)
	if eeeOut {
		if err := writeEEE(*out, *eeeModel, res, kept); err != nil {
			return err
		}
	}
	if err := recordRun(e, rec, "score", res, nil); err != nil {
		return err
	}
	if exp.any() {
		verdicts, vname := *out, *out
		if toStdout || outParquet {
			verdicts, vname = "", "" // the spool below, when a report lists rows
		}
		if spool != nil {
			if verdicts, err = spool.finish(); err != nil {
				return err
			}
			vname = "verdicts of " + res.Dataset.Path
		}
		if err := exportScore(e, exp, res, nil, verdicts, vname); err != nil {
			return err
		}
	}
	if *asJSON {
		return res.WriteJSON(report)
	}
	if err := res.WriteText(report); err != nil {
		return err
	}
	if eeeOut {
		fmt.Fprintf(e.stderr, "evalbook: wrote the Every Eval Ever aggregate to %s and %s to %s\n", *out, plural(len(kept), "row", "rows"), interop.EEEInstancePath(*out))
	} else if *out != "" {
		where := *out
		if toStdout {
			where = "standard output"
		}
		fmt.Fprintf(e.stderr, "evalbook: wrote verdicts for %s to %s\n", plural(res.Combined.N, "row", "rows"), where)
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

// writeEEE writes score --out NAME.eee.json: the Every Eval Ever
// aggregate there and its instance JSONL beside it (interop.WriteEEE).
func writeEEE(path, model string, res *results.Score, rows []*results.Row) error {
	inst := interop.EEEInstancePath(path)
	var agg, ins bytes.Buffer
	if err := interop.WriteEEE(&agg, &ins, res, rows, interop.EEEExport{ModelID: model, InstancePath: filepath.Base(inst)}); err != nil {
		return err
	}
	if err := writeAtomic(inst, func(w io.Writer) error { _, err := w.Write(ins.Bytes()); return err }); err != nil {
		return err
	}
	return writeAtomic(path, func(w io.Writer) error { _, err := w.Write(agg.Bytes()); return err })
}
