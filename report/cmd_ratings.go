package main

import (
	"os"

	"github.com/evalbook/evalbook/pkg/ratings"
)

func init() {
	register(&command{name: "ratings", summary: "Bradley-Terry ratings with bootstrap intervals from pairwise verdicts (model_a, model_b, winner)", run: runRatings})
}

func runRatings(e *env) error {
	fs := newFlags(e, "ratings")
	pairs := fs.String("pairs", "", "pairwise verdict `FILE` (CSV or JSONL: model_a, model_b, winner a|b|tie, optional item)")
	anchor := fs.String("anchor", "", "`model` whose rating is 0 (default: the mean rating is 0)")
	export := addTableExportFlags(fs)
	iv := addIntervalFlags(fs, "over items (or verdicts)")
	if err := parseNoArgs(e, fs, "the file goes after --pairs"); err != nil {
		return err
	}
	if *pairs == "" {
		return usagef("ratings: --pairs FILE is required")
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
	return render(e, res, export)
}
