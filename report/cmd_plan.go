package main

import (
	"bytes"

	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/harness"
)

func init() {
	register(&command{name: "plan check", summary: "validate an evaluation plan and list what it leaves unguarded", run: runPlanCheck})
	register(&command{name: "plan gate", summary: "apply a plan's release gates to a run file: release or no release, with reasons", run: runPlanGate})
}

const kitSamplePlan = "helpdesk/plan_v1.json"

// kitPlanArg reads the plan named by file, or the embedded sample plan
// (saying on stderr that no `what` was given).
func kitPlanArg(e *env, file, what string) (*design.Plan, error) {
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

func runPlanCheck(e *env) error {
	fs := newFlags(e, "plan check")
	export := addTableExportFlags(fs)
	args, err := parseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) > 1 {
		return usagef("plan check: one FILE at most, got %d", len(args))
	}
	file := ""
	if len(args) == 1 {
		file = args[0]
	}
	p, err := kitPlanArg(e, file, "plan FILE")
	if err != nil {
		return err
	}
	return render(e, p.Check(), export)
}

func runPlanGate(e *env) error {
	fs := newFlags(e, "plan gate")
	planFile := fs.String("plan", "", "plan `FILE` (default: the embedded sample plan)")
	runFile := fs.String("run", "", "run `FILE` (CSV: id,task,set,lang,expect,outcome,fact,pass)")
	export := addTableExportFlags(fs)
	if err := parseNoArgs(e, fs, "the run file goes after --run"); err != nil {
		return err
	}
	if *runFile == "" {
		return usagef("plan gate: --run FILE is required")
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
	if err := render(e, &v, export); err != nil {
		return err
	}
	if !v.Release {
		return &silentError{code: exitGateFailed} // the reasons are printed above
	}
	return nil
}
