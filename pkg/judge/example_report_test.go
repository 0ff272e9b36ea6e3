package judge_test

import (
	"context"
	"fmt"
	"os"

	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/llm"
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

// alwaysCorrect is a judge model that calls every response correct.
type alwaysCorrect struct{}

func (alwaysCorrect) Complete(context.Context, llm.Request) (string, error) {
	return `{"verdict": "correct", "reason": "same answer"}`, nil
}

// ExampleJudgeResponses is evalbook judge on a three-row table with a
// model that calls every response correct: the blank response is not
// sent and counts as incorrect, so llm_judge passes 2 of 3 rows, while
// exact_substring and word_overlap pass only the row that names Calcutta
// ("Hugli" is not the golden "Hooghly"). The verdict file is what
// evalbook judge --out writes.
func ExampleJudgeResponses() {
	csv := "question,answer,Domain,response\n" +
		"Capital of British India until 1911?,Calcutta,History,It was Calcutta.\n" +
		"River through Kolkata?,Hooghly,Geography,The Hugli river.\n" +
		"Who issued the rock edicts?,Ashoka,History,\n"
	ctx := context.Background()
	t, err := judge.ReadResponses(ctx, []byte(csv), "run.csv", judge.ResponseOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, prompt, err := shipped("reference")
	if err != nil {
		fmt.Println(err)
		return
	}
	sum, err := judge.JudgeResponses(ctx, judge.NewClientJudge(alwaysCorrect{}, prompt), t, judge.RunOptions{Model: "always-correct", Endpoint: "in process"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("rows %d, sent %d, invalid %d\n", sum.Judge.Rows, sum.Judge.Sent, sum.Judge.Invalid)
	for _, m := range sum.Score.Settings.Metrics {
		fmt.Printf("%s %v/%d\n", m, sum.Score.Combined.Metrics[m].Correct, sum.Score.Combined.N)
	}
	t.WriteVerdicts(os.Stdout)
	// Output:
	// rows 3, sent 2, invalid 0
	// exact_substring 1/3
	// word_overlap 1/3
	// llm_judge 2/3
	// question,answer,Domain,response,exact_substring,word_overlap,llm_judge,llm_judge_reason
	// Capital of British India until 1911?,Calcutta,History,It was Calcutta.,1,1,1,same answer
	// River through Kolkata?,Hooghly,Geography,The Hugli river.,0,0,1,same answer
	// Who issued the rock edicts?,Ashoka,History,,0,0,0,blank response (not sent)
}
