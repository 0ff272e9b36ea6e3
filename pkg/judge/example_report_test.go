package judge_test

import (
	"context"
	"fmt"
	"os"

	"github.com/evalbook/evalbook/pkg/judge"
)

// shipped reads the shipped pairs and finds a shipped prompt, as
// evalbook calibrate and probes do without --pairs and --prompts.
func shipped(id string) ([]judge.Pair, judge.Prompt, error) {
	f, err := os.Open("../../datasets/judge/pairs.jsonl")
	if err != nil {
		return nil, judge.Prompt{}, err
	}
	defer f.Close()
	pairs, err := judge.ReadPairs(f, "datasets/judge/pairs.jsonl")
	if err != nil {
		return nil, judge.Prompt{}, err
	}
	g, err := os.Open("../../datasets/judge/prompts.json")
	if err != nil {
		return nil, judge.Prompt{}, err
	}
	defer g.Close()
	ps, err := judge.ReadPrompts(g, "datasets/judge/prompts.json")
	if err != nil {
		return nil, judge.Prompt{}, err
	}
	p, err := judge.FindPrompt(ps, id)
	return pairs, p, err
}

// ExampleCalibrateJudge is evalbook calibrate --judge fake:verbosity: the
// verbosity judge agrees with the humans often enough (kappa above 0.6)
// but backs the padded answer on every verbose_tie pair, so the slice
// rule rejects it. The warning is coded: the Bangla slice has 2 pairs.
func ExampleCalibrateJudge() {
	pairs, prompt, err := shipped("pairwise@1")
	if err != nil {
		fmt.Println(err)
		return
	}
	verbose, _ := judge.FakeByName("verbosity")
	c, err := judge.CalibrateJudge(context.Background(), verbose, prompt, pairs, judge.CalibrationOptions{
		CalibrateOptions: judge.CalibrateOptions{Judge: verbose.String(), Seed: 1},
		Pairs:            "datasets/judge/pairs.jsonl",
		MinKappa:         judge.DefaultMinKappa, MinSlice: judge.DefaultMinSlice,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("agreement %d/%d, kappa %.3f, usable %v\n", c.Record.Agree, c.Record.N, c.Record.Kappa, c.Usable)
	for _, why := range c.Reasons {
		fmt.Println("  reason:", why)
	}
	for _, w := range c.Record.Warnings {
		fmt.Printf("  warning %s (%d): %s\n", w.Code, w.Count, w.Message)
	}
	// Output:
	// agreement 25/30, kappa 0.746, usable false
	//   reason: kind verbose_tie agrees on 0/5, below 0.6
	//   warning few_language_pairs (2): language bn has only 2 pairs: a reason to label more, not a measurement
}

// ExampleProbeJudge is evalbook probes --judge fake:all: each fake
// judge's bias fingerprint over the shipped pairs, printed as the
// command prints it. The figures are seed 003's probe table.
func ExampleProbeJudge() {
	pairs, _, err := shipped("pairwise@1")
	if err != nil {
		fmt.Println(err)
		return
	}
	var judges []judge.JudgeProbes
	for _, f := range judge.Fakes() {
		jp, err := judge.ProbeJudge(context.Background(), f, f.String(), pairs)
		if err != nil {
			fmt.Println(err)
			return
		}
		judges = append(judges, jp)
	}
	judge.NewProbeReport("datasets/judge/pairs.jsonl", pairs, judges).WriteText(os.Stdout)
	// Output:
	// bias probes over datasets/judge/pairs.jsonl (30 pairs, label set 0e2e4adda33a), every pair asked in both orders
	//
	// judge           first_pick    order_flip    longer_wins  self_wins
	// fake:clean      0.50 (21/42)  0.00 (0/30)   0.00 (0/5)   0.00 (0/5)
	// fake:position   0.78 (39/50)  0.63 (19/30)  0.40 (2/5)   0.00 (0/5)
	// fake:verbosity  0.50 (26/52)  0.00 (0/30)   1.00 (5/5)   0.00 (0/5)
	// fake:self       0.50 (21/42)  0.00 (0/30)   0.00 (0/5)   1.00 (5/5)
	// fake:mixed      0.74 (26/35)  0.57 (17/30)  0.40 (2/5)   0.60 (3/5)
	//
	// A judge without these biases shows first_pick 0.50 and 0 elsewhere; each bias raises its own column.
}
