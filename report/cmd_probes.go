package main

import "github.com/evalbook/evalbook/pkg/judge"

func init() {
	register(&command{name: "probes", summary: "bias probes of a pairwise judge: position, verbosity and self-preference fingerprints", run: runProbes})
}

const probesHelp = `
Usage: evalbook probes --judge fake:NAME|fake:all|URL [--pairs FILE] [--model NAME] [--prompt ID]
                       [--json] [--xlsx FILE] [--html FILE] [model judge flags]

Asks a pairwise judge about every labelled pair in both orders and prints its bias
fingerprint:

  first_pick   of the decisive verdicts (each order counted), the share that pick the answer
               shown first: 0.5 for a judge without position bias
  order_flip   the share of pairs whose verdict changes when the order does
  longer_wins  on verbose_tie pairs (same facts, one padded), the share the longer answer
               wins with a shown first; the human label is tie, so a fair judge scores 0
  self_wins    on self pairs (a cited plain answer against an uncited one in the judge's own
               style), the share the own-style answer wins; the human label is the cited one

Each bias leaves its own mark: position raises first_pick and order_flip, verbosity raises
longer_wins, self-preference raises self_wins. A judge with several small biases (fake:mixed)
blurs them all, which is what a real model tends to look like.

Judges: fake:clean, fake:position, fake:verbosity, fake:self, fake:mixed, fake:all (the five
in turn), or the base URL of an OpenAI-compatible endpoint with --model, asked with a
pairwise prompt (default: the highest version of "pairwise"; replies that break the contract
count as ties). Model judge flags are those of "evalbook judge". A real model's own style is
not the fake judges' "Certainly!" opener, so self_wins says little about it unless the self
pairs are rewritten in that model's style.

With no --pairs the built-in 30 pairs (datasets/judge/pairs.jsonl) are used, and a note says
so on stderr.

Examples:
	evalbook probes --judge fake:all
	evalbook probes --judge fake:mixed --json
	evalbook probes --pairs my_pairs.jsonl --judge http://127.0.0.1:11434/v1 --model llama3.1:8b
`

func runProbes(e *env) error {
	fs := newFlags(e, "probes", probesHelp)
	var (
		pairsPath = fs.String("pairs", "", "labelled pairs `FILE` (JSON Lines); default: the built-in 30 pairs")
		spec      = fs.String("judge", "", "the judge: fake:NAME, fake:all, or an endpoint `URL`")
		promptID  = fs.String("prompt", "pairwise", "pairwise prompt `ID` for a model judge")
		asJSON    = fs.Bool("json", false, "print one JSON document instead of a table")
		export    = addTableExportFlags(fs)
	)
	cf := addJudgeClientFlags(fs, 8)
	args, err := parseFlags(e, fs)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usagef("probes: unexpected argument %q", args[0])
	}
	if *spec == "" {
		return usagef("probes: --judge is required (fake:NAME, fake:all or an endpoint URL)")
	}
	p, err := chooseJudgePrompt("probes", cf.prompts, *promptID, judge.KindPairwise)
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
		jp, err := judge.ProbeJudge(e.ctx, j, name, pairs)
		if m != nil {
			m.report(e)
			m.close()
			if err != nil {
				return m.interrupted(err)
			}
		}
		if err != nil {
			return err
		}
		judges = append(judges, jp)
	}
	return render(e, judge.NewProbeReport(pairsName, pairs, judges), *asJSON, export, "probes")
}
