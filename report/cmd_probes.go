package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/evalbook/evalbook/pkg/judge"
)

func init() {
	register(&command{name: "probes", summary: "bias probes of a pairwise judge: position, verbosity and self-preference fingerprints", run: runProbes})
}

const probesHelp = `
Usage: evalbook probes --judge fake:NAME|fake:all|URL [--pairs FILE] [--model NAME] [--prompt ID]
                       [--json] [model judge flags]

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

// probesReport is the JSON document of evalbook probes.
type probesReport struct {
	Kind     string        `json:"kind"` // always "probes"
	Pairs    string        `json:"pairs"`
	LabelSet string        `json:"label_set"`
	N        int           `json:"n"`
	Judges   []judgeProbes `json:"judges"`
}

type judgeProbes struct {
	Judge   string           `json:"judge"`
	Prompt  *judge.PromptRef `json:"prompt,omitempty"` // model judges only
	Invalid int              `json:"invalid,omitempty"`
	judge.Probes
}

func runProbes(e *env) error {
	fs := newFlags(e, "probes", probesHelp)
	var (
		pairsPath = fs.String("pairs", "", "labelled pairs `FILE` (JSON Lines); default: the built-in 30 pairs")
		spec      = fs.String("judge", "", "the judge: fake:NAME, fake:all, or an endpoint `URL`")
		promptID  = fs.String("prompt", "pairwise", "pairwise prompt `ID` for a model judge")
		asJSON    = fs.Bool("json", false, "print one JSON document instead of a table")
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
	p, err := chooseJudgePrompt("probes", *cf.prompts, *promptID, judge.KindPairwise)
	if err != nil {
		return err
	}
	pairs, pairsName, err := loadJudgePairs(e, "probes", *pairsPath)
	if err != nil {
		return err
	}
	rep := probesReport{Kind: "probes", Pairs: pairsName, LabelSet: judge.LabelSetHash(pairs), N: len(pairs)}
	specs := []string{*spec}
	if *spec == "fake:all" {
		specs = nil
		for _, f := range judge.Fakes() {
			specs = append(specs, f.String())
		}
	}
	for _, s := range specs {
		j, name, m, err := openPairJudge(e, "probes", s, cf, p)
		if err != nil {
			return err
		}
		pr, err := judge.RunProbes(e.ctx, j, pairs)
		jp := judgeProbes{Judge: name, Probes: pr}
		if m != nil {
			m.report(e)
			m.close()
			if err != nil {
				return m.interrupted(err)
			}
			ref := p.Ref()
			jp.Prompt = &ref
			jp.Invalid, _ = j.(*judge.ClientJudge).InvalidReplies()
		}
		if err != nil {
			return err
		}
		rep.Judges = append(rep.Judges, jp)
	}
	if *asJSON {
		return writeJSON(e.stdout, rep)
	}
	return rep.writeText(e.stdout)
}

func (rep *probesReport) writeText(w io.Writer) error {
	fmt.Fprintf(w, "bias probes over %s (%s, label set %s), every pair asked in both orders\n\n", rep.Pairs, nounCount(rep.N, "pair", "pairs"), rep.LabelSet)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "judge\tfirst_pick\torder_flip\tlonger_wins\tself_wins")
	cell := func(s judge.Share) string {
		v, ok := s.Value()
		if !ok {
			return "- (0/0)"
		}
		return fmt.Sprintf("%.2f (%s)", v, s)
	}
	for _, j := range rep.Judges {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", j.Judge, cell(j.FirstPick), cell(j.OrderFlip), cell(j.LongerWins), cell(j.SelfWins))
	}
	tw.Flush()
	for _, j := range rep.Judges {
		if j.Prompt != nil {
			broke := "replies broke the contract and counted as ties"
			if j.Invalid == 1 {
				broke = "reply broke the contract and counted as a tie"
			}
			fmt.Fprintf(w, "\n%s: prompt %s@%d (hash %s), %d %s\n", j.Judge, j.Prompt.Name, j.Prompt.Version, j.Prompt.Hash, j.Invalid, broke)
		}
	}
	_, err := fmt.Fprintln(w, "\nA judge without these biases shows first_pick 0.50 and 0 elsewhere; each bias raises its own column.")
	return err
}
