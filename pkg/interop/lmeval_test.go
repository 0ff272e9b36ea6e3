package interop

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
)

func read(t *testing.T, path string, opt Options) *Run {
	t.Helper()
	run, err := Read(context.Background(), path, opt)
	if err != nil {
		t.Fatalf("Read(%s): %v", path, err)
	}
	return run
}

func mustCheck(t *testing.T, run *Run) *CheckReport {
	t.Helper()
	rep, err := CheckRun(run)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func findTask(t *testing.T, rep *CheckReport, task, metric string) CheckedTask {
	t.Helper()
	for _, c := range rep.Tasks {
		if c.Task == task && c.Metric == metric {
			return c
		}
	}
	t.Fatalf("no checked figure %s %s in %+v", task, metric, rep.Tasks)
	return CheckedTask{}
}

func TestLMEvalNew(t *testing.T) {
	run := read(t, "testdata/lmeval/new", Options{})
	if run.Format != "lm-eval" || run.Model != "evalbook/tiny-hi" {
		t.Fatalf("format %q model %q", run.Format, run.Model)
	}
	// 4 arc documents, 3 gsm8k documents under 2 filters, 2 flores documents
	if len(run.Samples) != 4+6+2 {
		t.Fatalf("%d samples, want 12", len(run.Samples))
	}
	s := run.Samples[0]
	if s.Task != "arc_easy_hi" || s.SampleID != "0" || s.DocHash == "" || !s.HasPrompt || !strings.HasPrefix(s.Prompt, "प्रश्न: सूर्य") || s.Golden != "0" {
		t.Fatalf("first sample %+v", s)
	}
	if v, ok := s.Value("acc,none"); !ok || v != 1 {
		t.Fatalf("acc,none = %v %v", v, ok)
	}
	rep := mustCheck(t, run)
	if !rep.OK() {
		t.Fatalf("check differs: %+v", rep.Tasks)
	}
	// Hand computation: arc acc over the four documents is 1,1,0,1 -> 0.75;
	// the sample variance is (3*0.25^2 + 0.75^2)/3 = 0.25, so the standard
	// error is sqrt(0.25)/sqrt(4) = 0.25.
	if c := findTask(t, rep, "arc_easy_hi", "acc,none"); c.N != 4 || c.Recomputed != 0.75 {
		t.Fatalf("acc %+v", c)
	}
	if c := findTask(t, rep, "arc_easy_hi", "acc_stderr,none"); c.Recomputed != 0.25 || c.How != "mean_stderr" {
		t.Fatalf("acc stderr %+v", c)
	}
	// gsm8k strict-match 1,0,1 -> 2/3 ; flexible-extract 1,1,1 -> 1
	if c := findTask(t, rep, "gsm8k_bn", "exact_match,strict-match"); c.N != 3 || c.Recomputed != 2.0/3 {
		t.Fatalf("strict %+v", c)
	}
	if c := findTask(t, rep, "gsm8k_bn", "exact_match,flexible-extract"); c.Recomputed != 1 {
		t.Fatalf("flexible %+v", c)
	}
	// bleu keeps [reference, prediction] per sample: not a mean, skipped with a reason
	if len(rep.Skipped) != 1 || rep.Skipped[0].Task != "flores_hi_en" {
		t.Fatalf("skipped %+v", rep.Skipped)
	}
}

func TestLMEvalOld(t *testing.T) {
	run := read(t, "testdata/lmeval/old", Options{})
	if len(run.Samples) != 4 || run.Samples[0].Task != "arc_easy_hi" || run.Model != "evalbook/tiny-hi" {
		t.Fatalf("samples %d, task %q model %q", len(run.Samples), run.Samples[0].Task, run.Model)
	}
	if run.Samples[2].Line <= run.Samples[1].Line {
		t.Fatalf("line numbers of the array elements do not advance: %d, %d", run.Samples[1].Line, run.Samples[2].Line)
	}
	if !strings.HasPrefix(run.Samples[0].Prompt, "प्रश्न") {
		t.Fatalf("old arguments list: prompt %q", run.Samples[0].Prompt)
	}
	rep := mustCheck(t, run)
	if !rep.OK() || len(rep.Tasks) != 4 {
		t.Fatalf("check %+v", rep.Tasks)
	}
}

func TestLMEvalMismatch(t *testing.T) {
	rep, err := Check(context.Background(), "testdata/lmeval/mismatch", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK() {
		t.Fatal("a reported 0.8 against a recomputed 0.75 matched")
	}
	c := findTask(t, rep, "arc_easy_hi", "acc,none")
	if c.Match || c.Reported != 0.8 || c.Recomputed != 0.75 {
		t.Fatalf("%+v", c)
	}
	if rep.Records != 12 {
		t.Fatalf("records %d", rep.Records)
	}
}

func TestLMEvalBroken(t *testing.T) {
	for _, tc := range []struct {
		path, want, field string
		line              int
	}{
		{"testdata/lmeval/broken/truncated", "truncated", "", 2},
		{"testdata/lmeval/broken/no_doc_id", "doc_id", "doc_id", 3},
	} {
		_, err := Read(context.Background(), tc.path, Options{Format: "lm-eval"})
		var pe *tabular.ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("%s: %v is not a ParseError", tc.path, err)
		}
		if pe.Line != tc.line || pe.Field != tc.field || !strings.Contains(err.Error(), tc.want) || !strings.Contains(pe.File, "samples_arc_easy_hi") {
			t.Errorf("%s: %v (line %d field %q)", tc.path, err, pe.Line, pe.Field)
		}
	}
}

func TestLMEvalLineLimit(t *testing.T) {
	_, err := Read(context.Background(), "testdata/lmeval/new", Options{Limits: Limits{Line: 100}})
	if !errors.Is(err, tabular.ErrTooLong) || !strings.Contains(err.Error(), "100 bytes") {
		t.Fatalf("%v", err)
	}
}

// Check streams the samples (in parallel for JSONL files) and must find
// what CheckRun finds over the run read whole, and the same errors.
func TestCheckStreamingEqualsWhole(t *testing.T) {
	for _, p := range []string{"testdata/lmeval/new", "testdata/lmeval/old", "testdata/lmeval/mismatch"} {
		whole := mustCheck(t, read(t, p, Options{}))
		streamed, err := Check(context.Background(), p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(whole.Tasks) != len(streamed.Tasks) || whole.Records != streamed.Records {
			t.Fatalf("%s: %d/%d tasks, %d/%d records", p, len(whole.Tasks), len(streamed.Tasks), whole.Records, streamed.Records)
		}
		for i := range whole.Tasks {
			if whole.Tasks[i] != streamed.Tasks[i] {
				t.Errorf("%s: %+v != %+v", p, whole.Tasks[i], streamed.Tasks[i])
			}
		}
	}
	for _, p := range []string{"testdata/lmeval/broken/no_doc_id", "testdata/lmeval/broken/truncated"} {
		_, e1 := Read(context.Background(), p, Options{})
		_, e2 := Check(context.Background(), p, Options{})
		if e1 == nil || e2 == nil || e1.Error() != e2.Error() {
			t.Errorf("%s: read %v, check %v", p, e1, e2)
		}
	}
}

// The check's table shows a mean of 0/1 values (acc: 3 of 4 samples
// right) as a percentage, as the page's cards do, a standard error
// (√(0.75·0.25/3)/2 = 0.25) as a number, and a match as "yes".
func TestCheckTableUnits(t *testing.T) {
	c, err := Check(context.Background(), "testdata/lmeval/new", Options{})
	if err != nil {
		t.Fatal(err)
	}
	tb := c.Tables()[0]
	got := map[string][]string{}
	for i, r := range tb.Rows {
		got[r[1]+" "+r[2]] = []string{tb.Cell(i, 4), tb.Cell(i, 5), tb.Cell(i, 6)}
	}
	for k, want := range map[string][]string{
		"arc_easy_hi acc,none":        {"75.0%", "75.0%", "yes"},
		"arc_easy_hi acc_stderr,none": {"0.250", "0.250", "yes"},
	} {
		if strings.Join(got[k], " ") != strings.Join(want, " ") {
			t.Errorf("%s: %q, want %q", k, got[k], want)
		}
	}
}

// A rate (includes: 3 of 5 samples scored 1) and a mean of graded
// scores (model_graded_qa: 0.5) go on charts of their own units: the
// rate's axis reads in percent, as its card's 60.0% does.
func TestSummaryChartsOneUnitEach(t *testing.T) {
	s := Summarize(read(t, "testdata/inspect/qa_hi_bn.eval", Options{}))
	cs := s.Charts()
	if len(cs) != 2 {
		t.Fatalf("%d charts, want a rate chart and a number chart", len(cs))
	}
	for i, want := range []struct{ unit, cat string }{{results.UnitRate, "includes"}, {results.UnitNumber, "model_graded_qa"}} {
		c := cs[i]
		if c.Unit != want.unit || len(c.Categories) != 1 || !strings.HasSuffix(c.Categories[0], want.cat) {
			t.Errorf("chart %d: unit %s categories %v, want %s of %s", i, c.Unit, c.Categories, want.unit, want.cat)
		}
	}
}
