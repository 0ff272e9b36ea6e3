package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/runsite"
	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var runsCommands = []cli.Command{
	{Name: "runs list", Summary: "list the runs kept in the run store (--record)", Run: runRunsList, ReadsNoFile: true},
	{Name: "runs show", Summary: "show one stored run: what was run and its group figures", Run: runRunsShow, ReadsNoFile: true},
	{Name: "runs rm", Summary: "remove stored runs", Run: runRunsRm, ReadsNoFile: true},
	{Name: "runs diff", Summary: "compare two stored runs row by row: flips, paired deltas, sign test, McNemar", Run: runRunsDiff, ReadsNoFile: true},
	{Name: "runs report", Summary: "write the run store as a static site: runs, a page per run, what changed, history charts", Run: runRunsReport, ReadsNoFile: true},
}

func runRunsList(e *cli.Env) error {
	fs := cli.NewFlags(e, "runs list")
	var path string
	cli.AddStoreFlag(fs, &path)
	export := cli.AddTableExportFlags(fs)
	args, err := cli.ParseFlags(e, fs, cli.WordArgs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return cli.Usagef("runs list: unexpected argument %q", args[0])
	}
	st, err := cli.ReadStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	list, err := st.List(e.Ctx)
	if err != nil {
		return err
	}
	return cli.Render(e, list, export)
}

func runRunsShow(e *cli.Env) error {
	fs := cli.NewFlags(e, "runs show")
	var path string
	cli.AddStoreFlag(fs, &path)
	export := cli.AddTableExportFlags(fs)
	args, err := cli.ParseFlags(e, fs, cli.WordArgs)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return cli.Usagef("runs show: give one RUN (see evalbook runs list)")
	}
	st, err := cli.ReadStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	run, err := st.Get(e.Ctx, args[0])
	if err != nil {
		return err
	}
	return cli.Render(e, &run, export)
}

func runRunsRm(e *cli.Env) error {
	fs := cli.NewFlags(e, "runs rm")
	var path string
	cli.AddStoreFlag(fs, &path)
	args, err := cli.ParseFlags(e, fs, cli.WordArgs)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return cli.Usagef("runs rm: give the RUNs to remove")
	}
	st, err := cli.EditStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	var ids []int64
	for _, a := range args { // resolve all first: "last" must not move as runs go
		id, err := st.Resolve(e.Ctx, a)
		if err != nil {
			return err
		}
		ids = append(ids, id)
	}
	for _, id := range ids {
		if _, err := st.Remove(e.Ctx, fmt.Sprint(id)); err != nil {
			return err
		}
		fmt.Fprintf(e.Stdout, "removed run %d\n", id)
	}
	return nil
}

func runRunsDiff(e *cli.Env) error {
	fs := cli.NewFlags(e, "runs diff")
	var path string
	cli.AddStoreFlag(fs, &path)
	var metrics cli.MultiFlag
	fs.Var(&metrics, "metric", "compare only this metric `id` (repeatable; default: every metric both runs have)")
	flips := fs.Int("flips", 20, "flipped rows to list each way per metric (-1: all)")
	iv := cli.AddIntervalFlags(fs, "for the paired interval of a binary metric's change")
	force := fs.Bool("force", false, "pair runs that are not comparable (marked so in the result)")
	export := cli.AddTableExportFlags(fs)
	args, err := cli.ParseFlags(e, fs, cli.WordArgs)
	if err != nil {
		return err
	}
	if len(args) != 2 {
		return cli.Usagef("runs diff: give two RUNs, A and B (see evalbook runs list)")
	}
	if *flips == 0 || *flips < -1 {
		return cli.Usagef("runs diff: --flips must be positive or -1 (all), not %d", *flips)
	}
	st, err := cli.ReadStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	d, err := st.Diff(e.Ctx, args[0], args[1], store.DiffOptions{Metrics: metrics, Confidence: iv.Confidence(), Resamples: iv.Resamples(),
		Seed: iv.Seed(), Flips: *flips, Force: *force, Texts: export.HTML != "" || export.XLSX != ""})
	if err != nil {
		return err
	}
	if err := export.WriteReport(e, "evalbook runs diff", d); err != nil {
		return err
	}
	if export.HTML == "" {
		d.DropTexts() // the JSON holds the texts with --html alone, as it always has
	}
	return cli.Render(e, d, &cli.TableExport{JSON: export.JSON, Cmd: export.Cmd})
}

func runRunsReport(e *cli.Env) error {
	fs := cli.NewFlags(e, "runs report")
	var path string
	cli.AddStoreFlag(fs, &path)
	out := cli.OutputDirFlag(fs, "out", "write the site into `DIR` (created if missing; its pages are replaced): index.html, run-N.html, diff-A-B.html")
	flips := fs.Int("flips", 50, "rows that changed to list each way per metric on a diff page (-1: all)")
	iv := cli.AddIntervalFlags(fs, "for the paired interval of a metric's change on the diff pages")
	args, err := cli.ParseFlags(e, fs, cli.WordArgs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return cli.Usagef("runs report: unexpected argument %q", args[0])
	}
	if *out == "" {
		return cli.Usagef("runs report: give --out DIR, the folder to write the site into")
	}
	if *flips == 0 || *flips < -1 {
		return cli.Usagef("runs report: --flips must be positive or -1 (all), not %d", *flips)
	}
	if fi, err := os.Stat(*out); err == nil && !fi.IsDir() {
		return cli.Usagef("runs report: --out %s is a file: name a folder", *out)
	}
	st, err := cli.ReadStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	now := results.Now()
	opt := runsite.Options{Flips: *flips, Confidence: iv.Confidence(), Resamples: iv.Resamples(), Seed: iv.Seed(), Tool: "evalbook " + version}
	if now != nil {
		opt.Now = *now
	}
	sum, err := runsite.Write(e.Ctx, st, *out, opt, cli.WriteAtomic)
	if err != nil {
		return err
	}
	for _, s := range sum.Skipped {
		fmt.Fprintf(e.Stderr, "evalbook: no diff page for %s\n", s)
	}
	fmt.Fprintf(e.Stderr, "evalbook: wrote %d pages to %s: %s, %d run pages, %d diff pages; open %s\n",
		len(sum.Files), *out, "index.html", sum.Runs, sum.Diffs, filepath.Join(*out, "index.html"))
	return nil
}
