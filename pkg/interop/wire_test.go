package interop

import (
	"context"
	"os"
	"testing"
)

func TestHarnessAndDefaultMetric(t *testing.T) {
	for path, want := range map[string]string{
		"testdata/lmeval/new":                      "lm-eval",
		"testdata/inspect/qa_hi_bn.eval":           "inspect",
		"testdata/promptfoo/results_v2.json":       "promptfoo",
		"testdata/openai_batch/batch_output.jsonl": "openai-batch",
		"testdata/lighteval/old":                   "lighteval",
	} {
		if got, ok := Harness(path, "auto"); !ok || got != want {
			t.Errorf("%s: %q %v, want %s", path, got, ok, want)
		}
	}
	for _, own := range []string{"../../datasets/agreement/ratings.csv", "../../datasets/judge/pairs.jsonl", "../../datasets/helpdesk/example_results.json", "../../datasets/helpdesk/cases.jsonl"} {
		if _, err := os.Stat(own); err != nil {
			t.Fatal(err)
		}
		if f, ok := Harness(own, ""); ok {
			t.Errorf("evalbook's own %s taken for a %s output", own, f)
		}
	}
	if _, ok := Harness("testdata/lmeval/new", "csv"); ok {
		t.Error("--format csv must mean evalbook's table")
	}
	a, b := read(t, "testdata/lmeval/new", Options{}), read(t, "testdata/lmeval/runB", Options{})
	if m, err := DefaultMetric(a, b); err != nil || m != "acc,none" {
		t.Errorf("%q %v", m, err)
	}
	runs, _, err := ReadDir(context.Background(), "testdata/inspect", Options{})
	if err != nil || len(runs) != 6 { // the logs directly in testdata/inspect (broken/ is a folder of no harness output)
		t.Fatalf("%d runs, %v", len(runs), err)
	}
}

func TestPairedFiles(t *testing.T) {
	p, err := PairedFiles(context.Background(), "testdata/lmeval/new", "testdata/lmeval/runB", "", Options{})
	if err != nil || p.Metric != "acc,none" || len(p.Keys) != 4 || p.OldModel != "evalbook/tiny-hi" || p.NewModel != "evalbook/tiny-hi-v2" {
		t.Fatalf("%+v %v", p, err)
	}
	// document 1 went from 1 to 0 and document 2 from 0 to 1 (runB's flips)
	if p.Old[1] != 1 || p.New[1] != 0 || p.Old[2] != 0 || p.New[2] != 1 {
		t.Fatalf("%v %v", p.Old, p.New)
	}
}
