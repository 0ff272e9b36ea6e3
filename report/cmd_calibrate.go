package main

import (
	"errors"
	"strings"

	"github.com/evalbook/evalbook/pkg/chart"
	"github.com/evalbook/evalbook/pkg/judge"
)

func init() {
	register(&command{name: "calibrate", summary: "calibrate a pairwise judge against human labels: agreement, kappa, slices, error shapes, usable or not", run: runCalibrate})
}

const calibrateHelp = `
Usage: evalbook calibrate --judge fake:NAME|URL [--pairs FILE] [--model NAME] [--prompt ID]
                          [--swap] [--min-kappa 0.6] [--min-slice 0.6] [--vs ID]
                          [--confidence 0.95] [--resamples N] [--seed N] [--json] [model judge flags]

Asks a pairwise judge about every labelled pair (question, listed facts, answers a and b;
JSON Lines with id, question, facts, a, b, kind, lang, ann1, ann2, final) and compares its
verdicts with the final human labels. The record names the judge, the prompt (name, version,
hash) and the label set (hash), and gives n, agreement with a 95% percentile bootstrap
interval, Cohen's kappa, the confusion matrix (rows: human labels), agreement per kind and
per language, order disagreements (with --swap), and the shape of the judge's wrong decisive
picks: how many went to the longer answer, the one shown first, the uncited one, or the one
in the judge's own style. Then it says whether the judge is usable: kappa at least
--min-kappa and every slice (kind and language) at least --min-slice, with the reasons when
not. A record is stale as soon as the judge, any word of the prompt, or any label changes.
--min-kappa is a kappa (-1 to 1); --min-slice is a share of agreement (0 to 1), not a count.

--swap asks in both orders and calls a disagreement a tie: it turns verdicts that depend on
the order into honest ties, and cannot bring back right verdicts.

Judges: fake:clean, fake:position, fake:verbosity, fake:self, fake:mixed (deterministic
judges with switchable biases; see "evalbook probes"), or the base URL of an
OpenAI-compatible endpoint with --model, asked with a pairwise prompt (default: the
highest version of "pairwise"). For a model judge, replies that break the contract count
as ties and are reported; --vs ID also calibrates the same model with a second prompt and
reports the agreement of each and between them (a large gap means a wording-sensitive
judge); a fake judge does not read the prompt, so --vs with one is a usage error. Model judge flags are those of "evalbook judge": --concurrency, --rpm, --timeout,
--retries, --api-key-env, --model-seed, --cache, --prompts.

With no --pairs the built-in 30 pairs (datasets/judge/pairs.jsonl) are used, and a note says
so on stderr. Thirty pairs give a wide interval, and five pairs per slice are weak evidence
either way: a failing slice says where to label more.

Examples:
	evalbook calibrate --judge fake:mixed
	evalbook calibrate --judge fake:mixed --swap --json
	evalbook calibrate --pairs my_pairs.jsonl --judge http://127.0.0.1:8000/v1 --model Qwen/Qwen2.5-7B-Instruct --swap --vs pairwise@1
`

func runCalibrate(e *env) error {
	fs := newFlags(e, "calibrate", calibrateHelp)
	var (
		pairsPath = fs.String("pairs", "", "labelled pairs `FILE` (JSON Lines); default: the built-in 30 pairs")
		spec      = fs.String("judge", "", "the judge: fake:clean|position|verbosity|self|mixed, or an endpoint `URL`")
		promptID  = fs.String("prompt", "pairwise", "pairwise prompt `ID`: name, name@version or a hash prefix")
		vs        = fs.String("vs", "", "also calibrate with this second prompt `ID` and compare (model judges)")
		swap      = fs.Bool("swap", false, "ask in both orders; a disagreement is a tie")
		minKappa  = fs.Float64("min-kappa", judge.DefaultMinKappa, "lowest acceptable `kappa` (-1 to 1)")
		minSlice  = fs.Float64("min-slice", judge.DefaultMinSlice, "lowest acceptable agreement in any kind or language, a `share` from 0 to 1")
		asJSON    = fs.Bool("json", false, "print one JSON document instead of tables")
		charts    = fs.String("charts", "", "write the per-kind agreement bars and the confusion heat map (PNG and SVG) to `DIR`")
	)
	export := addTableExportFlags(fs)
	cf := addJudgeClientFlags(fs, 8)
	iv := addIntervalFlags(fs, "for the agreement interval")
	args, err := parseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("calibrate: unexpected argument %q", args[0])
	}
	if *spec == "" {
		return usagef("calibrate: --judge is required (fake:NAME or an endpoint URL)")
	}
	copt := judge.CalibrationOptions{MinKappa: *minKappa, MinSlice: *minSlice}
	if err := copt.Validate(); err != nil {
		switch {
		case errors.Is(err, judge.ErrMinKappa):
			return usagef("calibrate: --min-kappa is a kappa, between -1 and 1 (e.g. 0.6), not %v", *minKappa)
		default:
			return usagef("calibrate: --min-slice is the lowest share of agreement a kind or language may show, between 0 and 1 (0.6 means 60%%), not a number of pairs; got %v", *minSlice)
		}
	}
	if *vs != "" && strings.HasPrefix(*spec, "fake:") {
		return usagef("calibrate: --vs compares two prompts of a model judge; a fake judge does not read the prompt, so there is nothing to compare (drop --vs, or give an endpoint URL)")
	}
	p, err := chooseJudgePrompt("calibrate", cf.prompts, *promptID, judge.KindPairwise)
	if err != nil {
		return err
	}
	var p2 judge.Prompt
	if *vs != "" {
		if p2, err = chooseJudgePrompt("calibrate", cf.prompts, *vs, judge.KindPairwise); err != nil {
			return err
		}
	}
	pairs, pairsName, err := loadJudgePairs(e, "calibrate", *pairsPath)
	if err != nil {
		return err
	}
	j, name, m, err := openPairJudge(e, "calibrate", *spec, cf, p)
	if err != nil {
		return err
	}
	if m != nil {
		defer m.close()
	}
	copt.CalibrateOptions = judge.CalibrateOptions{Judge: name, Swap: *swap, Confidence: iv.Confidence(), Resamples: iv.Resamples(), Seed: iv.Seed(), Workers: cf.s.Concurrency}
	copt.Pairs = pairsName
	if *vs != "" {
		copt.Versus = &p2
	}
	tick, finish := judgeProgress(e, len(pairs), "calibrating")
	copt.Progress = tick
	res, err := judge.CalibrateJudge(e.ctx, j, p, pairs, copt)
	finish()
	if m != nil {
		m.report(e)
		if err != nil {
			return m.interrupted(err)
		}
	}
	if err != nil {
		return err
	}
	if *charts != "" {
		if err := calibrationCharts(e, *charts, res.Record); err != nil {
			return err
		}
	}
	return render(e, res, *asJSON, export, "calibrate")
}

// calibrationCharts writes the per-kind agreement bars and the confusion
// heat map of a calibration record.
func calibrationCharts(e *env, dir string, r judge.Record) error {
	kinds, agree, n := r.KindShares()
	bars, err := chart.Calibration("Agreement with the human labels per kind: "+r.Judge, kinds, agree, n)
	if err != nil {
		return err
	}
	labels, m := r.ConfusionMatrix()
	heat, err := chart.Confusion("Human labels against "+r.Judge, "human (final label)", "judge", labels, m)
	if err != nil {
		return err
	}
	return writeFigures(e, dir, []chart.Named{{Name: "calibration-by-kind", Figure: bars}, {Name: "calibration-confusion", Figure: heat}})
}
