package main

import (
	"os"

	"github.com/evalbook/evalbook/pkg/ratings"
)

func init() {
	register(&command{name: "ratings", summary: "Bradley-Terry ratings with bootstrap intervals from pairwise verdicts (model_a, model_b, winner)", run: runRatings})
}

const ratingsHelp = `
Usage: evalbook ratings --pairs FILE [--anchor MODEL] [--resamples N] [--seed S] [--confidence C]
                        [--json] [--xlsx FILE] [--html FILE]

Fits Bradley-Terry ratings to pairwise verdicts: FILE (CSV or JSONL) has the columns model_a,
model_b and winner (a, b or tie), and optionally an item id (item, item_id or id). A tie counts
as half a win to each model. The rating is the log-strength θ, under which A beats B with
probability 1/(1+e^(θB−θA)), with the models' mean at 0 (or --anchor MODEL at 0); elo is
1000 + 400/ln 10 · θ. The fit is the maximum-likelihood estimate by the MM algorithm
(Hunter 2004). Intervals are percentile bootstrap intervals over items (verdicts on one item
are resampled together), or over verdicts when the file has no item column.

When the verdicts fall into groups that no verdict joins, or a group of models never lost
(or never won) against the rest, the estimate does not exist: the command names the groups
and exits with status 1 instead of fitting.

JSON output: kind "ratings", source, settings, verdicts, items, replicates, warnings, and
ratings (best first), each with model, rank, rating, ci_low, ci_high, elo, elo_low, elo_high,
comparisons, wins, losses, ties.

Example:
	evalbook ratings --pairs verdicts.csv --anchor baseline-7b --json
`

func runRatings(e *env) error {
	fs := newFlags(e, "ratings", ratingsHelp)
	pairs := fs.String("pairs", "", "pairwise verdict `FILE` (CSV or JSONL: model_a, model_b, winner a|b|tie, optional item)")
	anchor := fs.String("anchor", "", "`model` whose rating is 0 (default: the mean rating is 0)")
	asJSON := fs.Bool("json", false, "print one JSON document")
	export := addTableExportFlags(fs)
	iv := addIntervalFlags(fs, "over items (or verdicts)")
	args, err := parseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("ratings: unexpected argument %q (the file goes after --pairs)", args[0])
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
	return render(e, res, *asJSON, export, "ratings")
}
