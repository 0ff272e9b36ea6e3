package main

import (
	"strconv"

	"github.com/evalbook/evalbook/pkg/store"
)

func init() {
	register(&command{name: "gate", summary: "release gate over two stored runs: exit 3 only on a regression beyond the margin and the noise", run: runGate})
}

func runGate(e *env) error {
	fs := newFlags(e, "gate")
	var path string
	addStoreFlag(fs, &path)
	baseline := fs.String("baseline", "", "the baseline `RUN`")
	candidate := fs.String("candidate", "", "the candidate `RUN`")
	metric := fs.String("metric", "", "the metric `id` to gate on")
	margin := fs.String("margin", "", "tolerated drop, a `proportion` in [0, 1) (0.02 = two points)")
	conf := confidenceValue(defaultConfidence)
	fs.Var(&conf, "confidence", "one-sided confidence `level` of the test, between 0 and 1")
	force := fs.Bool("force", false, "pair runs that are not comparable")
	export := addTableExportFlags(fs)
	args, err := parseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("gate: unexpected argument %q", args[0])
	}
	if *baseline == "" || *candidate == "" || *metric == "" || *margin == "" {
		return usagef("gate: give --baseline, --candidate, --metric and --margin")
	}
	m, err := strconv.ParseFloat(*margin, 64)
	if err != nil || m < 0 || m >= 1 {
		return usagef("gate: --margin must be a proportion in [0, 1) such as 0.02, not %q", *margin)
	}
	st, err := readStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	g, err := st.Gate(e.ctx, *baseline, *candidate, store.GateOptions{Metric: *metric, Margin: m, Confidence: float64(conf), Force: *force})
	if err != nil {
		return err
	}
	if err := render(e, g, export); err != nil {
		return err
	}
	if g.Regression {
		return &silentError{code: exitGateFailed}
	}
	return nil
}
