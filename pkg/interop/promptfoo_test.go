package interop

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// The fixture's gpt-4o-mini passes tests 0, 1 and 3 (test 2 answers जल,
// not पानी): pass rate 3/4. Its scores are the mean of the contains
// assertion (1/0) and the fluency rubric: (1+.9)/2, (1+1)/2, (0+.7)/2,
// (1+.8)/2, mean 0.8. llama3 passes only test 1 and errors on test 2;
// its pass rate 1/4. stats: 4 successes of 8.
func TestPromptfoo(t *testing.T) {
	for _, path := range []string{"testdata/promptfoo/results_v3.json", "testdata/promptfoo/results_v2.json"} {
		run := read(t, path, Options{})
		if run.Format != "promptfoo" || len(run.Samples) != 8 {
			t.Fatalf("%s: format %q, %d samples", path, run.Format, len(run.Samples))
		}
		s := run.Samples[2]
		if s.Model != "openai:gpt-4o-mini" || s.SampleID != "2" || s.Golden != "पानी" || s.Response != "जल" || s.Language != "hi" {
			t.Fatalf("%s: %+v", path, s)
		}
		if v, _ := s.Value("assert/icontains"); v != 0 {
			t.Errorf("%s: icontains %v", path, v)
		}
		if v, _ := s.Value("assert/fluency"); v != 1 {
			t.Errorf("%s: fluency assertion %v", path, v)
		}
		rep := mustCheck(t, run)
		if !rep.OK() {
			t.Fatalf("%s: %+v", path, rep.Tasks)
		}
		if c := findModelTask(t, rep, "openai:gpt-4o-mini", "pass"); c.Recomputed != 0.75 || c.N != 4 {
			t.Errorf("%s: pass %+v", path, c)
		}
		if c := findModelTask(t, rep, "openai:gpt-4o-mini", "score"); c.Recomputed-0.8 > 1e-12 || 0.8-c.Recomputed > 1e-12 {
			t.Errorf("%s: score %+v", path, c)
		}
		if c := findModelTask(t, rep, AllModels, "pass"); c.Recomputed != 0.5 || c.N != 8 {
			t.Errorf("%s: stats %+v", path, c)
		}
	}
	if run := read(t, "testdata/promptfoo/results_v3.json", Options{}); run.Version != "3" {
		t.Errorf("version %q", run.Version)
	}
}

func findModelTask(t *testing.T, rep *CheckReport, model, metric string) CheckedTask {
	t.Helper()
	for _, c := range rep.Tasks {
		if c.Model == model && c.Metric == metric {
			return c
		}
	}
	t.Fatalf("no %s %s in %+v", model, metric, rep.Tasks)
	return CheckedTask{}
}

func TestPromptfooBroken(t *testing.T) {
	for _, tc := range []struct{ path, field string }{
		{"testdata/promptfoo/broken/missing_success.json", "results.results[5].success"},
		{"testdata/promptfoo/broken/version4.json", "results.version"},
	} {
		_, err := Read(context.Background(), tc.path, Options{})
		var pe *tabular.ParseError
		if !errors.As(err, &pe) || pe.Field != tc.field || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("%s: %v", tc.path, err)
		}
	}
	_, err := Read(context.Background(), "testdata/promptfoo/broken/version4.json", Options{})
	if !errors.Is(err, ErrSchema) {
		t.Errorf("%v", err)
	}
}
