package interop

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// The fixture's model_graded_qa values are C, I, P, C, N, which inspect's
// value_to_float maps to 1, 0, 0.5, 1, 0: mean 0.5; deviations ±0.5 four
// times and 0 once give a sample variance of 1/4, so stderr is
// 0.5/sqrt(5). includes is true, false, true, true, false: mean 0.6.
func TestInspectEval(t *testing.T) {
	for _, path := range []string{"testdata/inspect/qa_hi_bn.eval", "testdata/inspect/qa_hi_bn.json", "testdata/inspect/early.eval"} {
		run := read(t, path, Options{})
		if run.Format != "inspect" || run.Version != "2" || run.Model != "openai/gpt-4o-mini" || run.Partial {
			t.Fatalf("%s: %+v", path, run)
		}
		if len(run.Samples) != 5 {
			t.Fatalf("%s: %d samples", path, len(run.Samples))
		}
		want := []float64{1, 0, 0.5, 1, 0}
		for i, s := range run.Samples {
			if v, _ := s.Value("model_graded_qa"); v != want[i] {
				t.Errorf("%s: sample %s value %v, want %v", path, s.SampleID, v, want[i])
			}
		}
		s := run.Samples[1]
		if s.SampleID != "2" || s.Language != "bn" || s.Golden != "ঢাকা" || s.Response != "চট্টগ্রাম" || s.Prompt != "বাংলাদেশের রাজধানী কোথায়?" || s.InputTokens != 22 || s.OutputTokens != 7 {
			t.Errorf("%s: sample 2 %+v", path, s)
		}
		rep := mustCheck(t, run)
		if !rep.OK() || len(rep.Tasks) != 4 {
			t.Fatalf("%s: %+v", path, rep.Tasks)
		}
		if c := findTask(t, rep, "qa_hi_bn", "model_graded_qa_stderr"); math.Abs(c.Recomputed-0.5/math.Sqrt(5)) > 1e-15 {
			t.Errorf("%s: stderr %v", path, c.Recomputed)
		}
		if c := findTask(t, rep, "qa_hi_bn", "includes"); c.Recomputed != 0.6 {
			t.Errorf("%s: includes %v", path, c.Recomputed)
		}
	}
}

func TestInspectVersion1(t *testing.T) {
	run := read(t, "testdata/inspect/v1.json", Options{})
	if run.Version != "1" || len(run.Samples) != 5 {
		t.Fatalf("%+v", run)
	}
	if v, ok := run.Samples[2].Value("model_graded_qa"); !ok || v != 0.5 {
		t.Fatalf("v1 single score: %v %v", v, ok)
	}
	if rep := mustCheck(t, run); !rep.OK() || len(rep.Tasks) != 2 {
		t.Fatalf("%+v", rep.Tasks)
	}
}

func TestInspectPartial(t *testing.T) {
	run := read(t, "testdata/inspect/partial.eval", Options{})
	if !run.Partial || len(run.Samples) != 3 || len(run.Reported) != 0 {
		t.Fatalf("partial %v samples %d reported %d", run.Partial, len(run.Samples), len(run.Reported))
	}
	if len(run.Warnings) != 1 || run.Warnings[0].Code != "log_still_writing" {
		t.Fatalf("warnings %+v", run.Warnings)
	}
}

func TestValueToFloat(t *testing.T) {
	for in, want := range map[string]float64{`"C"`: 1, `"I"`: 0, `"P"`: 0.5, `"N"`: 0, `true`: 1, `false`: 0, `0.25`: 0.25,
		`"yes"`: 1, `"No"`: 0, `"TRUE"`: 1, `"0.75"`: 0.75} {
		if got, ok := valueToFloat([]byte(in)); !ok || got != want {
			t.Errorf("valueToFloat(%s) = %v, %v; want %v", in, got, ok, want)
		}
	}
	// inspect's value_to_float warns and counts these as 0 ("c" is not
	// its CORRECT, which is case-sensitive); a figure over them is not
	// what the scores say, so they are not numbers here
	for _, in := range []string{`"c"`, `"maybe"`, `null`, `[1, 0]`} {
		if got, ok := valueToFloat([]byte(in)); ok {
			t.Errorf("valueToFloat(%s) = %v, true; want not a number", in, got)
		}
	}
}

func TestInspectBroken(t *testing.T) {
	for _, tc := range []struct{ path, want, field string }{
		{"testdata/inspect/broken/truncated.eval", "truncated", ""},
		{"testdata/inspect/broken/version3.eval", "version 3", "version"},
		{"testdata/inspect/broken/missing_id.json", "\"id\"", "samples[2].id"},
		{"testdata/inspect/broken/bomb.eval", "Limits.Ratio", ""},
	} {
		_, err := Read(context.Background(), tc.path, Options{})
		var pe *tabular.ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) || pe.Field != tc.field || !strings.Contains(pe.File, tc.path) {
			t.Errorf("%s: %v", tc.path, err)
		}
	}
	_, err := Read(context.Background(), "testdata/inspect/broken/bomb.eval", Options{})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "samples/1_epoch_1.json") {
		t.Errorf("bomb: %v", err)
	}
	_, err = Read(context.Background(), "testdata/inspect/broken/version3.eval", Options{})
	if !errors.Is(err, ErrSchema) {
		t.Errorf("version 3: %v", err)
	}
}

// Two epochs of three samples: C,C / I,C / P,I reduce (mean) to 1, 0.5,
// 0.25, whose mean 0.5833... equals the mean of the six scores. The
// reported stderr is of the reduced scores, not recomputed from epochs.
func TestInspectEpochs(t *testing.T) {
	run := read(t, "testdata/inspect/epochs.eval", Options{})
	if len(run.Samples) != 6 || run.Samples[0].SampleID != "1:1" || run.Samples[3].SampleID != "1:2" {
		t.Fatalf("%d samples, ids %q %q", len(run.Samples), run.Samples[0].SampleID, run.Samples[3].SampleID)
	}
	rep := mustCheck(t, run)
	if !rep.OK() || len(rep.Tasks) != 1 {
		t.Fatalf("%+v", rep.Tasks)
	}
	if c := rep.Tasks[0]; math.Abs(c.Recomputed-3.5/6) > 1e-15 || c.N != 6 {
		t.Fatalf("%+v", c)
	}
}
