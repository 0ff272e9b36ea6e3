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

const runsStoreHelp = `
The store is one SQLite file: --store FILE, else $EVALBOOK_STORE, else ./evalbook.db. A RUN is a
run id (see evalbook runs list), last, or last~N (the Nth run before the newest).`

const runsListHelp = `
Usage: evalbook runs list [--store FILE] [--json] [--xlsx FILE] [--html FILE]

Lists the stored runs, oldest first. --json prints a JSON array, one object per run with id, time,
command, dataset_hash, rows and the rest of what was recorded.
` + runsStoreHelp

const runsShowHelp = `
Usage: evalbook runs show [--store FILE] [--json] RUN

Shows what a run was (tool, command, dataset and prompt hashes, settings, model, tokens and cost
where known) and every group's figures with their intervals.
` + runsStoreHelp

const runsRmHelp = `
Usage: evalbook runs rm [--store FILE] RUN...

Removes runs with all their rows.
` + runsStoreHelp

const runsDiffHelp = `
Usage: evalbook runs diff [--store FILE] [--metric M]... [--flips N] [--confidence C] [--force] [--json] [--xlsx FILE] [--html FILE] A B

Pairs the rows of runs A and B by sample id (by row number when a run has no usable id) and gives,
per metric: the rows that flipped each way, the change B − A with a paired interval, the sign test
and McNemar's test, overall and per group. Runs that are not comparable (another dataset content
hash, prompt, judge prompt or normaliser) are refused (exit 1) unless --force. --html writes the
diff report: both runs side by side, per-group deltas, the flipped rows with both responses.

Example:
	evalbook score --responses v1.csv --record && evalbook score --responses v2.csv --record
	evalbook runs diff last~1 last --html diff.html
` + runsStoreHelp

func runRunsList(e *env) error {
	fs := newFlags(e, "runs list", runsListHelp)
	var path string
	addStoreFlag(fs, &path)
	asJSON := fs.Bool("json", false, "print a JSON array")
	export := addTableExportFlags(fs)
	args, err := kitParse(e, fs)
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
	return render(e, list, *asJSON, export, "runs list")
}

func runRunsShow(e *env) error {
	fs := newFlags(e, "runs show", runsShowHelp)
	var path string
	addStoreFlag(fs, &path)
	asJSON := fs.Bool("json", false, "print one JSON document")
	export := addTableExportFlags(fs)
	args, err := kitParse(e, fs)
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
	return render(e, &run, *asJSON, export, "runs show")
}

func runRunsRm(e *env) error {
	fs := newFlags(e, "runs rm", runsRmHelp)
	var path string
	addStoreFlag(fs, &path)
	args, err := kitParse(e, fs)
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
	fs := newFlags(e, "runs diff", runsDiffHelp)
	var path string
	addStoreFlag(fs, &path)
	var metrics runsMetricsFlag
	fs.Var(&metrics, "metric", "compare only this metric `id` (repeatable; default: every metric both runs have)")
	flips := fs.Int("flips", 20, "flipped rows to list each way per metric (-1: all)")
	iv := addIntervalFlags(fs, "for the paired interval of a binary metric's change")
	force := fs.Bool("force", false, "pair runs that are not comparable (marked so in the result)")
	asJSON := fs.Bool("json", false, "print one JSON document")
	xlsx := fs.String("xlsx", "", "also write the result as an Excel workbook `FILE`")
	htmlOut := fs.String("html", "", "also write the diff report as one self-contained HTML `FILE`")
	args, err := kitParse(e, fs)
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
	return render(e, d, *asJSON, &tableExport{xlsx: *xlsx}, "runs diff")
}
