package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/sample"
	"github.com/evalbook/evalbook/report/internal/cli"
)

// TestScoreHarnessOwnMetrics (issue 26): score on each harness output of
// the fixtures reports the harness's own per-sample metrics per task with
// intervals, and every figure the harness reported equals the group's
// figure to 1e-9 (the fixtures' results files hold the means of their
// samples: make_fixtures.py writes both from one list of values).
func TestScoreHarnessOwnMetrics(t *testing.T) {
	fixtures := []string{"lmeval/new", "lmeval/old", "lmeval/runB", "lighteval/new",
		"inspect/qa_hi_bn.eval", "inspect/qa_hi_bn.json", "inspect/v1.json", "inspect/epochs.eval",
		"promptfoo/results_v2.json", "promptfoo/results_v3.json", "eee/v022"}
	for _, f := range fixtures {
		t.Run(f, func(t *testing.T) {
			out, stderr, code := runCLI(t, "score", "--responses", filepath.Join("../pkg/interop/testdata", f), "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var res results.Score
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			if len(res.Metrics) == 0 {
				t.Fatalf("no metric reported")
			}
			for _, d := range res.Metrics {
				if d.By != "harness" {
					t.Errorf("metric %s: by %q, want harness", d.ID, d.By)
				}
			}
			if !hasWarning(res.Warnings, "harness_metrics") {
				t.Errorf("no harness_metrics warning: %+v", res.Warnings)
			}
			checked := 0
			for _, r := range res.Reported {
				g := findGroup(res.Groups, r.Model, r.Task)
				if r.Model == "*" { // every model's samples pooled (promptfoo): one task here, so the combined figure
					g = &res.Combined
				}
				if g == nil {
					t.Errorf("reported %s %s: no group for task %q", r.Task, r.Metric, r.Task)
					continue
				}
				ms, ok := g.Metrics[r.Metric]
				if !ok {
					t.Errorf("reported %s %s: the group has no such metric (%v)", r.Task, r.Metric, g.Metrics)
					continue
				}
				if math.Abs(ms.Accuracy-r.Value) > 1e-9 || !r.Match {
					t.Errorf("%s %s: figure %v, harness reported %v", r.Task, r.Metric, ms.Accuracy, r.Value)
				}
				if !(ms.CILow <= ms.Accuracy && ms.Accuracy <= ms.CIHigh) || (ms.Accuracy > 0 && ms.Accuracy < 1 && ms.CILow == ms.CIHigh) {
					t.Errorf("%s %s: interval [%v, %v] around %v", r.Task, r.Metric, ms.CILow, ms.CIHigh, ms.Accuracy)
				}
				checked++
			}
			if checked == 0 {
				t.Errorf("no figure the harness reported was compared")
			}
			t.Logf("%s: %d reported figures equal to 1e-9", f, checked)
		})
	}
}

func findGroup(gs []results.Group, model, task string) *results.Group {
	for i := range gs {
		g := &gs[i]
		if (g.By == "task" && g.Group == task) || (g.By == "model / task" && g.Group == model+" / "+task) {
			return g
		}
	}
	return nil
}

func hasWarning(ws []results.Warning, code string) bool {
	for _, w := range ws {
		if w.Code == code {
			return true
		}
	}
	return false
}

// TestScoreHarnessRescore: with --metrics, a harness output's responses
// are re-scored with evalbook's metrics, and the report says so and lists
// the harness's own reported figures beside.
func TestScoreHarnessRescore(t *testing.T) {
	out, stderr, code := runCLI(t, "score", "--responses", "../pkg/interop/testdata/lmeval/new", "--metrics", "exact_match", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res results.Score
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if !hasWarning(res.Warnings, "harness_rescored") || res.Metrics[0].By != "evalbook" || len(res.Reported) != 4 {
		t.Fatalf("a re-score: warnings %+v, defs %+v, reported %d", res.Warnings, res.Metrics, len(res.Reported))
	}
	text, _, _ := runCLI(t, "score", "--responses", "../pkg/interop/testdata/lmeval/new", "--metrics", "exact_match")
	if !strings.Contains(text, "this is a re-score") || !strings.Contains(text, "acc,none") {
		t.Errorf("the text does not say it is a re-score beside the harness's figures:\n%s", text)
	}
	// Flags of re-scoring are refused without --metrics, naming the remedy.
	if _, stderr, code := runCLI(t, "score", "--responses", "../pkg/interop/testdata/lmeval/new", "--normalize", "nfc"); code != 2 || !strings.Contains(stderr, "--metrics") {
		t.Errorf("--normalize on a harness output: exit %d, %s", code, stderr)
	}
}

// TestScoreHarnessNothingToScore: an output with only aggregates, or with
// samples that carry no metric, is an error that says what to do, not a
// report of 0 rows.
func TestScoreHarnessNothingToScore(t *testing.T) {
	for f, want := range map[string]string{"lighteval/old": "no per-sample records", "openai_batch/batch_output.jsonl": "give --metrics"} {
		_, stderr, code := runCLI(t, "score", "--responses", filepath.Join("../pkg/interop/testdata", f))
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, %s; want 1 and %q", f, code, stderr, want)
		}
	}
}

// TestScoreHarnessJSONIsTheLibraryResult: `score --responses <harness
// output> --json` is the JSON of interop.Score's result for the same
// output and options, so a notebook calling the library holds what the
// command prints.
func TestScoreHarnessJSONIsTheLibraryResult(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1767225600")
	const path = "../pkg/interop/testdata/inspect/qa_hi_bn.eval"
	res, err := interop.Score(context.Background(), path, interop.ScoreOptions{Summary: sample.Options{CI: "jeffreys", Seed: cli.DefaultSeed}})
	if err != nil {
		t.Fatal(err)
	}
	res.Tool, res.Created, res.Dataset.Path = "evalbook "+version, results.Now(), filepath.Base(path)
	var want bytes.Buffer
	if err := res.WriteJSON(&want); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "score", "--responses", path, "--ci", "jeffreys", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if out != want.String() {
		t.Errorf("score --json differs from interop.Score's result\n got: %.600s\nwant: %.600s", out, want.String())
	}
}
