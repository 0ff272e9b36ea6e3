package main

import (
	"errors"
	"strings"

	"github.com/evalbook/evalbook/pkg/chart"
	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var calibrateCommand = cli.Command{Name: "calibrate", Summary: "calibrate a pairwise judge against human labels: agreement, kappa, slices, error shapes, usable or not", Run: runCalibrate}

func runCalibrate(e *cli.Env) error {
	fs := cli.NewFlags(e, "calibrate")
	var (
		pairsPath = cli.InputFlag(fs, "pairs", "", "labelled pairs `FILE` (JSON Lines); default: the built-in 30 pairs")
		spec      = fs.String("judge", "", "the judge: fake:clean|position|verbosity|self|mixed, or an endpoint `URL`")
		promptID  = fs.String("prompt", "pairwise", "pairwise prompt `ID`: name, name@version or a hash prefix")
		vs        = fs.String("vs", "", "also calibrate with this second prompt `ID` and compare (model judges)")
		swap      = fs.Bool("swap", false, "ask in both orders; a disagreement is a tie")
		minKappa  = fs.Float64("min-kappa", judge.DefaultMinKappa, "lowest acceptable `kappa` (-1 to 1)")
		minSlice  = fs.Float64("min-slice", judge.DefaultMinSlice, "lowest acceptable agreement in any kind or language, a `share` from 0 to 1")
		charts    = cli.OutputDirFlag(fs, "charts", "write the per-kind agreement bars and the confusion heat map (PNG and SVG) to `DIR`")
	)
	export := cli.AddTableExportFlags(fs)
	cf, prompts := addJudgeClientFlags(fs)
	iv := cli.AddIntervalFlags(fs, "for the agreement interval")
	if err := cli.ParseNoArgs(e, fs, ""); err != nil {
		return err
	}
	if *spec == "" {
		return cli.Usagef("calibrate: --judge is required (fake:NAME or an endpoint URL)")
	}
	copt := judge.CalibrationOptions{MinKappa: *minKappa, MinSlice: *minSlice}
	if err := copt.Validate(); err != nil {
		switch {
		case errors.Is(err, judge.ErrMinKappa):
			return cli.Usagef("calibrate: --min-kappa is a kappa, between -1 and 1 (e.g. 0.6), not %v", *minKappa)
		default:
			return cli.Usagef("calibrate: --min-slice is the lowest share of agreement a kind or language may show, between 0 and 1 (0.6 means 60%%), not a number of pairs; got %v", *minSlice)
		}
	}
	if *vs != "" && strings.HasPrefix(*spec, "fake:") {
		return cli.Usagef("calibrate: --vs compares two prompts of a model judge; a fake judge does not read the prompt, so there is nothing to compare (drop --vs, or give an endpoint URL)")
	}
	p, err := chooseJudgePrompt("calibrate", *prompts, *promptID, judge.KindPairwise)
	if err != nil {
		return err
	}
	var p2 judge.Prompt
	if *vs != "" {
		if p2, err = chooseJudgePrompt("calibrate", *prompts, *vs, judge.KindPairwise); err != nil {
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
		defer m.Close()
	}
	copt.CalibrateOptions = judge.CalibrateOptions{Judge: name, Swap: *swap, Confidence: iv.Confidence(), Resamples: iv.Resamples(), Seed: iv.Seed(), Workers: cf.S.Concurrency}
	copt.Pairs = pairsName
	if *vs != "" {
		copt.Versus = &p2
	}
	tick, finish := cli.Progress(e, len(pairs), "calibrating")
	copt.Progress = tick
	res, err := judge.CalibrateJudge(e.Ctx, j, p, pairs, copt)
	finish()
	if m != nil {
		m.Report(e)
		if err != nil {
			return m.Interrupted(err)
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
	return cli.Render(e, res, export)
}

// calibrationCharts writes the per-kind agreement bars and the confusion
// heat map of a calibration record.
func calibrationCharts(e *cli.Env, dir string, r judge.Record) error {
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
	return cli.WriteFigures(e, dir, []chart.Named{{Name: "calibration-by-kind", Figure: bars}, {Name: "calibration-confusion", Figure: heat}})
}
