package interop_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/agree"
	"github.com/evalbook/evalbook/pkg/compare"
	"github.com/evalbook/evalbook/pkg/interop"
	"github.com/evalbook/evalbook/pkg/leaderboard"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/score"
)

func mustRead(t *testing.T, path string) *interop.Run {
	t.Helper()
	run, err := interop.Read(context.Background(), path, interop.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// Comparing two imported lm-eval runs (paired by doc_hash) gives the same
// comparison, byte for byte, as comparing the same outcomes written as
// evalbook CSV tables and read by compare.Files. Run B flips documents 1
// (1 -> 0) and 2 (0 -> 1) of arc_easy_hi, so the comparison has one flip
// each way.
func TestCompareImportedEqualsCSV(t *testing.T) {
	a, b := mustRead(t, "testdata/lmeval/new"), mustRead(t, "testdata/lmeval/runB")
	const metric = "acc,none"
	opt := compare.Options{Metric: metric, By: "task", Seed: 1, Resamples: 2000, OldName: "runA", NewName: "runB"}
	keys, old, new, groups, err := interop.Paired(a, b, metric)
	if err != nil {
		t.Fatal(err)
	}
	direct, err := compare.Versions(keys, old, new, groups, opt)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, run := range map[string]*interop.Run{"a.csv": a, "b.csv": b} {
		var buf bytes.Buffer
		if _, err := interop.OutcomeCSV(&buf, run, metric); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	viaCSV, err := compare.Files(filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv"), opt)
	if err != nil {
		t.Fatal(err)
	}
	j1, _ := json.Marshal(direct)
	j2, _ := json.Marshal(viaCSV)
	if !bytes.Equal(j1, j2) {
		t.Fatalf("imported:\n%s\nCSV:\n%s", j1, j2)
	}
	if len(keys) != 4 {
		t.Fatalf("%d paired documents, want 4", len(keys))
	}
	var flips int
	for i := range old {
		if old[i] != new[i] {
			flips++
		}
	}
	if flips != 2 {
		t.Fatalf("%d flips, want 2", flips)
	}
}

// An inspect log's responses are scored by pkg/qa as a response table.
func TestResponsesScoredByQA(t *testing.T) {
	run := mustRead(t, "testdata/inspect/qa_hi_bn.eval")
	var buf bytes.Buffer
	n, err := interop.ResponseCSV(&buf, run)
	if err != nil || n != 5 {
		t.Fatalf("%d rows, %v", n, err)
	}
	sc, err := qa.Score(context.Background(), &buf, run.Source, qa.Options{Format: "csv", By: [][]string{}})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Combined.N != 5 {
		t.Fatalf("n %d", sc.Combined.N)
	}
	// exact_substring: the golden answer inside the response, after the
	// default normalisation: samples 1 (नई दिल्ली in the sentence), 3
	// (गंगोत्री) and 4 (নোবেল পুরস্কার) contain it; 2 and 5 do not.
	if got := sc.Combined.Metrics["exact_substring"].Correct; got != 3 {
		t.Fatalf("exact_substring correct %v, want 3", got)
	}
}

// Two inspect logs become a leaderboard through ResponsesFS.
func TestLeaderboardOfImported(t *testing.T) {
	a := mustRead(t, "testdata/inspect/qa_hi_bn.eval")
	b := mustRead(t, "testdata/inspect/v1.json") // the same model: told apart by the file name
	fsys, err := interop.ResponsesFS([]*interop.Run{a, b})
	if err != nil {
		t.Fatal(err)
	}
	inputs, err := leaderboard.DiscoverFS(fsys, ".")
	if err != nil || len(inputs) != 2 || inputs[0].Model != "openai__gpt-4o-mini" || inputs[1].Model != "openai__gpt-4o-mini__v1" {
		t.Fatalf("%+v %v", inputs, err)
	}
	board, err := leaderboard.Build(context.Background(), inputs, leaderboard.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(board.Files) != 2 {
		t.Fatalf("%+v", board.Files)
	}
}

// inspect's two scorers become two raters of pkg/agree.
func TestLabelsForAgree(t *testing.T) {
	run := mustRead(t, "testdata/inspect/qa_hi_bn.eval")
	var buf bytes.Buffer
	n, err := interop.LabelsCSV(&buf, run, []string{"includes", "model_graded_qa"})
	if err != nil || n != 5 {
		t.Fatalf("%d %v", n, err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	// sample 3: includes true (1), model_graded_qa P (0.5)
	if lines[0] != "id,includes,model_graded_qa" || lines[3] != "qa_hi_bn/3,1,0.5" {
		t.Fatalf("%q", lines)
	}
	res, err := agree.AnalyzeCSV(bytes.NewReader(buf.Bytes()), "labels.csv", []string{"includes", "model_graded_qa"}, "id",
		agree.Options{Confidence: 0.95, Resamples: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// the raters agree on samples 1, 2, 4 and 5 (1/1, 0/0, 1/1, 0/0) and not on 3 (1 against 0.5)
	if res.N != 5 || res.Observed != 0.8 {
		t.Fatalf("n %d observed %v", res.N, res.Observed)
	}
}

// The response table ResponseCSV writes is a pipe into qa, which does
// not strip a formula guard: the text scored must be the text the
// harness wrote. A reply "-0.4…" is not a plain number, so a guarded
// table held "'-0.4…", which prefix_exact_match scored 0 against the
// golden "-0.4" (a plain number, never guarded); unguarded it starts
// with it: 1. "=SUM(A1)" against itself is 1 either way. A file written
// for people (WriteRows) stays guarded.
func TestResponseCSVNotGuarded(t *testing.T) {
	run := &interop.Run{Format: "openai-batch", Source: "mem", Samples: []interop.Sample{
		{Task: "t", SampleID: "1", Response: "-0.4…", HasResponse: true, Golden: "-0.4", HasGolden: true},
		{Task: "t", SampleID: "2", Response: "=SUM(A1)", HasResponse: true, Golden: "=SUM(A1)", HasGolden: true},
	}}
	var buf bytes.Buffer
	if _, err := interop.ResponseCSV(&buf, run); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(bytes.NewReader(buf.Bytes())).ReadAll()
	if err != nil || len(recs) != 3 || recs[1][4] != "-0.4…" || recs[2][4] != "=SUM(A1)" || recs[2][2] != "=SUM(A1)" {
		t.Fatalf("%q %v", recs, err)
	}
	em, err := score.Lookup("prefix_exact_match")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := qa.Score(context.Background(), bytes.NewReader(buf.Bytes()), "mem", qa.Options{Format: "csv", By: [][]string{}, Metrics: []*score.Metric{em}})
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.Combined.Metrics["prefix_exact_match"].Correct; got != 2 {
		t.Fatalf("prefix_exact_match correct %v of 2, want 2", got)
	}
	buf.Reset()
	if err := interop.WriteRows(&buf, run, "csv"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "'=SUM(A1)") {
		t.Fatalf("the rows file for people is not guarded:\n%s", buf.String())
	}
}
