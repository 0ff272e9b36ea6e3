package main

import (
	"os"

	"github.com/evalbook/evalbook/pkg/repeats"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var repeatsCommand = cli.Command{Name: "repeats", Summary: "items sampled several times: mean, SE split within/between items, flaky items, samples per item and precision", Run: runRepeats}

func runRepeats(e *cli.Env) error {
	fs := cli.NewFlags(e, "repeats")
	samples := fs.String("samples", "", "samples `FILE` (CSV or JSONL: item, sample, pass 0/1; one row per sample)")
	conf := cli.AddConfidenceFlag(fs, "")
	export := cli.AddTableExportFlags(fs)
	if err := cli.ParseNoArgs(e, fs, "the file goes after --samples"); err != nil {
		return err
	}
	if *samples == "" {
		return cli.Usagef("repeats: --samples FILE is required")
	}
	f, err := os.Open(*samples)
	if err != nil {
		return err
	}
	defer f.Close()
	res, err := repeats.File(f, *samples, repeats.Options{Confidence: conf.Level()})
	if err != nil {
		return err
	}
	return cli.Render(e, res, export)
}
