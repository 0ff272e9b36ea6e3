package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/generate"
	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/llm"
	"github.com/evalbook/evalbook/pkg/mc"
	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/report/internal/cli"
)

// A judge run (the loopback stub judging 20 sample rows, two of its
// replies invalid) is recorded with its judge prompt hash, and its
// llm_judge outcomes come back with no verdict for the invalid replies,
// as `judge --record` does.
func TestRecordJudge(t *testing.T) {
	stub := newJudgeStub(t)
	p, err := chooseJudgePrompt("judge", "", "reference@1", judge.KindReference)
	if err != nil {
		t.Fatal(err)
	}
	client, err := llm.NewClient(llm.Config{BaseURL: stub.endpoint(), Model: "m", Cache: llm.NewMemoryCache()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tbl, err := judge.ReadResponses(ctx, datasets.Responses, datasets.ResponsesName, judge.ResponseOptions{Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	res, err := judge.JudgeResponses(ctx, judge.NewClientJudge(client, p), tbl, judge.RunOptions{Model: "m", Tool: "evalbook test"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "runs.db")
	for range 2 { // the same judge run recorded twice: runs 1 and 2
		fs := flag.NewFlagSet("judge", flag.ContinueOnError)
		rec := cli.AddRecordFlag(fs)
		fs.Parse([]string{"--record", "--store", path})
		e := &cli.Env{Ctx: ctx, Stdout: io.Discard, Stderr: io.Discard}
		if err := rec.Judge(e, res, tbl); err != nil {
			t.Fatal(err)
		}
		rec.Close()
		if err := e.NotRecorded(); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	run, err := st.Get(ctx, "last")
	if err != nil {
		t.Fatal(err)
	}
	if run.Command != "judge" || run.JudgePromptHash != p.Hash() || run.Rows != 20 || run.KeyKind != store.KeyID {
		t.Fatalf("run %+v", run)
	}
	// A/A of the run recorded twice: no flips, and the two invalid
	// replies are out of the figures (no verdict).
	aa, err := st.AA(ctx, "1", "2", 0.95)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range aa.Metrics {
		want := 20
		if m.Metric == "llm_judge" {
			want = 18
		}
		if m.N != want || m.Flips != 0 || math.Abs(m.Delta) != 0 {
			t.Errorf("%s: n %d flips %d, want n %d", m.Metric, m.N, m.Flips, want)
		}
	}
}

// An mc run of the embedded sample is recorded with every question's
// outcome; the stored outcomes add up to the report's figures.
func TestRecordMC(t *testing.T) {
	data, err := datasets.MC.ReadFile(datasets.MCPredictionsName)
	if err != nil {
		t.Fatal(err)
	}
	f, err := mc.Read(bytes.NewReader(data), datasets.MCPredictionsName, mc.Columns{})
	if err != nil {
		t.Fatal(err)
	}
	opt := mc.Options{K: []int{2}, Resamples: 100, Seed: 1}
	rep, err := mc.EvaluateFile(f, datasets.MCPredictionsName, opt)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "runs.db")
	fs := flag.NewFlagSet("mc", flag.ContinueOnError)
	rec := cli.AddRecordFlag(fs)
	fs.Parse([]string{"--record", "--store", path})
	defer rec.Close()
	ctx := context.Background()
	e := &cli.Env{Ctx: ctx, Stdout: io.Discard, Stderr: io.Discard}
	if err := rec.MC(e, f, rep, opt.Seed); err != nil {
		t.Fatal(err)
	}
	if err := e.NotRecorded(); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var sums = map[string]float64{}
	rows, err := st.DB().Query(`SELECT metric, sum(value) FROM outcome WHERE run_id = 1 GROUP BY metric`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var m string
		var v float64
		rows.Scan(&m, &v)
		sums[m] = v
	}
	rows.Close()
	if len(sums) != len(rep.Metrics) {
		t.Fatalf("stored metrics %v, report has %v", sums, rep.Metrics)
	}
	for _, m := range rep.Metrics {
		if math.Abs(sums[m]-rep.Overall.Metrics[m].Correct) > 1e-9 {
			t.Errorf("%s: stored outcomes sum to %v, the report counts %v", m, sums[m], rep.Overall.Metrics[m].Correct)
		}
	}
	run, _ := st.Get(ctx, "1")
	// The sample repeats each question id once per language: the rows
	// are keyed by "id / language", which is unique.
	if run.Command != "mc" || run.Rows != len(f.Questions) || run.KeyKind != store.KeyID {
		t.Errorf("run %+v", run)
	}
}

// Two generations of the same questions are recorded (scored with qa's
// defaults) and gated: the second loses one of four answers.
func TestRecordGenerate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	ctx := context.Background()
	qs := []generate.Question{{Line: 2, ID: "g1", Text: "Capital of France?", Answer: "Paris", Domain: "geo"},
		{Line: 3, ID: "g2", Text: "Capital of India?", Answer: "Delhi", Domain: "geo"},
		{Line: 4, ID: "g3", Text: "Who wrote Gitanjali?", Answer: "Tagore", Domain: "lit"},
		{Line: 5, ID: "g4", Text: "Largest planet?", Answer: "Jupiter", Domain: "sci"}}
	for _, responses := range [][]string{{"Paris", "New Delhi", "Tagore", "Jupiter"}, {"Paris", "Mumbai", "Tagore", "Jupiter"}} {
		res := &generate.Result{Model: "kestrel-7b", Questions: len(qs)}
		for i, q := range qs {
			res.Rows = append(res.Rows, generate.Row{Question: q, Response: responses[i]})
		}
		fs := flag.NewFlagSet("generate", flag.ContinueOnError)
		rec := cli.AddRecordFlag(fs)
		fs.Parse([]string{"--record", "--store", path})
		e := &cli.Env{Ctx: ctx, Stdout: io.Discard, Stderr: io.Discard}
		if err := rec.Generate(e, res, "tpl123"); err != nil {
			t.Fatal(err)
		}
		rec.Close()
		if err := e.NotRecorded(); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := runCLI(t, "gate", "--store", path, "--baseline", "1", "--candidate", "2", "--metric", "exact_substring", "--margin", "0", "--json")
	var g struct {
		Delta  float64
		Worse  int
		N      int
		Better int
	}
	if err := json.Unmarshal([]byte(out), &g); err != nil || code != 0 || g.N != 4 || g.Worse != 1 || g.Better != 0 || g.Delta != -0.25 {
		t.Errorf("gate: exit %d %v %+v %s", code, err, g, errOut)
	}
	// Four pairs cannot establish anything anytime-validly: "continue",
	// exit 0, and the text names the sequence.
	out, errOut, code = runCLI(t, "gate", "--store", path, "--baseline", "1", "--candidate", "2", "--metric", "exact_substring", "--margin", "0", "--sequential", "--json")
	var sg struct {
		Regression bool
		Sequential struct {
			Decision string
			N        int
			Delta    float64
		}
	}
	if err := json.Unmarshal([]byte(out), &sg); err != nil || code != 0 || sg.Regression || sg.Sequential.Decision != "continue" || sg.Sequential.N != 4 || sg.Sequential.Delta != -0.25 {
		t.Errorf("gate --sequential: exit %d %v %+v %s", code, err, sg, errOut)
	}
	if out, _, _ = runCLI(t, "gate", "--store", path, "--baseline", "1", "--candidate", "2", "--metric", "exact_substring", "--margin", "0", "--sequential"); !strings.Contains(out, "continue: after all 4 pairs") {
		t.Errorf("gate --sequential text:\n%s", out)
	}
	out, _, _ = runCLI(t, "runs", "list", "--json", "--store", path)
	if !strings.Contains(out, `"prompt_hash": "tpl123"`) || !strings.Contains(out, `"command": "generate"`) || !strings.Contains(out, `"model": "kestrel-7b"`) {
		t.Errorf("runs list:\n%s", out)
	}
}
