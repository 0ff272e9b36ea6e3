package main

import (
	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/report/internal/cli"
)

var probesCommand = cli.Command{Name: "probes", Summary: "bias probes of a pairwise judge: position, verbosity and self-preference fingerprints", Run: runProbes}

func runProbes(e *cli.Env) error {
	fs := cli.NewFlags(e, "probes")
	var (
		pairsPath = cli.InputFlag(fs, "pairs", "", "labelled pairs `FILE` (JSON Lines); default: the built-in 30 pairs")
		spec      = fs.String("judge", "", "the judge: fake:NAME, fake:all, or an endpoint `URL`")
		promptID  = fs.String("prompt", "pairwise", "pairwise prompt `ID` for a model judge")
		export    = cli.AddTableExportFlags(fs)
	)
	cf, prompts := addJudgeClientFlags(fs)
	if err := cli.ParseNoArgs(e, fs, ""); err != nil {
		return err
	}
	if *spec == "" {
		return cli.Usagef("probes: --judge is required (fake:NAME, fake:all or an endpoint URL)")
	}
	p, err := chooseJudgePrompt("probes", *prompts, *promptID, judge.KindPairwise)
	if err != nil {
		return err
	}
	pairs, pairsName, err := loadJudgePairs(e, "probes", *pairsPath)
	if err != nil {
		return err
	}
	specs := []string{*spec}
	if *spec == "fake:all" {
		specs = nil
		for _, f := range judge.Fakes() {
			specs = append(specs, f.String())
		}
	}
	var judges []judge.JudgeProbes
	for _, s := range specs {
		j, name, m, err := openPairJudge(e, "probes", s, cf, p)
		if err != nil {
			return err
		}
		jp, err := judge.ProbeJudge(e.Ctx, j, name, pairs)
		if m != nil {
			m.Report(e)
			m.Close()
			if err != nil {
				return m.Interrupted(err)
			}
		}
		if err != nil {
			return err
		}
		judges = append(judges, jp)
	}
	return cli.Render(e, judge.NewProbeReport(pairsName, pairs, judges), export)
}
