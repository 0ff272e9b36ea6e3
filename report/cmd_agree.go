package main

import (
	"errors"
	"io"
	"os"
	"slices"

	"github.com/evalbook/evalbook/pkg/agree"
	"github.com/evalbook/evalbook/pkg/chart"
	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var agreeCommand = cli.Command{Name: "agree", Summary: "agreement between raters (kappa, Fleiss, Krippendorff's alpha) and the items to adjudicate", Run: runAgree}

func runAgree(e *cli.Env) error {
	fs := cli.NewFlags(e, "agree")
	labels := cli.InputFlag(fs, "labels", "", "label table `FILE` (CSV with a header row)")
	ratersFlag := fs.String("raters", "", "comma-separated rater `columns`, at least two")
	idCol := fs.String("id", "", "`column` naming each item (default: row numbers)")
	metric := fs.String("metric", "", "`statistic`: kappa, fleiss or alpha (default kappa for two raters, alpha for more)")
	weightsFlag := fs.String("weights", "", "kappa `weights` for ordered labels: linear or quadratic")
	levelFlag := fs.String("level", "", "alpha `level`: nominal (default), ordinal, interval or ratio")
	orderFlag := fs.String("order", "", "comma-separated label `order` (default: numeric or alphabetical)")
	iv := cli.AddIntervalFlags(fs, "")
	charts := cli.OutputDirFlag(fs, "charts", "write the confusion heat map (two raters; PNG and SVG) to `DIR`")
	export := cli.AddTableExportFlags(fs)
	err := cli.ParseNoArgs(e, fs, "")
	if err != nil {
		return err
	}
	if *labels == "" || *ratersFlag == "" {
		return cli.Usagef("agree: --labels and --raters are required (see evalbook agree --help)")
	}
	raters := cli.SplitList(*ratersFlag)
	opt := agree.Options{Order: cli.SplitList(*orderFlag), Confidence: iv.Confidence(), Resamples: iv.Resamples(), Seed: iv.Seed()}
	if opt.Metric, err = agree.ParseMetric(*metric); err != nil {
		return cli.Usagef("agree: unknown --metric %q (want kappa, fleiss or alpha)", *metric)
	}
	if opt.Weights, err = agree.ParseWeights(*weightsFlag); err != nil {
		return cli.Usagef("agree: --weights %q: want linear or quadratic", *weightsFlag)
	}
	if opt.Level, err = agree.ParseLevel(*levelFlag); err != nil {
		return cli.Usagef("agree: --level %q: want nominal, ordinal, interval or ratio", *levelFlag)
	}
	if err := opt.Validate(len(raters)); err != nil {
		return agreeUsage(err, *ratersFlag, raters, opt.Order)
	}
	// Validate accepts the zero values Unweighted and LevelNominal with any
	// statistic; the flags, even as "none" or "nominal", belong to one.
	if *weightsFlag != "" && opt.Metric.For(len(raters)) != agree.MetricKappa {
		return cli.Usagef("agree: --weights applies to --metric kappa only")
	}
	if *levelFlag != "" && opt.Metric.For(len(raters)) != agree.MetricAlpha {
		return cli.Usagef("agree: --level applies to --metric alpha only")
	}

	var in io.Reader
	if _, ok := interop.Harness(*labels, "auto"); ok { // two scorers (metrics) of a harness output as raters
		if in, err = interop.Labels(e.Ctx, *labels, raters, interop.Options{}); err != nil {
			return err
		}
		*idCol = "id"
	} else {
		f, err := os.Open(*labels)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	res, err := agree.AnalyzeCSVResult(in, *labels, raters, *idCol, opt)
	if err != nil {
		return err
	}
	// The list of disagreements is built only for the tables of --xlsx
	// and --html; the text and --json are written from the analysis, a
	// disagreement at a time (a million items: a quarter of a million
	// disagreements).
	rep := res.Summary()
	if export.XLSX != "" || export.HTML != "" {
		full := res.Agreement() // with every disagreement, for the tables
		if _, harness := interop.Harness(*labels, "auto"); !harness {
			// The report shows each disagreement with the item's text.
			f, err := os.Open(*labels)
			if err != nil {
				return err
			}
			err = agree.AttachText(f, *labels, full, *idCol)
			f.Close()
			if err != nil {
				return err
			}
		}
		if err := export.WriteReport(e, "evalbook agree", full); err != nil {
			return err
		}
	}
	if *charts != "" {
		if rep.Confusion == nil {
			return cli.Usagef("agree: --charts draws the confusion of two raters; %d were given", len(rep.Raters))
		}
		fig, err := chart.Confusion("Agreement of "+rep.Raters[0]+" and "+rep.Raters[1], rep.Raters[0], rep.Raters[1], rep.Confusion.Labels, rep.Confusion.Rows)
		if err != nil {
			return err
		}
		if err := cli.WriteFigures(e, *charts, []chart.Named{{Name: "agree-confusion", Figure: fig}}); err != nil {
			return err
		}
	}
	if export.JSON {
		return res.WriteJSON(e.Stdout) // what cli.WriteJSON writes of res.Agreement()
	}
	return res.WriteText(e.Stdout)
}

// agreeUsage turns an error of agree.Options.Validate into a usage error
// that names the flags.
func agreeUsage(err error, ratersFlag string, raters, order []string) error {
	switch {
	case errors.Is(err, agree.ErrRaters):
		return cli.Usagef("agree: --raters needs at least two columns, got %q", ratersFlag)
	case errors.Is(err, agree.ErrKappaRaters):
		return cli.Usagef("agree: Cohen's kappa is for two raters, got %d; use --metric fleiss or alpha", len(raters))
	case errors.Is(err, agree.ErrWeightsMetric):
		return cli.Usagef("agree: --weights applies to --metric kappa only")
	case errors.Is(err, agree.ErrLevelMetric):
		return cli.Usagef("agree: --level applies to --metric alpha only")
	case errors.Is(err, agree.ErrOrder):
		for i, l := range order {
			if slices.Contains(order[:i], l) {
				return cli.Usagef("agree: --order lists %q twice", l)
			}
		}
	}
	return cli.Usagef("agree: %v", err)
}
