package main

import (
	"os"

	"github.com/evalbook/evalbook/pkg/ratings"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var ratingsCommand = cli.Command{Name: "ratings", Summary: "Bradley-Terry ratings with bootstrap intervals from pairwise verdicts (model_a, model_b, winner)", Run: runRatings}

func runRatings(e *cli.Env) error {
	fs := cli.NewFlags(e, "ratings")
	pairs := cli.InputFlag(fs, "pairs", "", "pairwise verdict `FILE` (CSV or JSONL: model_a, model_b, winner a|b|tie, optional item)")
	anchor := fs.String("anchor", "", "`model` whose rating is 0 (default: the mean rating is 0)")
	export := cli.AddTableExportFlags(fs)
	iv := cli.AddIntervalFlags(fs, "over items (or verdicts)")
	if err := cli.ParseNoArgs(e, fs, "the file goes after --pairs"); err != nil {
		return err
	}
	if *pairs == "" {
		return cli.Usagef("ratings: --pairs FILE is required")
	}
	f, err := os.Open(*pairs)
	if err != nil {
		return err
	}
	defer f.Close()
	res, err := ratings.File(f, *pairs, ratings.Options{Resamples: iv.Resamples(), Confidence: iv.Confidence(), Seed: iv.Seed(), Anchor: *anchor})
	if err != nil {
		return err
	}
	return cli.Render(e, res, export)
}
