package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/leaderboard"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var leaderboardCommand = cli.Command{Name: "leaderboard", Summary: "rank models from a directory of <model>_<language> response files or harness outputs, with paired tests, ranks and tiers", Run: runLeaderboard}

func runLeaderboard(e *cli.Env) error {
	fs := cli.NewFlags(e, "leaderboard")
	var (
		dir    = cli.InputFlag(fs, "dir", "", "`DIR`ectory of response files; default: the built-in sample")
		metric = fs.String("metric", "", "metric `ids` to rank by, comma-separated, one board each: for response files one of "+strings.Join(score.IDs(), ", ")+
			" (default "+score.Default[0]+"); for harness outputs a metric the harness wrote, such as acc,none (default: the one 0/1 metric every run has), or with --rescore one of evalbook's")
		rescore = fs.Bool("rescore", false, "harness outputs: score their responses with evalbook's --metric (default "+score.Default[0]+") instead of ranking by the harness's own per-sample values; the board says it is a re-score")
		asJSON  = fs.Bool("json", false, "print one JSON document instead of tables")
		alpha   = fs.Float64("alpha", 0.05, "significance `level` of the paired test that marks a leader")
		tiers   = cli.AddChoice(fs, "tiers-correction", "multiple-testing `correction` of the tier tests: holm or bh", stats.CorrectionHolm, stats.CorrectionBH)
		cols    = cli.AddColumnFlags(fs, "name of the question id `column` (pairs questions across models)")
		repair  = fs.Bool("repair-utf8", false, "replace invalid UTF-8 in CSV and JSONL files with U+FFFD and count the rows, instead of stopping with an error")
	)
	export := &cli.TableExport{Counted: true}
	cli.PathFlag(fs, &export.XLSX, "xlsx", "", cli.Output, "write the boards as an Excel workbook `FILE` (sheets per metric: cells, leaders, domains, tiers, signal to noise)")
	cli.PathFlag(fs, &export.HTML, "html", "", cli.Output, "write the boards as one self-contained HTML `FILE`")
	normalize := cli.AddNormalizeFlag(fs, "normalisation `profile` applied before scoring: none, nfc, indic, indic_stem")
	iv := cli.AddOptionalIntervalFlags(fs, "for corpus-level metrics")
	if err := cli.ParseNoArgs(e, fs, "the directory goes after --dir"); err != nil {
		return err
	}
	if !(*alpha > 0 && *alpha < 1) {
		return cli.Usagef("leaderboard: --alpha must lie between 0 and 1")
	}
	var inputs []leaderboard.Input
	var err error
	if *dir == "" {
		fmt.Fprintln(e.Stderr, "evalbook leaderboard: no --dir given; using the built-in sample datasets/leaderboard")
		inputs, err = leaderboard.DiscoverFS(datasets.Leaderboard, "leaderboard")
		for i := range inputs {
			inputs[i].Name = "datasets/" + inputs[i].Path // where the sample lives in the repository
		}
	} else {
		var skipped []string
		inputs, skipped, err = leaderboard.DiscoverDir(e.Ctx, *dir)
		if len(skipped) > 0 {
			fmt.Fprintf(e.Stderr, "evalbook leaderboard: %s: not harness outputs, left out: %s\n", *dir, strings.Join(skipped, ", "))
		}
	}
	if err != nil {
		return err
	}
	ids, err := leaderboardMetrics(fs, inputs, *metric, *rescore)
	if err != nil {
		return err
	}
	boards, err := leaderboard.BuildAll(e.Ctx, inputs, ids, leaderboard.Options{
		Profile: *normalize, Confidence: iv.Confidence(), Alpha: *alpha, TierCorrection: *tiers, Resamples: iv.Resamples(), Seed: iv.Seed(),
		Columns: *cols, RepairUTF8: *repair, Rescore: *rescore, Advice: leaderboardAdvice,
	})
	if err != nil {
		return scoreHint(err, *repair)
	}
	if err := export.WriteReport(e, "Leaderboard", boards); err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(e.Stdout, boards)
	}
	return boards.WriteText(e.Stdout)
}

var leaderboardAdvice = map[string]string{
	qa.CodeNotNFC:              "consider --normalize nfc (or indic)",
	qa.CodeNoInterval:          "pass --resamples N (e.g. --resamples 1000) for a bootstrap interval over rows",
	interop.CodeHarnessMetrics: "--rescore scores the responses with evalbook's metrics instead",
	interop.CodeRescored:       "name one of them with --metric, without --rescore, to rank by the harness's own values",
}

// leaderboardMetrics is --metric as a list of metric names, one board
// each ("" for the default): evalbook ids for response files; for
// harness outputs names that may hold commas (acc,none), each checked
// (leaderboard.ResolveMetric), and the flags that apply only to scoring
// text refused when no board re-scores.
func leaderboardMetrics(fs *flag.FlagSet, inputs []leaderboard.Input, list string, rescore bool) ([]string, error) {
	harness := len(inputs) > 0 && inputs[0].Run != nil
	if !harness {
		if rescore {
			return nil, cli.Usagef("leaderboard: --rescore applies to harness outputs; response files are always scored with evalbook's metrics")
		}
		if list == "" {
			return []string{""}, nil
		}
		ms, err := score.ParseList(list)
		if err != nil {
			return nil, cli.Usagef("leaderboard: --metric: %v", err)
		}
		ids := make([]string, len(ms))
		for i, m := range ms {
			ids[i] = m.ID
		}
		return ids, nil
	}
	names := []string{""}
	if list != "" {
		names = leaderboard.SplitMetrics(list, inputs)
	}
	anyRescore := false
	for _, n := range names {
		_, re, err := leaderboard.ResolveMetric(inputs, n, rescore)
		if err != nil {
			return nil, cli.Usagef("leaderboard: --metric: %v", err)
		}
		anyRescore = anyRescore || re
	}
	if !anyRescore {
		given := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
		for _, f := range []string{"normalize", "repair-utf8", "question-col", "answer-col", "domain-col", "response-col", "id-col"} {
			if given[f] {
				return nil, cli.Usagef("leaderboard: --%s applies to scoring text; harness outputs are ranked by the values the harness wrote (add --rescore to score their responses with evalbook's metrics)", f)
			}
		}
	}
	return names, nil
}
