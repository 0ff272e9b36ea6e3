package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/evalbook/evalbook/pkg/agree"
	"github.com/evalbook/evalbook/pkg/chart"
	"github.com/evalbook/evalbook/pkg/interop"
)

func init() {
	register(&command{name: "agree", summary: "agreement between raters (kappa, Fleiss, Krippendorff's alpha) and the items to adjudicate", run: runAgree})
}

func runAgree(e *env) error {
	fs := newFlags(e, "agree")
	labels := fs.String("labels", "", "label table `FILE` (CSV with a header row)")
	ratersFlag := fs.String("raters", "", "comma-separated rater `columns`, at least two")
	idCol := fs.String("id", "", "`column` naming each item (default: row numbers)")
	metric := fs.String("metric", "", "`statistic`: kappa, fleiss or alpha (default kappa for two raters, alpha for more)")
	weightsFlag := fs.String("weights", "", "kappa `weights` for ordered labels: linear or quadratic")
	levelFlag := fs.String("level", "", "alpha `level`: nominal (default), ordinal, interval or ratio")
	orderFlag := fs.String("order", "", "comma-separated label `order` (default: numeric or alphabetical)")
	iv := addIntervalFlags(fs, "")
	charts := fs.String("charts", "", "write the confusion heat map (two raters; PNG and SVG) to `DIR`")
	export := addTableExportFlags(fs)
	err := parseNoArgs(e, fs, "")
	if err != nil {
		return err
	}
	if *labels == "" || *ratersFlag == "" {
		return usagef("agree: --labels and --raters are required (see evalbook agree --help)")
	}
	raters := splitRaters(*ratersFlag)
	opt := agree.Options{Order: splitRaters(*orderFlag), Confidence: iv.Confidence(), Resamples: iv.Resamples(), Seed: iv.Seed()}
	if opt.Metric, err = agree.ParseMetric(*metric); err != nil {
		return usagef("agree: unknown --metric %q (want kappa, fleiss or alpha)", *metric)
	}
	if opt.Weights, err = agree.ParseWeights(*weightsFlag); err != nil {
		return usagef("agree: --weights %q: want linear or quadratic", *weightsFlag)
	}
	if opt.Level, err = agree.ParseLevel(*levelFlag); err != nil {
		return usagef("agree: --level %q: want nominal, ordinal, interval or ratio", *levelFlag)
	}
	if err := opt.Validate(len(raters)); err != nil {
		return agreeUsage(err, *ratersFlag, raters, opt.Order)
	}
	// Validate accepts the zero values Unweighted and LevelNominal with any
	// statistic; the flags, even as "none" or "nominal", belong to one.
	if *weightsFlag != "" && opt.Metric.For(len(raters)) != agree.MetricKappa {
		return usagef("agree: --weights applies to --metric kappa only")
	}
	if *levelFlag != "" && opt.Metric.For(len(raters)) != agree.MetricAlpha {
		return usagef("agree: --level applies to --metric alpha only")
	}

	var in io.Reader
	if _, ok := interop.Harness(*labels, "auto"); ok { // two scorers (metrics) of a harness output as raters
		run, err := interop.Read(e.ctx, *labels, interop.Options{})
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if _, err := interop.LabelsCSV(&buf, run, raters); err != nil {
			return err
		}
		in, *idCol = &buf, "id"
	} else {
		f, err := os.Open(*labels)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	rep, err := agree.AnalyzeCSV(in, *labels, raters, *idCol, opt)
	if err != nil {
		return err
	}
	if err := export.write(e, "evalbook agree", rep.Tables()); err != nil {
		return err
	}
	if *charts != "" {
		if rep.Confusion == nil {
			return usagef("agree: --charts draws the confusion of two raters; %d were given", len(rep.Raters))
		}
		fig, err := chart.Confusion("Agreement of "+rep.Raters[0]+" and "+rep.Raters[1], rep.Raters[0], rep.Raters[1], rep.Confusion.Labels, rep.Confusion.Rows)
		if err != nil {
			return err
		}
		if err := writeFigures(e, *charts, []chart.Named{{Name: "agree-confusion", Figure: fig}}); err != nil {
			return err
		}
	}
	if export.json {
		return writeJSON(e.stdout, rep)
	}
	return rep.WriteText(e.stdout)
}

// agreeUsage turns an error of agree.Options.Validate into a usage error
// that names the flags.
func agreeUsage(err error, ratersFlag string, raters, order []string) error {
	switch {
	case errors.Is(err, agree.ErrRaters):
		return usagef("agree: --raters needs at least two columns, got %q", ratersFlag)
	case errors.Is(err, agree.ErrKappaRaters):
		return usagef("agree: Cohen's kappa is for two raters, got %d; use --metric fleiss or alpha", len(raters))
	case errors.Is(err, agree.ErrWeightsMetric):
		return usagef("agree: --weights applies to --metric kappa only")
	case errors.Is(err, agree.ErrLevelMetric):
		return usagef("agree: --level applies to --metric alpha only")
	case errors.Is(err, agree.ErrOrder):
		for i, l := range order {
			if slices.Contains(order[:i], l) {
				return usagef("agree: --order lists %q twice", l)
			}
		}
	}
	return usagef("agree: %v", err)
}

func splitRaters(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
