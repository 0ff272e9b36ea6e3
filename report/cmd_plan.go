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

const planCheckHelp = `
Usage: evalbook plan check [--json] [--xlsx FILE] [--html FILE] [FILE]

Reads an evaluation plan (JSON: task, failures [{name, cost, metric}], metrics [{name, family,
gate, threshold, direction}], dataset {name, version}, release_rule, and optional case_values
{task, set, lang} that extend the allowed case values). Decoding is strict: an unknown or
repeated field, a wrong type, a value outside its list, a threshold outside [0, 1] (every metric
is a rate) or text that is not UTF-8 is an error naming the field, line and column (exit status
1). Then lists the plan's problems, in this order:
  blocking metric "<name>" has no threshold
  failure "<name>" names unknown metric "<metric>"
  no correctness metric
  no groundedness metric
  high-cost failure <name> is not guarded by a blocking metric
or says "no problems". JSON: {"problems": [...]}, an empty list when there are none. A plan with
problems still exits 0: the problems are the output.
With no FILE, the embedded sample plan (datasets/helpdesk/plan_v1.json) is checked.

Example:
	evalbook plan check datasets/helpdesk/plan_weak.json
`

func runPlanCheck(e *env) error {
	fs := newFlags(e, "plan check", planCheckHelp)
	asJSON := fs.Bool("json", false, "print one JSON document")
	export := addTableExportFlags(fs)
	args, err := kitParse(e, fs)
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
	return render(e, p.Check(), *asJSON, export, "plan check")
}

const planGateHelp = `
Usage: evalbook plan gate [--plan FILE] --run FILE [--json] [--xlsx FILE] [--html FILE]

Applies the plan's gates to a run file (the CSV that "evalbook run" writes). From a run file it
can measure two plan metrics:
  answer_correct   passing answer cases / answer cases
  abstain_correct  passing abstain cases / abstain cases
Every other plan metric is listed as not measured; no value is guessed. The verdict is
"release" only when the plan has no problems, every blocking metric was measured, and each
measured blocking metric meets its threshold; otherwise "no release" with each reason.
The exit status says the verdict too, so that a CI job can gate on it: 0 on release, 3 on no
release (after printing the table and the reasons, or the JSON), 1 for bad input, 2 for a usage
error.
With no --plan, the embedded sample plan (datasets/helpdesk/plan_v1.json) is used.

Example:
	evalbook run --chunking sentence --min-score 0.4 --min-margin 0.1 --out new.csv
	evalbook plan gate --plan datasets/helpdesk/plan_v1.json --run new.csv
`

func runPlanGate(e *env) error {
	fs := newFlags(e, "plan gate", planGateHelp)
	planFile := fs.String("plan", "", "plan `FILE` (default: the embedded sample plan)")
	runFile := fs.String("run", "", "run `FILE` (CSV: id,task,set,lang,expect,outcome,fact,pass)")
	asJSON := fs.Bool("json", false, "print one JSON document")
	export := addTableExportFlags(fs)
	args, err := kitParse(e, fs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("plan gate: unexpected argument %q (the run file goes after --run)", args[0])
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
	if err := render(e, &v, *asJSON, export, "plan gate"); err != nil {
		return err
	}
	if !v.Release {
		return &silentError{code: exitGateFailed} // the reasons are printed above
	}
	return nil
}
