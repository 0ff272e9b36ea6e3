package main

import (
	"strconv"

	"github.com/evalbook/evalbook/pkg/store"
)

func init() {
	register(&command{name: "gate", summary: "release gate over two stored runs: exit 3 only on a regression beyond the margin and the noise", run: runGate})
}

const gateHelp = `
Usage: evalbook gate --baseline RUN --candidate RUN --metric M --margin D [--confidence C] [--store FILE] [--force] [--json]

Pairs the two runs' rows by sample id and tests, one-sided at --confidence (default 0.95), whether the
candidate is worse than the baseline by more than --margin (a proportion: 0.02 is two points). Rows
without a verdict on either side (a failed call) are out of the denominator. Prints the minimum
detectable drop at this sample size (80% power), so a pass on a small set is read for what it is.
Measure the noise with "evalbook aa" to choose the margin.

Exit status: 0 the candidate is not worse beyond the margin (including a drop inside the noise),
3 a regression, 1 an error (runs missing or not comparable), 2 a usage error.

Example:
	evalbook gate --baseline last~1 --candidate last --metric exact_substring --margin 0.02
` + runsStoreHelp

func runGate(e *env) error {
	fs := newFlags(e, "gate", gateHelp)
	var path string
	addStoreFlag(fs, &path)
	baseline := fs.String("baseline", "", "the baseline `RUN`")
	candidate := fs.String("candidate", "", "the candidate `RUN`")
	metric := fs.String("metric", "", "the metric `id` to gate on")
	margin := fs.String("margin", "", "tolerated drop, a `proportion` in [0, 1) (0.02 = two points)")
	conf := confidenceValue(defaultConfidence)
	fs.Var(&conf, "confidence", "one-sided confidence `level` of the test, between 0 and 1")
	force := fs.Bool("force", false, "pair runs that are not comparable")
	asJSON := fs.Bool("json", false, "print one JSON document")
	export := addTableExportFlags(fs)
	args, err := kitParse(e, fs)
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
	if err := render(e, g, *asJSON, export, "gate"); err != nil {
		return err
	}
	if g.Regression {
		return &silentError{code: exitGateFailed}
	}
	return nil
}
