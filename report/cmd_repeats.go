package main

import (
	"os"

	"github.com/evalbook/evalbook/pkg/repeats"
	"github.com/evalbook/evalbook/pkg/tasks"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var repeatsCommand = cli.Command{Name: "repeats", Summary: "items sampled several times: mean, SE split within/between items, flaky items, samples per item and precision", Run: runRepeats}

func runRepeats(e *cli.Env) error {
	fs := cli.NewFlags(e, "repeats")
	samples := cli.InputFlag(fs, "samples", "", "samples `FILE` (CSV or JSONL: item, sample, pass 0/1; one row per sample)")
	details := cli.InputFlag(fs, "details", "", "task-run details `FILE` (evalbook task run --details of generative tasks run with samples > 1)")
	conf := cli.AddConfidenceFlag(fs, "")
	export := cli.AddTableExportFlags(fs)
	if err := cli.ParseNoArgs(e, fs, "the file goes after --samples"); err != nil {
		return err
	}
	if (*samples == "") == (*details == "") {
		return cli.Usagef("repeats: give --samples FILE or --details FILE (one of them)")
	}
	if *details != "" {
		return repeatsFromDetails(e, *details, conf.Level(), export)
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

// repeatsFromDetails judges each sample of task-run details by its task's
// match rule and summarises them (tasks.Repeats).
func repeatsFromDetails(e *cli.Env, path string, confidence float64, export *cli.TableExport) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	d, err := tasks.ReadDetails(f, path)
	if err != nil {
		return err
	}
	res, err := tasks.Repeats(d, path, repeats.Options{Confidence: confidence})
	if err != nil {
		return err
	}
	return cli.Render(e, res, export)
}
