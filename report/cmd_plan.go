package main

import (
	"bytes"

	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/harness"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var planCommands = []cli.Command{
	{Name: "plan check", Summary: "validate an evaluation plan and list what it leaves unguarded", Run: runPlanCheck},
	{Name: "plan gate", Summary: "apply a plan's release gates to a run file: release or no release, with reasons", Run: runPlanGate},
}

const kitSamplePlan = "helpdesk/plan_v1.json"

// kitPlanArg reads the plan named by file, or the embedded sample plan
// (saying on stderr that no `what` was given).
func kitPlanArg(e *cli.Env, file, what string) (*design.Plan, error) {
	var names []string
	if file != "" {
		names = []string{file}
	}
	in, err := kitFiles(e, names, kitSamplePlan, what)
	if err != nil {
		return nil, err
	}
	return design.ReadPlan(bytes.NewReader(in[0].Data), in[0].Name)
}

func runPlanCheck(e *cli.Env) error {
	fs := cli.NewFlags(e, "plan check")
	export := cli.AddTableExportFlags(fs)
	args, err := cli.ParseFlags(e, fs, cli.InputArgs)
	if err != nil {
		return err
	}
	if len(args) > 1 {
		return cli.Usagef("plan check: one FILE at most, got %d", len(args))
	}
	file := ""
	if len(args) == 1 {
		file = args[0]
	}
	p, err := kitPlanArg(e, file, "plan FILE")
	if err != nil {
		return err
	}
	return cli.Render(e, p.Check(), export)
}

func runPlanGate(e *cli.Env) error {
	fs := cli.NewFlags(e, "plan gate")
	planFile := cli.InputFlag(fs, "plan", "", "plan `FILE` (default: the embedded sample plan)")
	runFile := cli.InputFlag(fs, "run", "", "run `FILE` (CSV: id,task,set,lang,expect,outcome,fact,pass)")
	export := cli.AddTableExportFlags(fs)
	if err := cli.ParseNoArgs(e, fs, "the run file goes after --run"); err != nil {
		return err
	}
	if *runFile == "" {
		return cli.Usagef("plan gate: --run FILE is required")
	}
	p, err := kitPlanArg(e, *planFile, "--plan FILE")
	if err != nil {
		return err
	}
	b, err := kitReadFile(e, *runFile)
	if err != nil {
		return err
	}
	rows, err := harness.ReadCSV(bytes.NewReader(b), *runFile)
	if err != nil {
		return err
	}
	v := p.Gate(harness.Measurements(rows))
	if err := cli.Render(e, &v, export); err != nil {
		return err
	}
	if !v.Release {
		return &cli.SilentError{Code: cli.ExitGateFailed} // the reasons are printed above
	}
	return nil
}
