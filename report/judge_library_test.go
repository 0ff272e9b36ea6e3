package main

import (
	"context"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/results"
)

// TestJudgeJSONIsTheLibraryResult checks that the --json output of the
// judge commands (calibrate, probes, judge) is the JSON encoding of the
// value the library returns for the same input: the fake judges are
// deterministic, and the stub model answers every prompt the same way.
func TestJudgeJSONIsTheLibraryResult(t *testing.T) {
	ctx := context.Background()
	const pairsName = "datasets/judge/pairs.jsonl"
	f, err := datasets.Judge.Open("judge/pairs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := judge.ReadPairs(f, pairsName)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	prompt := func(id string, kind judge.Kind) judge.Prompt {
		t.Helper()
		p, err := chooseJudgePrompt("test", "", id, kind)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	pairwise, pairwise1 := prompt("pairwise", judge.KindPairwise), prompt("pairwise@1", judge.KindPairwise)
	s := newJudgeStub(t)
	stubName := "stub-judge at " + s.endpoint()
	// client is a fresh client of the stub with a memory cache, as
	// --cache none opens it.
	client := func() *llm.Client {
		t.Helper()
		c, err := llm.NewClient(llm.Config{BaseURL: s.endpoint(), Model: "stub-judge", Cache: llm.NewMemoryCache()})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	calibrate := func(j judge.Judge, name string, swap bool, versus *judge.Prompt) *judge.Calibration {
		t.Helper()
		c, err := judge.CalibrateJudge(ctx, j, pairwise, pairs, judge.CalibrationOptions{
			CalibrateOptions: judge.CalibrateOptions{Judge: name, Swap: swap, Resamples: judge.DefaultResamples, Seed: 1, Workers: 8},
			Pairs:            pairsName, MinKappa: judge.DefaultMinKappa, MinSlice: judge.DefaultMinSlice, Versus: versus,
		})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	probe := func(j judge.Judge, name string) judge.JudgeProbes {
		t.Helper()
		jp, err := judge.ProbeJudge(ctx, j, name, pairs)
		if err != nil {
			t.Fatal(err)
		}
		return jp
	}
	mixed, _ := judge.FakeByName("mixed")
	var fakes []judge.JudgeProbes
	for _, f := range judge.Fakes() {
		fakes = append(fakes, probe(f, f.String()))
	}

	// The judge run over the first 40 sample rows.
	tbl, err := judge.ReadResponses(ctx, datasets.Responses, datasets.ResponsesName, judge.ResponseOptions{By: "Domain", Limit: 40})
	if err != nil {
		t.Fatal(err)
	}
	run, err := judge.JudgeResponses(ctx, judge.NewClientJudge(client(), prompt("reference", judge.KindReference)), tbl,
		judge.RunOptions{Model: "stub-judge", Endpoint: s.endpoint(), Tool: "evalbook " + version, Workers: 8})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600") // as runCLI sets it
	run.Score.Created = results.Now()

	stub := []string{"--judge", s.endpoint(), "--model", "stub-judge", "--cache", "none"}
	for _, tc := range []struct {
		name string
		args []string
		want func() any // built after the command ran, so a model judge's requests do not mix
	}{
		{"calibrate fake", []string{"calibrate", "--judge", "fake:mixed", "--swap", "--json"},
			func() any { return calibrate(mixed, "fake:mixed", true, nil) }},
		{"calibrate model --vs", append([]string{"calibrate", "--swap", "--vs", "pairwise@1", "--json"}, stub...),
			func() any {
				return calibrate(judge.NewClientJudge(client(), pairwise), stubName, true, &pairwise1)
			}},
		{"probes fake:all", []string{"probes", "--judge", "fake:all", "--json"},
			func() any { return judge.NewProbeReport(pairsName, pairs, fakes) }},
		{"probes model", append([]string{"probes", "--json"}, stub...),
			func() any {
				return judge.NewProbeReport(pairsName, pairs, []judge.JudgeProbes{probe(judge.NewClientJudge(client(), pairwise), stubName)})
			}},
		{"judge", []string{"judge", "--endpoint", s.endpoint(), "--model", "stub-judge", "--cache", "none", "--limit", "40", "--json"},
			func() any { return run }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if want := jsonOf(t, tc.want()); out != want {
				t.Errorf("--json output differs from the library's result\n got: %s\nwant: %s", out, want)
			}
		})
	}
}
