package main

import (
	"bytes"
	"fmt"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/mc"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var mcCommand = cli.Command{Name: "mc", Summary: "score multiple-choice predictions (log-likelihoods or letters) per language and subject", Run: runMC}

func runMC(e *cli.Env) error {
	fs := cli.NewFlags(e, "mc")
	var (
		predictions = cli.InputFlag(fs, "predictions", "", "prediction `FILE` (.csv or .jsonl); default: the built-in sample")
		kList       = fs.String("k", "2", "comma-separated `k` values for recall@k")
	)
	export := cli.AddTableExportFlags(fs)
	rec := cli.AddRecordFlag(fs)
	iv := cli.AddIntervalFlags(fs, "for the MRR interval")
	err := cli.ParseNoArgs(e, fs, "the file goes after --predictions")
	if err != nil {
		return err
	}
	defer rec.Close()
	ks, err := mc.ParseK(*kList)
	if err != nil {
		return cli.Usagef("mc: --%v", err)
	}
	data, name, err := cli.ReadOrSample(*predictions, datasets.MC, datasets.MCPredictionsName)
	if err != nil {
		return err
	}
	if *predictions == "" {
		fmt.Fprintf(e.Stderr, "evalbook mc: no --predictions given; scoring the built-in sample %s\n", name)
	}
	f, err := mc.Read(bytes.NewReader(data), name, mc.Columns{})
	if err != nil {
		return err
	}
	mopt := mc.Options{K: ks, Confidence: iv.Confidence(), Resamples: iv.Resamples(), Seed: iv.Seed()}
	rep, err := mc.EvaluateFile(f, name, mopt)
	if err != nil {
		return err
	}
	if err := rec.MC(e, f, rep, mopt.Seed); err != nil {
		return err
	}
	return cli.Render(e, rep, export)
}
