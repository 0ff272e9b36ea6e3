package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/report/internal/cli"

	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/generate"
	"github.com/evalbook/evalbook/pkg/harness"
	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/leaderboard"
	"github.com/evalbook/evalbook/pkg/mc"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
)

// jsonOf encodes v as the command's writeJSON does.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	if err := cli.WriteJSON(&b, v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestJSONIsTheLibraryResult checks that a command's --json output is the JSON encoding of the value the library
// returns for the same input, so a notebook calling the library sees what
// the command prints, field for field.
func TestJSONIsTheLibraryResult(t *testing.T) {
	const (
		casesFile = "../datasets/helpdesk/cases.jsonl"
		planFile  = "../datasets/helpdesk/plan_weak.json"
		fewShot   = "../datasets/helpdesk/sources/few_shot.txt"
	)
	read := func(name string) []byte {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cases, err := design.ReadCaseFiles([]design.File{{Name: casesFile, Data: read(casesFile)}}, design.DefaultVocabulary)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := design.ReadPlan(bytes.NewReader(read(planFile)), planFile)
	if err != nil {
		t.Fatal(err)
	}
	src, err := design.ReadSource(bytes.NewReader(read(fewShot)), "few_shot", fewShot)
	if err != nil {
		t.Fatal(err)
	}
	cov, err := design.CoverageReportOf(cases, "lang", "expect", design.DefaultVocabulary, 3, casesFile)
	if err != nil {
		t.Fatal(err)
	}
	split, err := design.SplitOf(cases, 0.5, "release-7")
	if err != nil {
		t.Fatal(err)
	}
	leak, err := design.DefaultLeakageConfig.CheckSplitLeakage(cases, design.DefaultHoldout, design.DefaultSalt, []design.Source{src})
	if err != nil {
		t.Fatal(err)
	}

	// The run file the gate reads, from the sample system.
	runFile := t.TempDir() + "/run.csv"
	if _, errOut, code := runCLI(t, "run", "--chunking", "sentence", "--min-score", "0.4", "--min-margin", "0.1", "--out", runFile); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	rows, err := harness.ReadCSV(bytes.NewReader(read(runFile)), runFile)
	if err != nil {
		t.Fatal(err)
	}
	gate := plan.Gate(harness.Measurements(rows))
	summary, err := harness.SummarizeFiles(design.File{Name: casesFile, Data: read(casesFile)},
		design.File{Name: runFile, Data: read(runFile)}, "set")
	if err != nil {
		t.Fatal(err)
	}
	// The run report as the command builds it from the same rows.
	corpus, _ := fs.Sub(datasets.Helpdesk, "helpdesk/corpus")
	docs, err := harness.ReadCorpus(corpus)
	if err != nil {
		t.Fatal(err)
	}
	retriever, err := harness.NewRetriever(docs, harness.Sentence)
	if err != nil {
		t.Fatal(err)
	}
	sys := harness.SystemInfo{Chunking: "sentence", MinScore: 0.4, MinMargin: 0.1, Corpus: "datasets/helpdesk/corpus", Documents: len(docs), Chunks: retriever.Len()}
	ran := harness.Run(&harness.System{Retriever: retriever, MinScore: 0.4, MinMargin: 0.1}, harness.RunCases(cases))
	runRep := harness.NewRunReport(ran, sys, "datasets/helpdesk/cases.jsonl", design.Hash(cases))

	mcFile, err := mc.ReadFile("../datasets/mc/kestrel-7b_predictions.csv", mc.Columns{})
	if err != nil {
		t.Fatal(err)
	}
	mcRep, err := mc.EvaluateFile(mcFile, "../datasets/mc/kestrel-7b_predictions.csv", mc.Options{K: []int{2, 3}, Confidence: 0.9, Resamples: 500, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name string
		args []string
		want any
	}{
		{"plan check", []string{"plan", "check", "--json", planFile}, plan.Check()},
		{"plan gate", []string{"plan", "gate", "--json", "--plan", planFile, "--run", runFile}, &gate},
		{"cases coverage", []string{"cases", "coverage", "--rows", "lang", "--cols", "expect", "--min", "3", "--json", casesFile}, cov},
		{"cases hash", []string{"cases", "hash", "--json", casesFile}, design.HashOf(cases)},
		{"cases split", []string{"cases", "split", "--holdout", "0.5", "--salt", "release-7", "--json", casesFile}, split},
		{"summarize", []string{"summarize", "--json", "--dataset", casesFile, "--results", runFile, "--slice", "set"}, summary},
		{"run", []string{"run", "--json", "--chunking", "sentence", "--min-score", "0.4", "--min-margin", "0.1"}, runRep},
		{"mc", []string{"mc", "--json", "--predictions", "../datasets/mc/kestrel-7b_predictions.csv", "--k", "2,3", "--confidence", "0.9", "--resamples", "500", "--seed", "7"}, mcRep},
		{"cases leakage", []string{"cases", "leakage", "--json", "--source", "few_shot=" + fewShot, casesFile}, leak},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCLI(t, tc.args...)
			if code != 0 && !(tc.name == "plan gate" && code == cli.ExitGateFailed) {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if want := jsonOf(t, tc.want); out != want {
				t.Errorf("--json output differs from the library's result\n got: %s\nwant: %s", out, want)
			}
		})
	}
}

// Every library result a command renders is a results.Report.
var (
	_ results.Report = (*design.PlanCheck)(nil)
	_ results.Report = (*design.GateDecision)(nil)
	_ results.Report = (*design.CoverageReport)(nil)
	_ results.Report = (*design.HashReport)(nil)
	_ results.Report = (*design.SplitReport)(nil)
	_ results.Report = (*design.LeakageCheck)(nil)
	_ results.Report = (*harness.Report)(nil)
	_ results.Report = (*harness.RunReport)(nil)
	_ results.Report = (*mc.Report)(nil)
	_ results.Report = (*results.Comparison)(nil)
	_ results.Report = (*results.RaterAgreement)(nil)
	_ results.Report = (*generate.Result)(nil)
	_ results.Report = (*judge.Calibration)(nil)
	_ results.Report = (*judge.ProbeReport)(nil)
	_ results.Report = (*judge.RunSummary)(nil)
)

// TestTablesExport checks that the commands whose result is a Report
// write it as a workbook and a page (--xlsx, --html) holding the
// result's first table, and that both flags refuse standard output.
func TestTablesExport(t *testing.T) {
	const casesFile = "../datasets/helpdesk/cases.jsonl"
	for _, tc := range []struct {
		args  []string
		title string // the first table's title, as the page shows it
	}{
		{[]string{"plan", "check", "../datasets/helpdesk/plan_weak.json"}, "Plan problems"},
		{[]string{"cases", "coverage", casesFile}, "Coverage: task x set"},
		{[]string{"cases", "hash", casesFile}, "Content hash"},
		{[]string{"cases", "split", casesFile}, "Split"},
		{[]string{"summarize"}, "Answer-or-abstain summary"},
		{[]string{"mc"}, "Overall"},
		{[]string{"run"}, "By plan metric"},
		{[]string{"probes", "--judge", "fake:all"}, "Bias probes over"},
	} {
		name := strings.Join(tc.args[:min(2, len(tc.args))], " ")
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			x, h := dir+"/r.xlsx", dir+"/r.html"
			text, errOut, code := runCLI(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			out, errOut, code := runCLI(t, append(append([]string{}, tc.args...), "--xlsx", x, "--html", h)...)
			if code != 0 {
				t.Fatalf("with --xlsx and --html: exit %d: %s", code, errOut)
			}
			if out != text {
				t.Errorf("the exports changed the text on stdout")
			}
			page, err := os.ReadFile(h)
			if err != nil || !strings.Contains(string(page), tc.title) {
				t.Errorf("page %s (err %v) lacks the table %q", h, err, tc.title)
			}
			if st, err := os.Stat(x); err != nil || st.Size() == 0 {
				t.Errorf("workbook %s: %v", x, err)
			}
			if _, errOut, code := runCLI(t, append(append([]string{}, tc.args...), "--xlsx", "-")...); code != 2 || !strings.Contains(errOut, "--xlsx -") {
				t.Errorf("--xlsx -: exit %d, %s", code, errOut)
			}
		})
	}
}

// TestScoreJSONIsTheLibraryResult: `score --json` on the built-in sample
// is qa.Score's result as JSON, with the tool and the creation time the
// command stamps on it (SOURCE_DATE_EPOCH fixes the time).
func TestScoreJSONIsTheLibraryResult(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600")
	ms, err := score.ParseList("exact_substring,word_overlap,squad_f1")
	if err != nil {
		t.Fatal(err)
	}
	res, err := qa.Score(context.Background(), bytes.NewReader(datasets.Responses), datasets.ResponsesName,
		qa.Options{Metrics: ms, By: [][]string{{"language"}, {"Domain"}}, Seed: cli.DefaultSeed, Advice: scoreAdvice})
	if err != nil {
		t.Fatal(err)
	}
	res.Tool, res.Created = "evalbook "+version, results.Now()
	flagHints(res.Warnings)
	var want bytes.Buffer
	if err := res.WriteJSON(&want); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "score", "--json", "--metrics", "exact_substring,word_overlap,squad_f1", "--by", "language", "--by", "Domain")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if out != want.String() {
		t.Errorf("score --json differs from qa.Score's result\n got: %.400s\nwant: %.400s", out, want.String())
	}
}

// TestLeaderboardJSONIsTheLibraryResult: `leaderboard --json` is the
// JSON of leaderboard.Build's board for the same files and options.
func TestLeaderboardJSONIsTheLibraryResult(t *testing.T) {
	const dir = "../datasets/leaderboard"
	inputs, err := leaderboard.Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := leaderboard.Build(context.Background(), inputs, leaderboard.Options{Metric: "chrf", Confidence: 0.9, Alpha: 0.05,
		Resamples: 300, Seed: 4, Advice: leaderboardAdvice})
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "leaderboard", "--dir", dir, "--metric", "chrf", "--confidence", "0.9", "--resamples", "300", "--seed", "4", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := jsonOf(t, b); out != want {
		t.Errorf("leaderboard --json differs from the library's board\n got: %.300s\nwant: %.300s", out, want)
	}
}

// TestRunJSONReplays: the text written from a decoded `run --json` is
// the command's text, failing cases included.
func TestRunJSONReplays(t *testing.T) {
	js, errOut, code := runCLI(t, "run", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	text, _, _ := runCLI(t, "run")
	var rep harness.RunReport
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != text {
		t.Errorf("replayed text\n%s\nwant\n%s", b.String(), text)
	}
}
