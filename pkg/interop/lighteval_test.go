package interop

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// em over the four documents is 1, 0, 1, 1: 0.75, stderr 0.25 (as lm-eval's arc).
func TestLightevalResults(t *testing.T) {
	for _, path := range []string{"testdata/lighteval/new", "testdata/lighteval/old"} {
		run := read(t, path, Options{})
		if run.Format != "lighteval" || run.Model != "evalbook/tiny-bn" || len(run.Reported) != 1 {
			t.Fatalf("%s: %+v", path, run)
		}
		a := run.Reported[0]
		if a.Task != "lighteval|mgsm:bn|0" || a.Metric != "em" || a.Value != 0.75 || a.Stderr != 0.25 {
			t.Errorf("%s: %+v", path, a)
		}
	}
	// without a Parquet reader the details are named in a warning, not skipped silently
	run := read(t, "testdata/lighteval/new", Options{})
	if len(run.Warnings) != 1 || run.Warnings[0].Code != "details_need_parquet" {
		t.Fatalf("warnings %+v", run.Warnings)
	}
}

// A registered details reader (the parquet edge package's) receives each
// details file with its task and the run's model.
func TestLightevalDetailsHook(t *testing.T) {
	defer RegisterLightevalDetails(lightevalDetails())
	var got []string
	RegisterLightevalDetails(func(ctx context.Context, path, task, model string, opt Options, add func(*Sample) error) error {
		got = append(got, task+" "+model)
		for i, v := range []float64{1, 0, 1, 1} {
			s := Sample{Task: task, Model: model, SampleID: string(rune('0' + i))}
			s.SetMetric("em", v)
			if err := add(&s); err != nil {
				return err
			}
		}
		return nil
	})
	run := read(t, "testdata/lighteval/new/results/evalbook/tiny-bn/results_2026-12-01T10-00-00.000000.json", Options{})
	if len(got) != 1 || got[0] != "lighteval|mgsm:bn|0 evalbook/tiny-bn" || len(run.Samples) != 4 {
		t.Fatalf("hook calls %v, %d samples", got, len(run.Samples))
	}
	if rep := mustCheck(t, run); !rep.OK() || len(rep.Tasks) != 2 {
		t.Fatalf("%+v", rep.Tasks)
	}
}

func TestBatch(t *testing.T) {
	run := read(t, "testdata/openai_batch/batch_output.jsonl", Options{})
	if run.Format != "openai-batch" || len(run.Samples) != 4 || run.Model != "" {
		t.Fatalf("%+v", run)
	}
	byID := map[string]Sample{}
	for _, s := range run.Samples {
		byID[s.SampleID] = s
	}
	if s := byID["q2"]; s.Prompt != "বাংলার রাজধানী?" || s.Golden != "ঢাকা" || s.Response != "ঢাকা" || s.Language != "bn" || s.InputTokens != 15 || s.Model != "gpt-4o-mini-2024-07-18" {
		t.Errorf("q2 %+v", s)
	}
	if s := byID["q3"]; s.HasResponse || len(s.Metadata) != 1 || !strings.Contains(s.Metadata[0].Value, "rate_limit") || s.Model != "gpt-4o-mini" {
		t.Errorf("q3 (an error line) %+v", s)
	}
	_, err := Read(context.Background(), "testdata/openai_batch/broken/batch_output.jsonl", Options{})
	var pe *tabular.ParseError
	if !errors.As(err, &pe) || pe.Line != 5 || pe.Field != "custom_id" || !strings.Contains(err.Error(), `"q9"`) {
		t.Errorf("unknown custom_id: %v", err)
	}
	_, err = Read(context.Background(), "testdata/openai_batch/batch_output.jsonl", Options{Requests: "testdata/openai_batch/nope.jsonl"})
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing request file: %v", err)
	}
}

// A registered reader may give metrics in any order; Value still finds them.
func TestUnsortedMetricsFromARegisteredReader(t *testing.T) {
	defer RegisterLightevalDetails(lightevalDetails())
	RegisterLightevalDetails(func(ctx context.Context, path, task, model string, opt Options, add func(*Sample) error) error {
		s := Sample{Task: task, SampleID: "0", Metrics: []Metric{{Name: "z", Value: 1}, {Name: "em", Value: 0.5}, {Name: "a", Value: 2}}}
		return add(&s)
	})
	run := read(t, "testdata/lighteval/new", Options{})
	if v, ok := run.Samples[0].Value("em"); !ok || v != 0.5 {
		t.Fatalf("em %v %v in %+v", v, ok, run.Samples[0].Metrics)
	}
}
