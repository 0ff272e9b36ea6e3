package main

import (
	"fmt"
	"strings"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/leaderboard"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var leaderboardCommand = cli.Command{Name: "leaderboard", Summary: "score a directory of <model>_<language> response files into a models × languages table", Run: runLeaderboard}

func runLeaderboard(e *cli.Env) error {
	fs := cli.NewFlags(e, "leaderboard")
	var (
		dir    = fs.String("dir", "", "`DIR`ectory of response files; default: the built-in sample")
		metric = fs.String("metric", score.Default[0], "metric `ids` to rank by, comma-separated, one board each: "+strings.Join(score.IDs(), ", "))
		asJSON = fs.Bool("json", false, "print one JSON document instead of tables")
		alpha  = fs.Float64("alpha", 0.05, "significance `level` of the paired test that marks a leader")
		tiers  = cli.AddChoice(fs, "tiers-correction", "multiple-testing `correction` of the tier tests: holm or bh", stats.CorrectionHolm, stats.CorrectionBH)
		cols   = cli.AddColumnFlags(fs, "name of the question id `column` (pairs questions across models)")
		repair = fs.Bool("repair-utf8", false, "replace invalid UTF-8 in CSV and JSONL files with U+FFFD and count the rows, instead of stopping with an error")
	)
	export := &cli.TableExport{Counted: true}
	fs.StringVar(&export.XLSX, "xlsx", "", "write the boards as an Excel workbook `FILE` (sheets per metric: cells, leaders, domains, tiers, signal to noise)")
	fs.StringVar(&export.HTML, "html", "", "write the boards as one self-contained HTML `FILE`")
	normalize := cli.AddNormalizeFlag(fs, "normalisation `profile` applied before scoring: none, nfc, indic, indic_stem")
	iv := cli.AddOptionalIntervalFlags(fs, "for corpus-level metrics")
	if err := cli.ParseNoArgs(e, fs, "the directory goes after --dir"); err != nil {
		return err
	}
	ms, err := score.ParseList(*metric)
	if err != nil {
		return cli.Usagef("leaderboard: --metric: %v", err)
	}
	if !(*alpha > 0 && *alpha < 1) {
		return cli.Usagef("leaderboard: --alpha must lie between 0 and 1")
	}
	var inputs []leaderboard.Input
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
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.ID)
	}
	boards, err := leaderboard.BuildAll(e.Ctx, inputs, ids, leaderboard.Options{
		Profile: *normalize, Confidence: iv.Confidence(), Alpha: *alpha, TierCorrection: *tiers, Resamples: iv.Resamples(), Seed: iv.Seed(),
		Columns: *cols, RepairUTF8: *repair, Advice: leaderboardAdvice,
	})
	if err != nil {
		return scoreHint(err, *repair)
	}
	if err := export.WriteFiles(e, "Leaderboard", boards.Tables()); err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(e.Stdout, boards)
	}
	return boards.WriteText(e.Stdout)
}

var leaderboardAdvice = map[string]string{
	qa.CodeNotNFC:     "consider --normalize nfc (or indic)",
	qa.CodeNoInterval: "pass --resamples N (e.g. --resamples 1000) for a bootstrap interval over rows",
}
