package interop

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/compare"
	"github.com/evalbook/evalbook/pkg/results"
)

// wholeCompare is Compare as it was before it streamed: both runs read
// whole (PairedFiles), then compare.Versions.
func wholeCompare(ctx context.Context, oldPath, newPath string, opt compare.Options, ropt Options) (*results.Comparison, error) {
	p, err := PairedFiles(ctx, oldPath, newPath, opt.Metric, ropt)
	if err != nil {
		return nil, err
	}
	opt.Metric, opt.OldName, opt.NewName = p.Metric, results.DisplayName(oldPath), results.DisplayName(newPath)
	if opt.OldName == opt.NewName {
		opt.OldName, opt.NewName = oldPath, newPath
	}
	if opt.By == "" {
		opt.By = "task"
	}
	res, err := compare.Versions(p.Keys, p.Old, p.New, p.Groups, opt)
	if err == nil {
		res.Key = p.Key
	}
	return res, err
}

// copyLMEval copies the lm-eval folder from into a temporary folder with
// every samples file's lines in reverse order, and without doc_hash when
// noHash: the documents then come in another order than in from.
func copyLMEval(t *testing.T, from string, noHash bool) string {
	t.Helper()
	hash := regexp.MustCompile(`, "doc_hash": "[0-9a-f]*"`)
	return editLMEval(t, from, func(_ string, lines []string) []string {
		slices.Reverse(lines)
		if noHash {
			for i := range lines {
				lines[i] = hash.ReplaceAllString(lines[i], "")
			}
		}
		return lines
	})
}

// editLMEval copies the lm-eval folder from into a temporary folder with
// the lines of every samples file as edit makes them.
func editLMEval(t *testing.T, from string, edit func(file string, lines []string) []string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), filepath.Base(from))
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(p, ".jsonl") {
			lines := edit(filepath.Base(p), strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"))
			b = []byte(strings.Join(lines, "\n") + "\n")
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

// Compare reads the runs a sample at a time (compareStream) and gives
// what reading them whole gives: the same JSON for runs that pair, in
// the same or another order, by doc_hash or by sample id, with the
// metric picked or named; and the same error for runs that do not.
func TestCompareStreamIsWhole(t *testing.T) {
	ctx := context.Background()
	lm, lmB := "testdata/lmeval/new", "testdata/lmeval/runB"
	revB := copyLMEval(t, lmB, false)
	if strings.HasPrefix(mustRead(t, filepath.Join(revB, "evalbook__tiny-hi-v2", "samples_arc_easy_hi_2026-12-02T09-30-00.000001.jsonl")), `{"doc_id": 0,`) {
		t.Fatal("the copy is in the same order")
	}
	good := []struct {
		name, old, new string
		opt            compare.Options
	}{
		{"lm-eval, metric picked", lm, lmB, compare.Options{Seed: 1}},
		{"new against old", lmB, lm, compare.Options{Seed: 2}},
		{"another order", lm, revB, compare.Options{Seed: 3}},
		{"by sample id", copyLMEval(t, lm, true), copyLMEval(t, lmB, true), compare.Options{Seed: 4}},
		{"metric named, bootstrap", lm, revB, compare.Options{Metric: "acc,none", CI: "bootstrap", Resamples: 200, Seed: 5}},
		{"one run twice", lm, lm, compare.Options{}},
		{"inspect", "testdata/inspect/qa_hi_bn.eval", "testdata/inspect/qa_hi_bn.json", compare.Options{Seed: 6}},
	}
	for _, tc := range good {
		t.Run(tc.name, func(t *testing.T) {
			want, err := wholeCompare(ctx, tc.old, tc.new, tc.opt, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := compareStream(ctx, tc.old, tc.new, tc.opt, Options{}) // not the fallback
			if err != nil {
				t.Fatalf("compareStream: %v", err)
			}
			if g, w := jsonOf(t, got), jsonOf(t, want); g != w {
				t.Errorf("streamed:\n%s\nwhole:\n%s", g, w)
			}
			if got.N == 0 {
				t.Error("no cases")
			}
		})
	}
	bad := []struct {
		name, old, new string
		opt            compare.Options
	}{
		{"a document in old only", lm, editLMEval(t, lmB, func(f string, lines []string) []string {
			if strings.Contains(f, "arc_easy") {
				return lines[1:]
			}
			return lines
		}), compare.Options{}},
		{"a document in new only", editLMEval(t, lm, func(f string, lines []string) []string {
			if strings.Contains(f, "arc_easy") {
				return lines[:len(lines)-1]
			}
			return lines
		}), lmB, compare.Options{}},
		{"a document twice", lm, editLMEval(t, lmB, func(f string, lines []string) []string {
			if strings.Contains(f, "arc_easy") {
				// doc 0 again as doc 3's twin: another doc_id, the same doc_hash
				return append(lines, strings.Replace(lines[0], `"doc_id": 0,`, `"doc_id": 7,`, 1))
			}
			return lines
		}), compare.Options{Metric: "acc,none"}},
		{"not 0/1", lm, editLMEval(t, lmB, func(f string, lines []string) []string {
			if strings.Contains(f, "arc_easy") {
				lines[2] = regexp.MustCompile(`"acc": [0-9.]+`).ReplaceAllString(lines[2], `"acc": 0.5`)
			}
			return lines
		}), compare.Options{Metric: "acc,none"}},
		{"no such metric", lm, lmB, compare.Options{Metric: "nope"}},
		{"epochs repeat ids", "testdata/inspect/epochs.eval", "testdata/inspect/epochs.eval", compare.Options{}},
		{"another harness", lm, "testdata/promptfoo/results_v2.json", compare.Options{}},
		{"unreadable", lm, "testdata/lmeval/broken/truncated", compare.Options{}},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, werr := wholeCompare(ctx, tc.old, tc.new, tc.opt, Options{})
			if werr == nil {
				t.Fatal("the runs pair: not a refusal")
			}
			_, err := Compare(ctx, tc.old, tc.new, tc.opt, Options{})
			if err == nil || err.Error() != werr.Error() {
				t.Errorf("Compare: %v\nwhole: %v", err, werr)
			}
			if _, err := compareStream(ctx, tc.old, tc.new, tc.opt, Options{}); !errors.Is(err, errWhole) {
				t.Errorf("compareStream: %v, want errWhole (the whole read words the error)", err)
			}
		})
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
