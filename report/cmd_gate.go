package main

import (
	"strconv"

	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var gateCommand = cli.Command{Name: "gate", Summary: "release gate over two stored runs: exit 3 only on a regression beyond the margin and the noise", Run: runGate, ReadsNoFile: true}

func runGate(e *cli.Env) error {
	fs := cli.NewFlags(e, "gate")
	var path string
	cli.AddStoreFlag(fs, &path)
	baseline := fs.String("baseline", "", "the baseline `RUN`")
	candidate := fs.String("candidate", "", "the candidate `RUN`")
	metric := fs.String("metric", "", "the metric `id` to gate on")
	margin := fs.String("margin", "", "tolerated drop, a `proportion` in [0, 1) (0.02 = two points)")
	conf := cli.AddConfidenceFlag(fs, "one-sided confidence `level` of the test, between 0 and 1")
	force := fs.Bool("force", false, "pair runs that are not comparable")
	sequential := fs.Bool("sequential", false, "decide with an anytime-valid confidence sequence over the pairs in stored order (regression, no regression or continue)")
	export := cli.AddTableExportFlags(fs)
	args, err := cli.ParseFlags(e, fs, cli.WordArgs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return cli.Usagef("gate: unexpected argument %q", args[0])
	}
	if *baseline == "" || *candidate == "" || *metric == "" || *margin == "" {
		return cli.Usagef("gate: give --baseline, --candidate, --metric and --margin")
	}
	m, err := strconv.ParseFloat(*margin, 64)
	if err != nil || m < 0 || m >= 1 {
		return cli.Usagef("gate: --margin must be a proportion in [0, 1) such as 0.02, not %q", *margin)
	}
	st, err := cli.ReadStore(path)
	if err != nil {
		return err
	}
	defer st.Close()
	g, err := st.Gate(e.Ctx, *baseline, *candidate, store.GateOptions{Metric: *metric, Margin: m, Confidence: conf.Level(), Force: *force, Sequential: *sequential})
	if err != nil {
		return err
	}
	if err := cli.Render(e, g, export); err != nil {
		return err
	}
	if g.Regression {
		return &cli.SilentError{Code: cli.ExitGateFailed}
	}
	return nil
}
