package main

import (
	"errors"
	"flag"
	"strconv"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var powerCommand = cli.Command{Name: "power", Summary: "plan an evaluation: cases needed to detect a change in pass rate, or the smallest change N cases detect", Run: runPower, ReadsNoFile: true}

func runPower(e *cli.Env) error {
	fs := cli.NewFlags(e, "power")
	baseline := fs.String("baseline", "", "pass rate `P1` of the current version, in [0, 1] (required)")
	target := fs.String("target", "", "pass rate `P2` to detect, in [0, 1] (optional with --n)")
	paired := fs.Bool("paired", false, "both versions run on the same cases (McNemar's test)")
	discordant := fs.Float64("discordant", 0, "with --paired: probability `D` that a case changes outcome (default: from independence)")
	power := fs.Float64("power", 0.8, "wanted `power`, in (0, 1)")
	alpha := fs.Float64("alpha", 0.05, "two-sided significance `level`, in (0, 1)")
	n := fs.Int("n", 0, "cases per group: print the minimum detectable effect at `N` cases")
	export := cli.AddTableExportFlags(fs)
	args, err := cli.ParseFlags(e, fs, cli.WordArgs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return cli.Usagef("power: unexpected argument %q", args[0])
	}
	q := stats.PowerQuery{Paired: *paired, Discordant: *discordant, Power: *power, Alpha: *alpha, N: *n}
	if *baseline == "" {
		return cli.Usagef("power: give --baseline, the current pass rate in [0, 1]")
	}
	if q.Baseline, err = strconv.ParseFloat(*baseline, 64); err != nil {
		return cli.Usagef("power: --baseline %q is not a number", *baseline)
	}
	if *target != "" {
		t, err := strconv.ParseFloat(*target, 64)
		if err != nil {
			return cli.Usagef("power: --target %q is not a number", *target)
		}
		q.Target = &t
	}
	if *discordant != 0 && !*paired {
		return cli.Usagef("power: --discordant needs --paired")
	}
	if *n < 0 || (*n == 0 && isFlagSet(fs.Visit, "n")) {
		return cli.Usagef("power: --n %d: give a positive number of cases", *n)
	}
	if *discordant < 0 || *power == 0 || *alpha == 0 {
		// Zero means "default" to the library; on the command line it is a mistake.
		return cli.Usagef("power: --discordant, --power and --alpha must be positive")
	}
	rep, err := results.PlanPower(q)
	if errors.Is(err, stats.ErrPowerQuery) {
		return cli.Usagef("power: %v", err)
	}
	if err != nil {
		return err
	}
	return cli.Render(e, rep, export)
}

// isFlagSet reports whether the flag name was given on the command line.
func isFlagSet(visit func(func(*flag.Flag)), name string) bool {
	set := false
	visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}
