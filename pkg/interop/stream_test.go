package interop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/evalbook/evalbook/pkg/interop"
)

// WriteRowsFrom, which writes each sample's row as it is read (the CSV
// header from a first pass without texts), writes what WriteRows writes
// of the run read whole, and its Summary is Summarize's of that run: for
// every format and fixture below, CSV and JSONL.
func TestWriteRowsFromIsWriteRows(t *testing.T) {
	ctx := context.Background()
	for _, path := range []string{
		"testdata/lmeval/new", "testdata/lmeval/old", "testdata/lmeval/runB",
		"testdata/inspect/qa_hi_bn.eval", "testdata/inspect/epochs.eval", "testdata/inspect/v1.json",
		"testdata/eee/v030/data/mgsm_bn/evalbook/tiny-bn/6f1c2a8e-0b1d-4c55-9a77-3e2d1c0b9a88.json", "testdata/promptfoo/results_v3.json", "testdata/promptfoo/results_v2.json", "testdata/openai_batch/batch_output.jsonl",
	} {
		matches, _ := filepath.Glob(path)
		if len(matches) == 0 {
			t.Fatalf("%s: no such fixture", path)
		}
		run, err := interop.Read(ctx, path, interop.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(run.Samples) == 0 {
			t.Fatalf("%s: no samples", path)
		}
		for _, format := range []string{"csv", "jsonl"} {
			var want, got bytes.Buffer
			if err := interop.WriteRows(&want, run, format); err != nil {
				t.Fatal(err)
			}
			_, sum, err := interop.WriteRowsFrom(ctx, &got, path, interop.Options{}, format)
			if err != nil {
				t.Fatalf("%s %s: %v", path, format, err)
			}
			if got.String() != want.String() {
				t.Errorf("%s %s: WriteRowsFrom wrote\n%s\nWriteRows\n%s", path, format, got.String(), want.String())
			}
			gs, _ := json.Marshal(sum)
			ws, _ := json.Marshal(interop.Summarize(run))
			if string(gs) != string(ws) {
				t.Errorf("%s %s: summary\n%s\nwant\n%s", path, format, gs, ws)
			}
		}
	}
	var buf bytes.Buffer
	if _, _, err := interop.WriteRowsFrom(ctx, &buf, "testdata/lmeval/new", interop.Options{}, "xml"); !errors.Is(err, interop.ErrRowFormat) {
		t.Errorf("xml: %v, want ErrRowFormat", err)
	}
}
