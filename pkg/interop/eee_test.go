package interop

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

const eeeUUID = "6f1c2a8e-0b1d-4c55-9a77-3e2d1c0b9a88"

// The fixture's four instances are correct, correct, wrong, correct:
// accuracy 0.75 and, as for lm-eval's arc above, standard error 0.25.
func TestEEE(t *testing.T) {
	for _, path := range []string{
		"testdata/eee/v030/data/mgsm_bn/evalbook/tiny-bn/" + eeeUUID + ".json",
		"testdata/eee/v030/data/mgsm_bn/evalbook/tiny-bn", // the folder of aggregates
		"testdata/eee/repo/data/mgsm_bn/evalbook/tiny-bn/" + eeeUUID + ".json",
		"testdata/eee/v022/0a9b8c7d-1111-4222-8333-944455556666.json",
	} {
		opt := Options{}
		if strings.Contains(path, "/repo/") { // file_path is relative to the checkout's root, two folders up
			opt.Root = "testdata/eee/repo"
		}
		run := read(t, path, opt)
		if run.Format != "eee" || run.Model != "evalbook/tiny-bn" || len(run.Samples) != 4 || len(run.Warnings) != 0 {
			t.Fatalf("%s: %+v", path, run)
		}
		s := run.Samples[2]
		if s.SampleID != "mgsm_bn_2" || s.Golden != "70000" || s.Response != "50000" || s.Language != "bn" || s.Task != "mgsm_bn" {
			t.Errorf("%s: %+v", path, s)
		}
		if v, _ := s.Value("accuracy"); v != 0 {
			t.Errorf("%s: accuracy %v", path, v)
		}
		rep := mustCheck(t, run)
		if !rep.OK() || len(rep.Tasks) != 2 {
			t.Fatalf("%s: %+v", path, rep.Tasks)
		}
		if c := findTask(t, rep, "mgsm_bn", "accuracy"); c.Recomputed != 0.75 || c.N != 4 {
			t.Errorf("%s: %+v", path, c)
		}
		if c := findTask(t, rep, "mgsm_bn", "accuracy_stderr"); math.Abs(c.Recomputed-0.25) > 1e-15 {
			t.Errorf("%s: %+v", path, c)
		}
	}
	if run := read(t, "testdata/eee/v022/0a9b8c7d-1111-4222-8333-944455556666.json", Options{}); run.Version != "0.2.2" {
		t.Errorf("version %q", run.Version)
	}
}

func TestEEEBroken(t *testing.T) {
	b := "testdata/eee/broken/"
	for _, tc := range []struct {
		path, field string
		sentinel    error
		line        int
	}{
		{b + "schema040.json", "schema_version", ErrSchema, 0},
		{b + "no_score.json", "evaluation_results[0].score_details.score", ErrMissing, 0},
		{b + "no_instance_score/" + eeeUUID + ".json", "evaluation.score", ErrMissing, 3},
		{b + "no_file/" + eeeUUID + ".json", "detailed_evaluation_results.file_path", ErrMissing, 0},
	} {
		_, err := Read(context.Background(), tc.path, Options{Format: "eee"})
		var pe *tabular.ParseError
		if !errors.As(err, &pe) || pe.Field != tc.field || pe.Line != tc.line || !errors.Is(err, tc.sentinel) {
			t.Errorf("%s: %v", tc.path, err)
		}
	}
	run := read(t, b+"checksum/"+eeeUUID+".json", Options{})
	if len(run.Warnings) != 1 || run.Warnings[0].Code != "checksum_mismatch" || !strings.Contains(run.Warnings[0].Message, "sha256") {
		t.Errorf("checksum: %+v", run.Warnings)
	}
}
