package main

import (
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/leaderboard"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// boardDir copies harness outputs into a fresh folder, as a leaderboard
// reads them.
func boardDir(t *testing.T, paths ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, p := range paths {
		if err := exec.Command("cp", "-r", p, filepath.Join(dir, filepath.Base(p))).Run(); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestLeaderboardHarnessMetrics (issue 26): leaderboard over two lm-eval
// runs ranks lm-eval's own acc,none, 0.75 for both models on
// arc_easy_hi (3 of 4 documents in each fixture, the figure both results
// files report), where the re-score of the text gave 1.0; a re-score
// happens only with --rescore and says so.
func TestLeaderboardHarnessMetrics(t *testing.T) {
	dir := boardDir(t, filepath.Join(lmevalFixtures, "new"), filepath.Join(lmevalFixtures, "runB"))
	out, stderr, code := runCLI(t, "leaderboard", "--dir", dir, "--json")
	var b leaderboard.Board
	if code != 0 || json.Unmarshal([]byte(out), &b) != nil {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if b.Metric.ID != "acc,none" || b.Metric.By != "harness" || b.Axis != "task" || len(b.Cells) != 2 {
		t.Fatalf("metric %+v, axis %q, cells %+v", b.Metric, b.Axis, b.Cells)
	}
	for _, c := range b.Cells {
		if c.Language != "arc_easy_hi" || c.Value != 0.75 || c.N != 4 {
			t.Errorf("cell %+v, want arc_easy_hi 0.75 over 4", c)
		}
	}
	// The metric named as people type it: acc,none is one name, not two.
	out, stderr, code = runCLI(t, "leaderboard", "--dir", dir, "--metric", "acc,none,exact_match,flexible-extract", "--json")
	var bs []leaderboard.Board
	if code != 0 || json.Unmarshal([]byte(out), &bs) != nil || len(bs) != 2 || bs[1].Metric.ID != "exact_match,flexible-extract" {
		t.Fatalf("two harness metrics: exit %d: %s", code, stderr)
	}
	for _, c := range bs[1].Cells {
		if c.Language != "gsm8k_bn" || c.Value != 1 || c.N != 3 { // flexible-extract finds 8, 36 and 6: all correct
			t.Errorf("flexible-extract cell %+v", c)
		}
	}
	out, stderr, code = runCLI(t, "leaderboard", "--dir", dir, "--rescore")
	if code != 0 || !strings.Contains(out, "this board is a re-score") || !strings.Contains(out, "exact_substring") ||
		!strings.Contains(out, "without --rescore") {
		t.Errorf("--rescore: exit %d\n%s\n%s", code, out, stderr)
	}
	out, _, code = runCLI(t, "leaderboard", "--dir", dir, "--metric", "word_overlap", "--json")
	if code != 0 || json.Unmarshal([]byte(out), &b) != nil || b.Metric.By != "evalbook" || b.Warnings[0].Code != "harness_rescored" {
		t.Errorf("an evalbook metric re-scores and says so: exit %d, %+v", code, b.Warnings)
	}
	for _, args := range [][]string{{"--normalize", "nfc"}, {"--metric", "exact_match"}, {"--metric", "nonesuch"}} {
		if _, stderr, code := runCLI(t, append([]string{"leaderboard", "--dir", dir}, args...)...); code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", args, code, stderr)
		}
	}
	if _, _, code := runCLI(t, "leaderboard", "--rescore"); code != 2 {
		t.Errorf("--rescore on response files: exit %d, want 2", code)
	}
}

// TestLeaderboardHarnessEqualsScore: on every harness format, each cell
// of a board is the figure score reports for the same model and task (or
// language) from the same per-sample values: value, n and interval, to
// 1e-12. Task-run details are made by a task run against a loopback model.
func TestLeaderboardHarnessEqualsScore(t *testing.T) {
	tmp := t.TempDir()
	s := tasktest.New(t, tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।"))
	details := filepath.Join(tmp, "details.jsonl")
	if _, errb, code := runCLI(t, "task", "run", "--tasks", "indiceval|ARC-Easy:hindi|2|0,indiceval|MMLU:english|2|0", "--endpoint", s.BaseURL(),
		"--model", "bigram", "--seed", "5", "--cache", filepath.Join(tmp, "cache.jsonl"), "--details", details); code != 0 {
		t.Fatalf("task run: exit %d: %s", code, errb)
	}
	fixtures := []string{"lmeval/new", "lighteval/new", "inspect/qa_hi_bn.eval", "inspect/epochs.eval",
		"promptfoo/results_v3.json", "eee/v022"}
	for i := range fixtures {
		fixtures[i] = filepath.Join("../pkg/interop/testdata", fixtures[i])
	}
	boards := 0
	for _, f := range append(fixtures, details) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			out, stderr, code := runCLI(t, "score", "--responses", f, "--json")
			var res results.Score
			if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
				t.Fatalf("score: exit %d: %s", code, stderr)
			}
			dir := boardDir(t, f)
			for _, m := range res.Metrics {
				out, stderr, code := runCLI(t, "leaderboard", "--dir", dir, "--metric", m.ID, "--json")
				if code == 1 && strings.Contains(stderr, "[0, 1]") {
					t.Logf("%s: values outside [0, 1], refused: %s", m.ID, strings.TrimSpace(stderr))
					continue
				}
				var b leaderboard.Board
				if code != 0 || json.Unmarshal([]byte(out), &b) != nil {
					t.Fatalf("leaderboard --metric %s: exit %d: %s", m.ID, code, stderr)
				}
				by := b.Axis
				if len(b.Models) > 1 {
					by = "model," + by
				}
				out, stderr, code = runCLI(t, "score", "--responses", f, "--by", by, "--json")
				var sc results.Score
				if code != 0 || json.Unmarshal([]byte(out), &sc) != nil {
					t.Fatalf("score --by %s: exit %d: %s", by, code, stderr)
				}
				for _, c := range b.Cells {
					name := c.Language
					if len(b.Models) > 1 {
						name = c.Model + " / " + name
					}
					var ms *results.MetricScore
					n := 0
					for _, g := range sc.Groups {
						if g.By == strings.ReplaceAll(by, ",", " / ") && g.Group == name {
							if v, ok := g.Metrics[m.ID]; ok {
								ms, n = &v, g.N
								if v.N != 0 {
									n = v.N
								}
							}
						}
					}
					if ms == nil {
						t.Errorf("%s: cell %s/%s has no score group", m.ID, c.Model, c.Language)
						continue
					}
					if math.Abs(c.Value-ms.Accuracy) > 1e-12 || c.N != n || math.Abs(c.CILow-ms.CILow) > 1e-12 || math.Abs(c.CIHigh-ms.CIHigh) > 1e-12 {
						t.Errorf("%s %s/%s: board %v [%v, %v] n %d, score %v [%v, %v] n %d", m.ID, c.Model, c.Language,
							c.Value, c.CILow, c.CIHigh, c.N, ms.Accuracy, ms.CILow, ms.CIHigh, n)
					}
					boards++
				}
			}
		})
	}
	if boards == 0 {
		t.Fatal("no cell was compared")
	}
	t.Logf("%d cells equal to score's figures", boards)
}
