package leaderboard

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/sample"
)

const interopData = "../interop/testdata/"

// runInputs reads harness outputs of the interop fixtures as board inputs.
func runInputs(t *testing.T, paths ...string) []Input {
	t.Helper()
	var runs []*interop.Run
	for _, p := range paths {
		r, err := interop.Read(context.Background(), interopData+p, interop.Options{})
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	return RunInputs(runs)
}

// warningMessages returns the messages of b's warnings of code, in order.
func warningMessages(b *Board, code string) []string {
	var got []string
	for _, w := range b.Warnings {
		if w.Code == code {
			got = append(got, w.Message)
		}
	}
	return got
}

func hasWarning(b *Board, code string) (int, string, bool) {
	for _, w := range b.Warnings {
		if w.Code == code {
			return w.Count, w.Message, true
		}
	}
	return 0, "", false
}

// TestHarnessBoardLMEval (issue 26): a board of two lm-eval runs ranks
// lm-eval's own acc,none, not a re-score of the text. The fixtures
// (testdata/lmeval/{new,runB}, make_fixtures.py) hold arc_easy_hi's four
// documents with acc 1, 1, 0, 1 (tiny-hi) and 1, 0, 1, 1 (tiny-hi-v2):
// 3/4 = 0.75 each, the figure both results files report; doc 1 favours
// tiny-hi, doc 2 tiny-hi-v2, so the sign test sees 1 against 1 (p = 1).
func TestHarnessBoardLMEval(t *testing.T) {
	b, err := Build(context.Background(), runInputs(t, "lmeval/new", "lmeval/runB"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Default: acc,none, acc_norm,none and both exact_match filters are
	// 0/1 in both runs; acc,none is preferred (interop.DefaultMetricOf).
	if b.Metric.ID != "acc,none" || b.Metric.By != sample.ByHarness || b.Metric.Source != "lm-eval" || b.Metric.Graded {
		t.Fatalf("metric %+v", b.Metric)
	}
	// lm-eval writes no language: a models × tasks grid, paired by doc_hash.
	if b.Axis != AxisTask || !slices.Equal(b.Languages, []string{"arc_easy_hi"}) || b.Settings.PairKey != "task/doc_hash" || b.Settings.Interval != "wilson" {
		t.Fatalf("axis %q, columns %v, pair key %q, interval %q", b.Axis, b.Languages, b.Settings.PairKey, b.Settings.Interval)
	}
	if !slices.Equal(b.Models, []string{"evalbook/tiny-hi", "evalbook/tiny-hi-v2"}) || len(b.Cells) != 2 {
		t.Fatalf("models %v, cells %+v", b.Models, b.Cells)
	}
	// Wilson 95% for 3 of 4 (z = 1.959964): centre (0.75 + z²/8)/(1 + z²/4)
	// = 0.627527, half 0.326885: [0.300642, 0.954413].
	for _, c := range b.Cells {
		if c.Language != "arc_easy_hi" || c.N != 4 || c.Value != 0.75 || math.Abs(c.CILow-0.300642) > 1e-6 || math.Abs(c.CIHigh-0.954413) > 1e-6 ||
			c.Rank != 1 || c.Tier != 1 || c.Best {
			t.Errorf("cell %+v", c)
		}
	}
	if len(b.Leaders) != 1 {
		t.Fatalf("leaders %+v", b.Leaders)
	}
	ld := b.Leaders[0]
	if ld.Shared != 4 || ld.Better != 1 || ld.Worse != 1 || ld.P != 1 || ld.Significant || ld.Test != "sign test (exact McNemar)" {
		t.Errorf("leader %+v", ld)
	}
	if len(b.Domains) != 0 {
		t.Errorf("a task grid has no domains: %+v", b.Domains)
	}
	if _, _, ok := hasWarning(b, interop.CodeHarnessMetrics); !ok {
		t.Errorf("no %s warning: %+v", interop.CodeHarnessMetrics, b.Warnings)
	}
	if _, _, ok := hasWarning(b, interop.CodeRescored); ok {
		t.Errorf("a board of the harness's values says it is a re-score: %+v", b.Warnings)
	}
	// flores_hi_en (bleu, a corpus metric kept as lists) and gsm8k_bn
	// (exact_match under two filters) carry no acc,none.
	if n, msg, ok := hasWarning(b, CodeTasksLeftOut); !ok || n != 2 || !strings.Contains(msg, "flores_hi_en, gsm8k_bn") {
		t.Errorf("tasks left out: %d %q", n, msg)
	}
	if len(b.Files) != 2 || b.Files[0].Path != "new" || b.Files[0].Rows != 4 || b.Files[0].Model != "evalbook/tiny-hi" || len(b.Files[0].Hash) != 12 {
		t.Errorf("files %+v", b.Files)
	}
	var text strings.Builder
	if err := b.WriteText(&text); err != nil || !strings.Contains(text.String(), "2 models × 1 task") ||
		!strings.Contains(text.String(), "paired across models by task/doc_hash") {
		t.Errorf("%v\n%s", err, text.String())
	}
}

// TestHarnessBoardMetricNames: --metric names a metric the runs carry, a
// filter-less name when one filter has it, and an evalbook id re-scores.
func TestHarnessBoardMetricNames(t *testing.T) {
	in := runInputs(t, "lmeval/new", "lmeval/runB")
	ctx := context.Background()
	// gsm8k_bn strict-match: 1, 0, 1 in both runs (document 1 "[invalid]").
	b, err := Build(ctx, in, Options{Metric: "exact_match,strict-match"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range b.Cells {
		if c.Language != "gsm8k_bn" || c.N != 3 || math.Abs(c.Value-2.0/3) > 1e-15 {
			t.Errorf("cell %+v", c)
		}
	}
	if ld := b.Leaders[0]; ld.Shared != 3 || ld.Better != 0 || ld.Worse != 0 {
		t.Errorf("leader %+v", ld)
	}
	for name, want := range map[string]string{"acc": "acc,none", "acc_norm,none": "acc_norm,none", "": "acc,none"} {
		got, re, err := ResolveMetric(in, name, false)
		if err != nil || got != want || re {
			t.Errorf("ResolveMetric(%q) = %q, %v, %v; want %q", name, got, re, err, want)
		}
	}
	if _, _, err := ResolveMetric(in, "exact_match", false); err == nil || !strings.Contains(err.Error(), "exact_match,flexible-extract, exact_match,strict-match") {
		t.Errorf("an ambiguous name: %v", err)
	}
	if _, _, err := ResolveMetric(in, "nonesuch", false); err == nil || !strings.Contains(err.Error(), "acc,none") {
		t.Errorf("an unknown name: %v", err)
	}
	if _, _, err := ResolveMetric(in, "acc,none", true); err == nil {
		t.Error("a re-score with a harness metric was accepted")
	}
	got := SplitMetrics("word_overlap, acc,none,exact_match,strict-match,acc", in)
	if !slices.Equal(got, []string{"word_overlap", "acc,none", "exact_match,strict-match", "acc"}) {
		t.Errorf("SplitMetrics: %q", got)
	}
	if _, err := Build(ctx, in, Options{Profile: 1}); err == nil || !strings.Contains(err.Error(), "re-score") {
		t.Errorf("normalisation of a harness's values: %v", err)
	}
}

// TestHarnessBoardRescore: a re-score happens only when asked, and the
// board says so.
func TestHarnessBoardRescore(t *testing.T) {
	in := runInputs(t, "lmeval/new", "lmeval/runB")
	for _, opt := range []Options{{Rescore: true}, {Metric: "word_overlap"}} {
		b, err := Build(context.Background(), in, opt)
		if err != nil {
			t.Fatal(err)
		}
		want := opt.Metric
		if want == "" {
			want = "exact_substring"
		}
		if b.Metric.ID != want || b.Metric.By != sample.ByEvalbook || b.Warnings[0].Code != interop.CodeRescored ||
			!strings.Contains(b.Warnings[0].Message, "re-score") || !strings.Contains(b.Warnings[0].Message, "acc,none") {
			t.Errorf("%+v: metric %+v, warnings %+v", opt, b.Metric, b.Warnings)
		}
		if _, _, ok := hasWarning(b, interop.CodeHarnessMetrics); ok {
			t.Errorf("a re-score claims the harness's values: %+v", b.Warnings)
		}
	}
}

// TestHarnessBoardLanguages: inspect writes each sample's language, so
// the board is by language with the task as domain. qa_hi_bn.eval's
// includes scorer gives hi samples 1, 3, 5 the values 1, 1, 0 (2/3) and
// bn samples 2, 4 the values 0, 1 (1/2); v1.json has no includes scorer
// and is left out, saying so.
func TestHarnessBoardLanguages(t *testing.T) {
	b, err := Build(context.Background(), runInputs(t, "inspect/qa_hi_bn.eval", "inspect/v1.json"), Options{Metric: "includes"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Axis != AxisLanguage || !slices.Equal(b.Languages, []string{"bn", "hi"}) || b.Settings.PairKey != "task/sample id" {
		t.Fatalf("axis %q, languages %v, pair key %q", b.Axis, b.Languages, b.Settings.PairKey)
	}
	if !slices.Equal(b.Models, []string{"openai/gpt-4o-mini"}) {
		t.Fatalf("models %v", b.Models)
	}
	if n, msg, ok := hasWarning(b, CodeRunsLeftOut); !ok || n != 1 || !strings.Contains(msg, "v1.json") {
		t.Errorf("runs left out: %d %q", n, msg)
	}
	c, ok := b.cell("openai/gpt-4o-mini", "hi")
	if !ok || c.N != 3 || math.Abs(c.Value-2.0/3) > 1e-15 {
		t.Errorf("hi %+v", c)
	}
	if c, ok := b.cell("openai/gpt-4o-mini", "bn"); !ok || c.N != 2 || c.Value != 0.5 {
		t.Errorf("bn %+v", c)
	}
	found := false
	for _, d := range b.Domains {
		found = found || d.Domain == "qa_hi_bn" && d.Language == "hi" && d.Model == "openai/gpt-4o-mini" && d.N == 3
	}
	if !found {
		t.Errorf("domains %+v", b.Domains)
	}
}

// TestHarnessBoardSameModel: two runs of one model are two rows, the
// second named by its file (as interop.ResponsesFS names it). Both give
// model_graded_qa 1, 0, 0.5, 1, 0 to samples 1-5: hi (1, 3, 5) has
// mean 0.5, and no item differs between them.
func TestHarnessBoardSameModel(t *testing.T) {
	b, err := Build(context.Background(), runInputs(t, "inspect/qa_hi_bn.eval", "inspect/v1.json"), Options{Metric: "model_graded_qa"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.Models, []string{"openai/gpt-4o-mini", "openai/gpt-4o-mini [v1]"}) {
		t.Fatalf("models %v", b.Models)
	}
	for _, m := range b.Models {
		if c, ok := b.cell(m, "hi"); !ok || c.N != 3 || c.Value != 0.5 {
			t.Errorf("%s hi %+v", m, c)
		}
	}
	// bn's values (0, 1) are 0/1: McNemar; hi holds a 0.5.
	for _, ld := range b.Leaders {
		want := map[string]string{"bn": "sign test (exact McNemar)", "hi": "sign test on row scores"}[ld.Language]
		if ld.Shared == 0 || ld.Better != 0 || ld.Worse != 0 || ld.Test != want {
			t.Errorf("leader %+v", ld)
		}
	}
}

// TestHarnessBoardGraded: inspect's model_graded_qa over two epochs is
// graded (C 1, P 0.5, I 0): hi holds 1:1 = 1, 3:1 = 0.5, 1:2 = 1,
// 3:2 = 0, mean 0.625, with the normal interval.
func TestHarnessBoardGraded(t *testing.T) {
	b, err := Build(context.Background(), runInputs(t, "inspect/epochs.eval"), Options{Metric: "model_graded_qa"})
	if err != nil {
		t.Fatal(err)
	}
	c, ok := b.cell("openai/gpt-4o-mini", "hi")
	if !b.Metric.Graded || b.Settings.Interval != "normal" || !ok || c.N != 4 || c.Value != 0.625 {
		t.Errorf("graded %v, interval %q, cell %+v", b.Metric.Graded, b.Settings.Interval, c)
	}
	// s² = (2.25 − 4·0.625²)/3 = 0.229167, se = 0.239357, half-width
	// 1.959964·se = 0.469131: [0.155869, 1 (clipped)].
	if math.Abs(c.CILow-0.155869) > 1e-6 || c.CIHigh != 1 {
		t.Errorf("interval [%v, %v]", c.CILow, c.CIHigh)
	}
}

// TestHarnessBoardBadValues: a value outside [0, 1] is an error naming
// the sample, a NaN is left out and counted, mixed inputs are refused.
func TestHarnessBoardBadValues(t *testing.T) {
	run := func(model string, vals ...float64) *interop.Run {
		r := &interop.Run{Format: "test", Source: model + ".json", Model: model}
		for i, v := range vals {
			r.Samples = append(r.Samples, sample.Sample{Task: "t", SampleID: string(rune('a' + i)), Metrics: []sample.Metric{{Name: "s", Value: v}}})
		}
		return r
	}
	ctx := context.Background()
	if _, err := Build(ctx, RunInputs([]*interop.Run{run("m", 1, 5)}), Options{Metric: "s"}); err == nil || !strings.Contains(err.Error(), `sample "b"`) {
		t.Errorf("a value of 5: %v", err)
	}
	b, err := Build(ctx, RunInputs([]*interop.Run{run("m", 1, math.NaN(), 0), run("n", 1, 1, 1)}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n, _, ok := hasWarning(b, CodeSamplesWithoutValue); !ok || n != 1 {
		t.Errorf("NaN: %+v", b.Warnings)
	}
	if c, ok := b.cell("m", "t"); !ok || c.N != 2 || c.Value != 0.5 {
		t.Errorf("cell %+v", c)
	}
	mixed := append(RunInputs([]*interop.Run{run("m", 1)}), Input{Path: "x_hindi.csv", Model: "x", Language: "hindi"})
	if _, err := Build(ctx, mixed, Options{}); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("mixed inputs: %v", err)
	}
}

// A promptfoo run whose models repeat a test (results_v3.json) warns of
// each model's duplicates in the models' order, the same every time (the
// warnings came in the order of a map before: two orders in 8 runs).
func TestHarnessDuplicateWarningsSorted(t *testing.T) {
	var first []string
	for i := range 12 {
		b, err := Build(context.Background(), runInputs(t, "promptfoo/results_v3.json"), Options{Rescore: true})
		if err != nil {
			t.Fatal(err)
		}
		got := warningMessages(b, CodeDuplicateQuestion)
		if len(got) < 2 || !slices.IsSorted(got) {
			t.Fatalf("duplicate warnings (want two or more, sorted):\n%s", strings.Join(got, "\n"))
		}
		if i == 0 {
			first = got
		} else if !slices.Equal(got, first) {
			t.Fatalf("run %d warned\n%s\nafter\n%s", i, strings.Join(got, "\n"), strings.Join(first, "\n"))
		}
	}
}

// Without a re-score, a harness run whose models each hold one sample
// twice (made here directly: the readers refuse such files) warns of it
// model by model in the models' order, the same every time.
func TestHarnessRunDuplicateWarningsSorted(t *testing.T) {
	run := &interop.Run{Format: "promptfoo", Source: "dup.json"}
	for _, m := range []string{"f/m", "c/m", "a/m", "e/m", "b/m", "d/m"} {
		for _, id := range []string{"0", "1", "1"} {
			s := interop.Sample{Model: m, Task: "dup", SampleID: id, File: "dup.json"}
			s.SetMetric("pass", 1)
			run.Samples = append(run.Samples, s)
		}
	}
	for range 3 {
		b, err := Build(context.Background(), RunInputs([]*interop.Run{run}), Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := warningMessages(b, CodeDuplicateQuestion)
		if len(got) != 6 || !slices.IsSorted(got) {
			t.Fatalf("duplicate warnings (want 6, sorted):\n%s", strings.Join(got, "\n"))
		}
	}
}
