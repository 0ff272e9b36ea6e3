package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/store"
	"github.com/evalbook/evalbook/report/internal/cli"
)

// scoreAndRecord does what `evalbook score --responses FILE --record
// --store PATH` does once the lead wires --record into score.go: the
// rows go to the store as qa scores them (rowHook), and the run is
// committed with the result (recordRun).
func scoreAndRecord(t *testing.T, path, name, csvText string, extra ...string) {
	t.Helper()
	e := &cli.Env{Ctx: context.Background(), Stdout: io.Discard, Stderr: io.Discard}
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	rec := cli.AddRecordFlag(fs)
	if err := fs.Parse(append([]string{"--record", "--store", path}, extra...)); err != nil {
		t.Fatal(err)
	}
	defer rec.Close()
	var opt qa.Options
	hook, err := rec.Hook(e, store.Columns{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	opt.Rows = hook
	res, err := qa.Score(e.Ctx, strings.NewReader(csvText), name, opt)
	if err != nil {
		t.Fatal(err)
	}
	res.Tool = "evalbook " + version
	if err := rec.Score(e, "score", res); err != nil {
		t.Fatal(err)
	}
	if err := e.NotRecorded(); err != nil {
		t.Fatal(err)
	}
}

// storeTestTable returns a response table of n questions in two domains; row i is
// answered correctly when pass(i).
func storeTestTable(n int, pass func(i int) bool) string {
	var b strings.Builder
	b.WriteString("id,question,answer,Domain,response\n")
	for i := range n {
		resp := fmt.Sprintf("answer %d", i)
		if !pass(i) {
			resp = "<script>alert(1)</script> no idea"
		}
		fmt.Fprintf(&b, "q%d,Question %d?,answer %d,%s,%s\n", i, i, i, []string{"geo", "lit"}[i%2], resp)
	}
	return b.String()
}

func TestRunsRecordListShowRm(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	scoreAndRecord(t, path, "v1.csv", storeTestTable(40, func(i int) bool { return i < 30 }), "--record-title", "first", "--record-model", "m1")
	scoreAndRecord(t, path, "v2.csv", storeTestTable(40, func(i int) bool { return i < 35 }))
	out, errOut, code := runCLI(t, "runs", "list", "--json", "--store", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("runs list --json is not a JSON array: %v\n%s", err, out)
	}
	if len(list) != 2 {
		t.Fatalf("%d runs", len(list))
	}
	for _, k := range []string{"id", "time", "command", "dataset_hash", "rows"} {
		if _, ok := list[0][k]; !ok {
			t.Errorf("runs list object lacks %q: %v", k, list[0])
		}
	}
	if list[0]["rows"] != 40.0 || list[0]["command"] != "score" || list[0]["title"] != "first" || list[0]["model"] != "m1" ||
		list[0]["dataset_hash"] != list[1]["dataset_hash"] || list[0]["tokens_in"] != nil {
		t.Errorf("runs %v", list)
	}
	t.Setenv("EVALBOOK_STORE", path) // the environment names the store
	out, errOut, code = runCLI(t, "runs", "show", "last")
	if code != 0 || !strings.Contains(out, "run 2") || !strings.Contains(out, "exact_substring") || !strings.Contains(out, "keyed by id") {
		t.Errorf("runs show: exit %d\n%s%s", code, out, errOut)
	}
	if _, errOut, code = runCLI(t, "runs", "show", "9"); code != 1 || !strings.Contains(errOut, "no such run") {
		t.Errorf("runs show 9: exit %d %s", code, errOut)
	}
	if _, _, code = runCLI(t, "runs", "show"); code != 2 {
		t.Errorf("runs show without a run: exit %d", code)
	}
	if out, errOut, code = runCLI(t, "runs", "rm", "1"); code != 0 || out != "removed run 1\n" {
		t.Errorf("runs rm: %d %q %s", code, out, errOut)
	}
	out, _, _ = runCLI(t, "runs", "list", "--json")
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 || list[0]["id"] != 2.0 {
		t.Errorf("after rm: %v %s", err, out)
	}
}

// runs diff: v1 passes rows 0..29, v2 rows 5..34: 5 better (30..34),
// 5 worse (0..4), in both directions; the HTML report escapes model text.
func TestRunsDiffTextJSONHTML(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "runs.db")
	scoreAndRecord(t, path, "v1.csv", storeTestTable(40, func(i int) bool { return i < 30 }))
	scoreAndRecord(t, path, "v2.csv", storeTestTable(40, func(i int) bool { return i >= 5 && i < 35 }))
	htmlPath := filepath.Join(dir, "diff.html")
	out, errOut, code := runCLI(t, "runs", "diff", "--store", path, "--metric", "exact_substring", "--json", "--html", htmlPath, "1", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var d struct {
		Paired  int `json:"paired"`
		Metrics []struct {
			Better, Worse int
			Delta         float64
			SignP         float64 `json:"sign_p"`
			Groups        []struct{ Group string }
			WorseRows     []struct{ ID string } `json:"worse_rows"`
		}
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	m := d.Metrics[0]
	// Sign test over 5 vs 5 flips: p = min(1, 2·P(X ≤ 5)), X ~ Bin(10, 1/2) = 1.
	if d.Paired != 40 || m.Better != 5 || m.Worse != 5 || m.Delta != 0 || m.SignP != 1 || len(m.Groups) != 2 || m.WorseRows[0].ID != "q0" {
		t.Errorf("diff %+v", d)
	}
	page, err := os.ReadFile(htmlPath)
	if err != nil {
		t.Fatal(err)
	}
	// The flipped rows are JSON in the page's data block, which the
	// page's one script lists as text: the response's script element is
	// there only with its < and > escaped, never as markup.
	if bytes.Contains(page, []byte("<script>alert")) || !bytes.Contains(page, []byte(`\u003cscript\u003ealert(1)\u003c/script\u003e no idea`)) {
		t.Error("the HTML report does not escape model text")
	}
	if !bytes.Contains(page, []byte("worse in B (A passes, B fails) (5)")) || !bytes.Contains(page, []byte(`"answer 0"`)) {
		t.Error("the HTML report lacks the flipped rows with both responses and their filter")
	}
	out, _, code = runCLI(t, "runs", "diff", "--store", path, "1", "2")
	if code != 0 || !strings.Contains(out, "Change by group") || !strings.Contains(out, "Flipped rows") {
		t.Errorf("text: %d\n%s", code, out)
	}
	// Another dataset: refused, not silently paired.
	scoreAndRecord(t, path, "other.csv", storeTestTable(30, func(i int) bool { return true }))
	if _, errOut, code = runCLI(t, "runs", "diff", "--store", path, "1", "3"); code != 1 || !strings.Contains(errOut, "not comparable") {
		t.Errorf("incomparable runs: exit %d %s", code, errOut)
	}
	if out, _, code = runCLI(t, "runs", "diff", "--store", path, "--force", "--json", "1", "3"); code != 0 || !strings.Contains(out, `"comparable": false`) {
		t.Errorf("--force: exit %d\n%s", code, out)
	}
}

// gate exit codes on 400 rows, margin 0.02:
//   - clear regression: 60 rows that passed fail (delta −0.15): exit 3;
//   - clear non-regression: 40 more rows pass: exit 0;
//   - inside the noise: 6 worse, 4 better (delta −0.005): exit 0, and
//     with margin 0 still 0 (se = √(10/400 − 0.005²)/√400·… ≈ 0.0079,
//     upper bound ≈ +0.008 > 0).
func TestGateExitCodes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "runs.db")
	scoreAndRecord(t, path, "base.csv", storeTestTable(400, func(i int) bool { return i < 300 }))             // 1
	scoreAndRecord(t, path, "worse.csv", storeTestTable(400, func(i int) bool { return i >= 60 && i < 300 })) // 2
	scoreAndRecord(t, path, "better.csv", storeTestTable(400, func(i int) bool { return i < 340 }))           // 3
	scoreAndRecord(t, path, "noise.csv", storeTestTable(400, func(i int) bool { return i >= 6 && i < 304 }))  // 4
	for _, c := range []struct {
		cand, margin string
		code         int
	}{{"2", "0.02", 3}, {"3", "0.02", 0}, {"4", "0.02", 0}, {"4", "0", 0}} {
		out, errOut, code := runCLI(t, "gate", "--store", path, "--baseline", "1", "--candidate", c.cand, "--metric", "exact_substring", "--margin", c.margin)
		if code != c.code {
			t.Errorf("candidate %s margin %s: exit %d, want %d\n%s%s", c.cand, c.margin, code, c.code, out, errOut)
		}
		if !strings.Contains(out, "minimum detectable drop") {
			t.Errorf("candidate %s: no minimum detectable effect\n%s", c.cand, out)
		}
	}
	out, _, code := runCLI(t, "gate", "--store", path, "--baseline", "1", "--candidate", "2", "--metric", "exact_substring", "--margin", "0.02", "--json")
	var g struct {
		Regression bool
		Delta      float64
		N          int
	}
	if err := json.Unmarshal([]byte(out), &g); err != nil || code != 3 || !g.Regression || g.Delta != -0.15 || g.N != 400 {
		t.Errorf("gate --json: %v %d %+v", err, code, g)
	}
	if _, _, code := runCLI(t, "gate", "--store", path, "--baseline", "1", "--candidate", "2", "--metric", "exact_substring"); code != 2 {
		t.Errorf("no margin: exit %d", code)
	}
	if _, _, code := runCLI(t, "gate", "--store", path, "--baseline", "1", "--candidate", "2", "--metric", "exact_substring", "--margin", "2"); code != 2 {
		t.Errorf("margin 2: exit %d", code)
	}
	if _, _, code := runCLI(t, "gate", "--store", path, "--baseline", "1", "--candidate", "7", "--metric", "exact_substring", "--margin", "0.02"); code != 1 {
		t.Errorf("missing run: exit %d", code)
	}
	if _, _, code := runCLI(t, "gate", "--store", path, "--baseline", "1", "--candidate", "2", "--metric", "nope", "--margin", "0.02"); code != 1 {
		t.Errorf("unknown metric: exit %d", code)
	}
}

func TestAAAndHistoryCommands(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "runs.db")
	scoreAndRecord(t, path, "a.csv", storeTestTable(100, func(i int) bool { return i%2 == 0 }))
	scoreAndRecord(t, path, "b.csv", storeTestTable(100, func(i int) bool { return (i%2 == 0) != (i < 10) }))
	out, errOut, code := runCLI(t, "aa", "--store", path, "--json", "1", "2")
	if code != 0 {
		t.Fatalf("aa: exit %d %s", code, errOut)
	}
	var aa struct {
		Metrics []struct {
			Metric   string
			Flips    int
			FlipRate float64 `json:"flip_rate"`
		}
	}
	if err := json.Unmarshal([]byte(out), &aa); err != nil || aa.Metrics[0].Flips != 10 || aa.Metrics[0].FlipRate != 0.1 {
		t.Errorf("aa %v %+v", err, aa)
	}
	// one run as A and B measures nothing: refused as a usage error
	// naming the run, with nothing on stdout
	for _, ab := range [][]string{{"1", "1"}, {"last", "2"}} {
		out, errOut, code = runCLI(t, "aa", "--store", path, ab[0], ab[1])
		if code != 2 || out != "" || !strings.Contains(errOut, "same run") || !strings.Contains(errOut, "both run") {
			t.Errorf("aa %s %s: exit %d\n%s%s", ab[0], ab[1], code, out, errOut)
		}
	}
	chartPath := filepath.Join(dir, "trend.svg")
	out, errOut, code = runCLI(t, "history", "--store", path, "--metric", "exact_substring", "--by", "Domain", "--chart", chartPath)
	if code != 0 || !strings.Contains(out, "History of exact_substring by Domain") || !strings.Contains(out, "run 2 lit") {
		t.Errorf("history: exit %d\n%s%s", code, out, errOut)
	}
	if fi, err := os.Stat(chartPath); err != nil || fi.Size() == 0 {
		t.Errorf("chart: %v", err)
	}
	if _, _, code = runCLI(t, "history", "--store", path); code != 2 {
		t.Errorf("history without --metric: exit %d", code)
	}
}

// A reading command does not create a store where there is none.
func TestRunsNoStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "none.db")
	_, errOut, code := runCLI(t, "runs", "list", "--store", path)
	if code != 1 || !strings.Contains(errOut, "no run store") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("runs list created the store")
	}
}
