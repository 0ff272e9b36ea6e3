package interop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
)

const responses = "id,question,answer,Domain,response\n" +
	"1,भारत की राजधानी?,नई दिल्ली,geo,नई दिल्ली\n" +
	"2,বাংলার রাজধানী?,ঢাকা,geo,চট্টগ্রাম\n" +
	"3,2+2?,4,math,4\n" +
	"4,3+5?,8,math,8\n"

// An evalbook score exported to Every Eval Ever reads back with the EEE
// reader, and its per-sample records recompute the exported accuracy
// (3 of 4 rows contain the golden answer: 0.75).
func TestWriteEEERoundTrip(t *testing.T) {
	var rows []*results.Row
	sc, err := qa.Score(context.Background(), strings.NewReader(responses), "qa_small.csv", qa.Options{
		Rows: func(r *qa.Row) error { rows = append(rows, r.Clone()); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	aggPath := filepath.Join(dir, "results.eee.json")
	instPath := interop.EEEInstancePath(aggPath)
	var agg, inst bytes.Buffer
	if err := interop.WriteEEE(&agg, &inst, sc, rows, interop.EEEExport{ModelID: "evalbook/tiny", InstancePath: filepath.Base(instPath)}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(aggPath, agg.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(instPath, inst.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// the schema's required keys (eval.schema.json, 0.3.0)
	var doc map[string]any
	if err := json.Unmarshal(agg.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"schema_version", "evaluation_id", "retrieved_timestamp", "source_metadata", "model_info", "eval_library", "evaluation_results"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("aggregate lacks required %q", k)
		}
	}
	er := doc["evaluation_results"].([]any)[0].(map[string]any)
	ci := er["score_details"].(map[string]any)["uncertainty"].(map[string]any)["confidence_interval"].(map[string]any)
	m := sc.Combined.Metrics["exact_substring"]
	if ci["lower"] != m.CILow || ci["upper"] != m.CIHigh || ci["method"] != "wilson" || ci["confidence_level"] != 0.95 {
		t.Errorf("interval %v, score %v..%v", ci, m.CILow, m.CIHigh)
	}
	run, err := interop.Read(context.Background(), aggPath, interop.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Warnings) != 0 {
		t.Fatalf("warnings %+v", run.Warnings)
	}
	rep, err := interop.CheckRun(run)
	if err != nil {
		t.Fatal(err)
	}
	// the combined figures are recomputed from the instances and match;
	// the per-Domain figures have no instance lines of their own (the
	// writer ties each line to the combined result), so they cannot be
	// checked and the check is partial, not "all agree"
	unchecked := 0
	for _, s := range rep.Skipped {
		if s.Status == interop.StatusUnchecked && strings.Contains(s.Task, "[Domain=") && strings.Contains(s.Reason, "0 of 2 samples") {
			unchecked++
		}
	}
	if rep.Status != interop.StatusPartial || unchecked != 4 || len(rep.Skipped) != 4 {
		t.Fatalf("%s: %s\n%+v\n%+v", rep.Status, rep.Message, rep.Tasks, rep.Skipped)
	}
	for _, c := range rep.Tasks {
		if c.Status != interop.StatusMatch || c.ExpectedN != 4 {
			t.Errorf("%+v", c)
		}
	}
	found := false
	for _, c := range rep.Tasks {
		if c.Task == "qa_small" && c.Metric == "exact_substring" {
			found = c.Recomputed == 0.75 && c.N == 4
		}
	}
	if !found {
		t.Fatalf("exact_substring not recomputed as 0.75 over 4: %+v", rep.Tasks)
	}
	// one instance line per row and metric, as EEE ties each to one evaluation result
	if len(run.Samples) != 4*len(sc.Settings.Metrics) {
		t.Fatalf("%d instances for %d metrics", len(run.Samples), len(sc.Settings.Metrics))
	}
	for _, s := range run.Samples {
		if s.SampleID == "2" && (s.Response != "চট্টগ্রাম" || s.Golden != "ঢাকা") {
			t.Errorf("%+v", s)
		}
	}
}
