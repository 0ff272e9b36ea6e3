package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/evalbook/evalbook/pkg/chart"
	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var historyCommand = cli.Command{Name: "history", Summary: "a metric's trend over the stored runs, with intervals", Run: runHistory, ReadsNoFile: true}

func runHistory(e *cli.Env) error {
	fs := cli.NewFlags(e, "history")
	var path string
	cli.AddStoreFlag(fs, &path)
	metric := fs.String("metric", "", "the metric `id`")
	by := fs.String("by", "", "a `grouping` (default: all rows)")
	dataset := fs.String("dataset", "", "keep only runs with this dataset `hash`")
	cmd := fs.String("command", "", "keep only runs of this `command` (score, judge, ...)")
	chartOut := cli.OutputFlag(fs, "chart", "", "also draw the trend to `FILE` (.png or .svg)")
	export := cli.AddTableExportFlags(fs)
	args, err := cli.ParseFlags(e, fs, cli.WordArgs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return cli.Usagef("history: unexpected argument %q", args[0])
	}
	if *metric == "" {
		return cli.Usagef("history: give --metric (see evalbook runs list for the metrics recorded)")
	}
	st, err := cli.ReadStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	h, err := st.History(e.Ctx, store.HistoryOptions{Metric: *metric, By: *by, DatasetHash: *dataset, Command: *cmd})
	if err != nil {
		return err
	}
	if *chartOut != "" {
		t := h.ChartTable()
		fig, err := chart.TableRates(&t, *metric)
		if err != nil {
			return err
		}
		format := strings.TrimPrefix(strings.ToLower(filepath.Ext(*chartOut)), ".")
		if format != "png" && format != "svg" {
			return cli.Usagef("history: --chart %q: name a .png or .svg file", *chartOut)
		}
		if err := cli.WriteAtomic(*chartOut, func(w io.Writer) error { return fig.Write(w, format) }); err != nil {
			return err
		}
		fmt.Fprintf(e.Stderr, "evalbook: wrote %s\n", *chartOut)
	}
	return cli.Render(e, h, export)
}
