package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/evalbook/evalbook/pkg/chart"
	"github.com/evalbook/evalbook/pkg/store"
)

func init() {
	register(&command{name: "history", summary: "a metric's trend over the stored runs, with intervals", run: runHistory})
}

func runHistory(e *env) error {
	fs := newFlags(e, "history")
	var path string
	addStoreFlag(fs, &path)
	metric := fs.String("metric", "", "the metric `id`")
	by := fs.String("by", "", "a `grouping` (default: all rows)")
	dataset := fs.String("dataset", "", "keep only runs with this dataset `hash`")
	cmd := fs.String("command", "", "keep only runs of this `command` (score, judge, ...)")
	chartOut := fs.String("chart", "", "also draw the trend to `FILE` (.png or .svg)")
	export := addTableExportFlags(fs)
	args, err := parseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("history: unexpected argument %q", args[0])
	}
	if *metric == "" {
		return usagef("history: give --metric (see evalbook runs list for the metrics recorded)")
	}
	st, err := readStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	h, err := st.History(e.ctx, store.HistoryOptions{Metric: *metric, By: *by, DatasetHash: *dataset, Command: *cmd})
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
			return usagef("history: --chart %q: name a .png or .svg file", *chartOut)
		}
		if err := writeAtomic(*chartOut, func(w io.Writer) error { return fig.Write(w, format) }); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "evalbook: wrote %s\n", *chartOut)
	}
	return render(e, h, export)
}
