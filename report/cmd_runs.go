package main

import (
	"fmt"
	"io"

	"github.com/evalbook/evalbook/pkg/store"
)

func init() {
	register(&command{name: "runs list", summary: "list the runs kept in the run store (--record)", run: runRunsList})
	register(&command{name: "runs show", summary: "show one stored run: what was run and its group figures", run: runRunsShow})
	register(&command{name: "runs rm", summary: "remove stored runs", run: runRunsRm})
	register(&command{name: "runs diff", summary: "compare two stored runs row by row: flips, paired deltas, sign test, McNemar", run: runRunsDiff})
}

func runRunsList(e *env) error {
	fs := newFlags(e, "runs list")
	var path string
	addStoreFlag(fs, &path)
	export := addTableExportFlags(fs)
	args, err := parseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("runs list: unexpected argument %q", args[0])
	}
	st, err := readStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	list, err := st.List(e.ctx)
	if err != nil {
		return err
	}
	return render(e, list, export)
}

func runRunsShow(e *env) error {
	fs := newFlags(e, "runs show")
	var path string
	addStoreFlag(fs, &path)
	export := addTableExportFlags(fs)
	args, err := parseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("runs show: give one RUN (see evalbook runs list)")
	}
	st, err := readStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	run, err := st.Get(e.ctx, args[0])
	if err != nil {
		return err
	}
	return render(e, &run, export)
}

func runRunsRm(e *env) error {
	fs := newFlags(e, "runs rm")
	var path string
	addStoreFlag(fs, &path)
	args, err := parseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		return usagef("runs rm: give the RUNs to remove")
	}
	st, err := readStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	var ids []int64
	for _, a := range args { // resolve all first: "last" must not move as runs go
		id, err := st.Resolve(e.ctx, a)
		if err != nil {
			return err
		}
		ids = append(ids, id)
	}
	for _, id := range ids {
		if _, err := st.Remove(e.ctx, fmt.Sprint(id)); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "removed run %d\n", id)
	}
	return nil
}

type runsMetricsFlag []string

func (m *runsMetricsFlag) String() string     { return fmt.Sprint([]string(*m)) }
func (m *runsMetricsFlag) Set(v string) error { *m = append(*m, v); return nil }

func runRunsDiff(e *env) error {
	fs := newFlags(e, "runs diff")
	var path string
	addStoreFlag(fs, &path)
	var metrics runsMetricsFlag
	fs.Var(&metrics, "metric", "compare only this metric `id` (repeatable; default: every metric both runs have)")
	flips := fs.Int("flips", 20, "flipped rows to list each way per metric (-1: all)")
	iv := addIntervalFlags(fs, "for the paired interval of a binary metric's change")
	force := fs.Bool("force", false, "pair runs that are not comparable (marked so in the result)")
	xlsx := fs.String("xlsx", "", "also write the result as an Excel workbook `FILE`")
	asJSON := fs.Bool("json", false, "print one JSON document instead of the text")
	htmlOut := fs.String("html", "", "also write the diff report as one self-contained HTML `FILE`")
	args, err := parseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) != 2 {
		return usagef("runs diff: give two RUNs, A and B (see evalbook runs list)")
	}
	if *flips == 0 || *flips < -1 {
		return usagef("runs diff: --flips must be positive or -1 (all), not %d", *flips)
	}
	st, err := readStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	d, err := st.Diff(e.ctx, args[0], args[1], store.DiffOptions{Metrics: metrics, Confidence: iv.Confidence(), Resamples: iv.Resamples(),
		Seed: iv.Seed(), Flips: *flips, Force: *force, Texts: *htmlOut != ""})
	if err != nil {
		return err
	}
	if *htmlOut != "" {
		if err := writeAtomic(*htmlOut, func(w io.Writer) error { return store.WriteDiffHTML(w, d) }); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "evalbook: wrote %s\n", *htmlOut)
	}
	return render(e, d, &tableExport{json: *asJSON, xlsx: *xlsx, cmd: "runs diff"})
}
