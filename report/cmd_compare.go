package main

import (
	"errors"
	"flag"
	"strings"

	"github.com/evalbook/evalbook/pkg/compare"
	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var compareCommand = cli.Command{Name: "compare", Summary: "compare two versions on the same cases: pass rates, flips, sign test, McNemar", Run: runCompare}

func runCompare(e *cli.Env) error {
	fs := cli.NewFlags(e, "compare")
	oldFile := cli.InputFlag(fs, "old", "", "verdicts of the old version (`FILE`, CSV)")
	newFile := cli.InputFlag(fs, "new", "", "verdicts of the new version (`FILE`, CSV)")
	key := fs.String("key", "id", "`column` that pairs the rows of the two files, or several joined by commas (id,model)")
	metric := fs.String("metric", "", "0/1 `column` to compare (default: the only 0/1 column)")
	by := fs.String("by", "", "group `column` for per-group pass rates")
	ci := cli.AddChoice(fs, "ci", "pass-rate `interval`: wilson, clopper-pearson, jeffreys, beta, bootstrap or bca", "wilson", "clopper-pearson", "jeffreys", "beta", "bootstrap", "bca")
	iv := cli.AddIntervalFlags(fs, "")
	corpus := fs.String("corpus", "", "compare two response files by a corpus `metric` (bleu, bleu_indic, chrf, chrf_pp, ter) with sacreBLEU's paired bootstrap and approximate randomization tests")
	refs := fs.String("references", "", "with --corpus: a list `column` of several references per item (a JSON array of strings per cell, or text split on --ref-sep), instead of answer")
	refSep := fs.String("ref-sep", "", "with --references: the `separator` between references in a cell (default: the cell is a JSON array)")
	tests := cli.AddChoice(fs, "tests", "with --corpus: which `tests`: both, bs (paired bootstrap, 1000 resamples) or ar (approximate randomization, 10000 trials)", "both", "bs", "ar")
	trials := fs.Int("trials", 0, "with --corpus: approximate randomization `trials` (default 10000, as sacreBLEU)")
	format := fs.String("format", "auto", "with harness outputs: their `format` (auto, "+strings.Join(interop.Formats(), ", ")+")")
	export := cli.AddTableExportFlags(fs)
	args, err := cli.ParseFlags(e, fs, cli.InputArgs)
	if err != nil {
		return err
	}
	if len(args) == 2 && *oldFile == "" && *newFile == "" { // evalbook compare runA/ runB/
		*oldFile, *newFile, args = args[0], args[1], nil
	}
	if len(args) > 0 {
		return cli.Usagef("compare: unexpected argument %q (give --old and --new, or two harness outputs)", args[0])
	}
	if *oldFile == "" || *newFile == "" {
		return cli.Usagef("compare: --old and --new are required (see evalbook compare --help)")
	}
	if *corpus != "" {
		return runCompareCorpus(e, fs, export, *oldFile, *newFile, *key, compare.CorpusOptions{Metric: *corpus, References: *refs,
			RefSeparator: *refSep, Tests: *tests, Trials: *trials}, iv)
	}
	if *refs != "" || *refSep != "" || *trials != 0 {
		return cli.Usagef("compare: --references, --ref-sep and --trials go with --corpus")
	}
	opt := compare.Options{Metric: *metric, By: *by, CI: *ci, Confidence: iv.Confidence(), Resamples: iv.Resamples(), Seed: iv.Seed()}
	for _, c := range strings.Split(*key, ",") { // not SplitList: an empty name is an error
		opt.Key = append(opt.Key, strings.TrimSpace(c))
	}
	if err := opt.Validate(); err != nil {
		return compareUsage(err, *key)
	}
	var res *results.Comparison
	if _, ok := interop.Harness(*oldFile, *format); ok {
		res, err = interop.Compare(e.Ctx, *oldFile, *newFile, opt, interop.Options{Format: *format})
	} else if res, err = compare.Files(*oldFile, *newFile, opt); err == nil && (export.HTML != "" || export.XLSX != "") {
		// The page and the workbook list the cases that changed with
		// their question, golden answer and both responses.
		err = compare.Texts(*oldFile, *newFile, opt.Key, compare.DefaultTextColumns, res)
	}
	if err != nil {
		return err
	}
	return cli.Render(e, res, export)
}

// runCompareCorpus is compare --corpus: sacreBLEU's defaults (1000
// resamples, 10000 trials, seed 12345) unless --resamples or --seed is
// given.
func runCompareCorpus(e *cli.Env, fs *flag.FlagSet, export *cli.TableExport, oldFile, newFile, key string, opt compare.CorpusOptions, iv *cli.IntervalFlags) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, f := range []string{"metric", "by", "ci", "confidence", "format"} {
		if set[f] {
			return cli.Usagef("compare: --%s does not go with --corpus", f)
		}
	}
	if opt.Trials < 0 {
		return cli.Usagef("compare: --trials %d: want a positive count", opt.Trials)
	}
	opt.Seed = stats.DefaultCorpusSeed
	if set["seed"] {
		opt.Seed = iv.Seed()
	}
	if set["resamples"] {
		opt.Resamples = iv.Resamples()
	}
	for _, c := range strings.Split(key, ",") {
		opt.Key = append(opt.Key, strings.TrimSpace(c))
	}
	if m, err := score.Lookup(opt.Metric); err != nil || m.Corpus == nil {
		return cli.Usagef("compare: --corpus %q: want a corpus-level metric (bleu, bleu_indic, chrf, chrf_pp, ter)", opt.Metric)
	}
	res, err := compare.Corpus(oldFile, newFile, opt)
	if err != nil {
		return err
	}
	return cli.Render(e, res, export)
}

// compareUsage words an error of compare.Options.Validate for the flags.
func compareUsage(err error, key string) error {
	var oe *compare.OptionError
	if !errors.As(err, &oe) {
		return err
	}
	switch oe.Err {
	case compare.ErrKeyEmpty:
		return cli.Usagef("compare: --key %q: want a column name, or several joined by commas (id,model)", key)
	case compare.ErrKeyRepeated:
		return cli.Usagef("compare: --key %q names %s twice", key, oe.Value)
	case compare.ErrKeyOverlap:
		return cli.Usagef("compare: --key must name a column other than --metric and --by")
	}
	return cli.Usagef("compare: %v", err)
}
