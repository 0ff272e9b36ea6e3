package main

import (
	"io"
	"os"

	"github.com/evalbook/evalbook/pkg/irt"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var irtCommand = cli.Command{Name: "irt", Summary: "2PL item response model: item difficulty and discrimination, flags, abilities, full scores from a subset", Run: runIRT}

func runIRT(e *cli.Env) error {
	fs := cli.NewFlags(e, "irt")
	responses := cli.InputFlag(fs, "responses", "", "response `FILE` (CSV or JSONL: subject, item, pass 0/1; one row per answer)")
	estimate := cli.InputFlag(fs, "estimate", "", "further subjects to score with the fitted model, not fitted (`FILE`, same columns; e.g. a new model on a subset)")
	points := fs.Int("points", 0, "Gauss-Hermite quadrature `points` (0: 41)")
	emulate := fs.String("emulate", "", "fit as `ltm` (R's ltm(X ~ z1), default control: 21 points, 40 EM iterations, then BFGS) to reproduce its figures instead of the maximum likelihood")
	minDisc := fs.Float64("min-discrimination", 0.2, "flag items whose discrimination is below `A`")
	conf := cli.AddConfidenceFlag(fs, "")
	export := cli.AddTableExportFlags(fs)
	if err := cli.ParseNoArgs(e, fs, "the file goes after --responses"); err != nil {
		return err
	}
	if *responses == "" {
		return cli.Usagef("irt: --responses FILE is required")
	}
	if *points < 0 || *points > 200 {
		return cli.Usagef("irt: --points %d: want 1 to 200 (0: 41)", *points)
	}
	if *emulate != "" && *emulate != "ltm" {
		return cli.Usagef("irt: --emulate %q: want ltm", *emulate)
	}
	if *emulate != "" && *points != 0 {
		return cli.Usagef("irt: --emulate ltm uses ltm's 21 quadrature points; leave out --points")
	}
	if *minDisc <= 0 {
		return cli.Usagef("irt: --min-discrimination %g: want a positive number", *minDisc)
	}
	f, err := os.Open(*responses)
	if err != nil {
		return err
	}
	defer f.Close()
	var other io.Reader
	if *estimate != "" {
		g, err := os.Open(*estimate)
		if err != nil {
			return err
		}
		defer g.Close()
		other = g
	}
	res, err := irt.File(f, *responses, other, *estimate, irt.Options{Points: *points, Emulate: *emulate, MinDiscrimination: *minDisc, Confidence: conf.Level()})
	if err != nil {
		return err
	}
	return cli.Render(e, res, export)
}
