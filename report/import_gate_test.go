package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// Issue 26, done when: an lm-eval folder, a lighteval folder and an
// inspect log recorded with `import --record` can be gated. For each
// format the test writes three outputs of the same 600 items, answered
// right (1) or wrong (0) on one binary metric:
//
//   - base: 420 of 600 right (0.70);
//   - regressed: base with 54 right items now wrong: 366/600 = 0.61, a
//     planted regression of 54/600 = 9 points;
//   - noise: base with 15 right items wrong and 15 wrong items right:
//     still 420/600 = 0.70, 30 of 600 items flipped.
//
// Each results file reports, per task, the mean of its samples (import
// --check agrees), so the fixtures are what the harness would write. The
// three are recorded in one store and gated, traced and diffed.

// gateItems is the number of items; gateRight the base's right answers;
// gateDrop the right items the regressed run gets wrong; gateSwap the
// items the noise copy flips each way.
const (
	gateItems = 600
	gateRight = 420
	gateDrop  = 54
	gateSwap  = 15
)

// gateRuns are the three runs' outcomes, item by item, and the items the
// regressed run got wrong that the base got right.
type gateRuns struct {
	base, regressed, noise []bool
	dropped                []int
}

// plantRuns draws the three runs with a fixed seed: the base's right
// items are the first 420 of a random permutation; the regressed run
// drops the first 54 right items of a second permutation; the noise copy
// drops the first 15 right and lifts the first 15 wrong items of a third.
func plantRuns() gateRuns {
	r := rand.New(rand.NewPCG(26, 600))
	g := gateRuns{base: make([]bool, gateItems)}
	for k, i := range r.Perm(gateItems) {
		g.base[i] = k < gateRight
	}
	g.regressed = slices.Clone(g.base)
	for _, i := range r.Perm(gateItems) {
		if g.base[i] && len(g.dropped) < gateDrop {
			g.regressed[i] = false
			g.dropped = append(g.dropped, i)
		}
	}
	g.noise = slices.Clone(g.base)
	down, up := 0, 0
	for _, i := range r.Perm(gateItems) {
		switch {
		case g.base[i] && down < gateSwap:
			g.noise[i] = false
			down++
		case !g.base[i] && up < gateSwap:
			g.noise[i] = true
			up++
		}
	}
	return g
}

// gateItem is item i's question and golden answer (the same in every
// run, so the runs share a dataset hash) and the response of a run that
// got it right or wrong.
func gateItem(i int, right bool) (question, golden, response string) {
	question = fmt.Sprintf("প্রশ্ন %d: %d + %d = ?", i, i, i+7)
	golden = strconv.Itoa(2*i + 7)
	response = golden
	if !right {
		response = strconv.Itoa(2*i + 8)
	}
	return
}

func mean01(xs []bool) float64 {
	k := 0
	for _, x := range xs {
		if x {
			k++
		}
	}
	return float64(k) / float64(len(xs))
}

// stderr01 is the standard error the harnesses report for a mean of 0/1
// values: the sample standard deviation over √n.
func stderr01(xs []bool) float64 {
	m, n := mean01(xs), float64(len(xs))
	return math.Sqrt(m * (1 - m) * n / (n - 1) / n)
}

func b01(x bool) float64 {
	if x {
		return 1
	}
	return 0
}

func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	writeBytes(t, path, b)
}

func writeBytes(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The items are split into two tasks of 300 (the same split in every
// format that has tasks), so ids repeat across tasks (doc_id 0 in each):
// the store's row id "task / sample id" keeps them apart.
const gateHalf = gateItems / 2

// writeLMEval writes lm-eval's --output_path folder of a run of model:
// DIR/<model with / as __>/results_<date>.json and one
// samples_<task>_<date>.jsonl per task, a line per document with its acc.
func writeLMEval(t *testing.T, dir, model string, right []bool) {
	t.Helper()
	const date = "2026-12-01T10-00-00.000000"
	sub := filepath.Join(dir, strings.ReplaceAll(model, "/", "__"))
	tasks := []string{"arc_easy_bn", "arc_easy_hi"}
	res := map[string]any{}
	nSamples := map[string]any{}
	configs := map[string]any{}
	versions := map[string]any{}
	for k, task := range tasks {
		part := right[k*gateHalf : (k+1)*gateHalf]
		res[task] = map[string]any{"alias": task, "acc,none": mean01(part), "acc_stderr,none": stderr01(part)}
		nSamples[task] = map[string]int{"original": gateHalf, "effective": gateHalf}
		configs[task] = map[string]string{"task": task, "output_type": "multiple_choice"}
		versions[task] = 1.0
		var b bytes.Buffer
		for d, ok := range part {
			q, gold, wrong := gateItem(k*gateHalf+d, false)
			ll := [2]string{"-0.4", "-1.6"} // the golden choice (0) is the likelier one when right
			if !ok {
				ll = [2]string{"-1.6", "-0.4"}
			}
			line, err := json.Marshal(map[string]any{
				"doc_id": d, "doc": map[string]any{"question": q, "choices": []string{gold, wrong}, "answer": 0},
				"target": 0,
				"arguments": map[string]any{
					"gen_args_0": map[string]string{"arg_0": q + "\nউত্তর:", "arg_1": " " + gold},
					"gen_args_1": map[string]string{"arg_0": q + "\nউত্তর:", "arg_1": " " + wrong},
				},
				"resps":          [][][]string{{{ll[0], "False"}}, {{ll[1], "False"}}},
				"filtered_resps": [][]string{{ll[0], "False"}, {ll[1], "False"}},
				"filter":         "none", "metrics": []string{"acc"},
				"doc_hash": fmt.Sprintf("%064x", k*gateHalf+d), "prompt_hash": fmt.Sprintf("%064x", 1), "target_hash": fmt.Sprintf("%064x", 2),
				"acc": b01(ok),
			})
			if err != nil {
				t.Fatal(err)
			}
			b.Write(line)
			b.WriteByte('\n')
		}
		writeBytes(t, filepath.Join(sub, "samples_"+task+"_"+date+".jsonl"), b.Bytes())
	}
	writeJSON(t, filepath.Join(sub, "results_"+date+".json"), map[string]any{
		"results": res, "group_subtasks": map[string][]string{tasks[0]: {}, tasks[1]: {}}, "configs": configs, "versions": versions,
		"n-shot": map[string]int{tasks[0]: 0, tasks[1]: 0}, "n-samples": nSamples,
		"config":     map[string]any{"model": "hf", "model_args": "pretrained=" + model, "batch_size": 1},
		"model_name": model, "model_name_sanitized": strings.ReplaceAll(model, "/", "__"),
	})
}

// writeLighteval writes lighteval's --output-dir of a run of model:
// results/<model>/results_<date>.json and, as with --save-details,
// details/<model>/<date>/details_<task>_<date>.parquet per task in the
// layout of lighteval 0.11 and later (structs doc, model_response,
// metric; see pkg/parquetio's LightevalNested), written here with
// arrow-go.
func writeLighteval(t *testing.T, dir, model string, right []bool) {
	t.Helper()
	const date = "2026-12-01T10-00-00.000000"
	tasks := []string{"lighteval|mgsm:bn|0", "lighteval|mgsm:hi|0"}
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "doc", Nullable: true, Type: arrow.StructOf(
			arrow.Field{Name: "choices", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
			arrow.Field{Name: "gold_index", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
			arrow.Field{Name: "query", Type: arrow.BinaryTypes.String, Nullable: true},
			arrow.Field{Name: "task_name", Type: arrow.BinaryTypes.String, Nullable: true})},
		{Name: "metric", Nullable: true, Type: arrow.StructOf(arrow.Field{Name: "em", Type: arrow.PrimitiveTypes.Float64, Nullable: true})},
		{Name: "model_response", Nullable: true, Type: arrow.StructOf(arrow.Field{Name: "text", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true})},
	}, nil)
	res := map[string]any{}
	for k, task := range tasks {
		part := right[k*gateHalf : (k+1)*gateHalf]
		res[task] = map[string]float64{"em": mean01(part), "em_stderr": stderr01(part)}
		var rows []map[string]any
		for d, ok := range part {
			q, gold, resp := gateItem(k*gateHalf+d, ok)
			rows = append(rows, map[string]any{
				"doc":            map[string]any{"choices": []string{gold}, "gold_index": 0, "query": q, "task_name": task},
				"metric":         map[string]float64{"em": b01(ok)},
				"model_response": map[string]any{"text": []string{resp}},
			})
		}
		js, err := json.Marshal(rows)
		if err != nil {
			t.Fatal(err)
		}
		rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, sc, bytes.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		var pq bytes.Buffer
		fw, err := pqarrow.NewFileWriter(sc, &pq, parquet.NewWriterProperties(), pqarrow.DefaultWriterProps())
		if err == nil {
			err = fw.Write(rec)
		}
		if err == nil {
			err = fw.Close()
		}
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
		writeBytes(t, filepath.Join(dir, "details", model, date, "details_"+task+"_"+date+".parquet"), pq.Bytes())
	}
	res["all"] = map[string]float64{"em": mean01(right), "em_stderr": stderr01(right)}
	writeJSON(t, filepath.Join(dir, "results", model, "results_"+date+".json"), map[string]any{
		"results": res, "versions": map[string]int{tasks[0]: 0, tasks[1]: 0},
		"config_general": map[string]any{"lighteval_sha": "0", "num_fewshot_seeds": 1, "model_config": map[string]string{"model_name": model}, "model_name": nil},
	})
}

// inspectParts are an inspect_ai log (format version 2) of one task with
// the match scorer ("C" right, "I" wrong) without its samples, and the
// samples, ids 1 to 600.
func inspectParts(model string, right []bool) (header map[string]any, samples []map[string]any) {
	header = map[string]any{
		"version": 2, "status": "success",
		"eval": map[string]any{"task": "bn_arith", "model": model, "dataset": map[string]string{"name": "bn_arith"}, "config": map[string]any{}},
		"results": map[string]any{"total_samples": len(right), "completed_samples": len(right), "scores": []any{map[string]any{
			"name": "match", "scorer": "match", "reducer": nil,
			"metrics": map[string]any{
				"accuracy": map[string]any{"name": "accuracy", "value": mean01(right)},
				"stderr":   map[string]any{"name": "stderr", "value": stderr01(right)},
			}}}},
	}
	for i, ok := range right {
		q, gold, resp := gateItem(i, ok)
		v := "I"
		if ok {
			v = "C"
		}
		samples = append(samples, map[string]any{
			"id": i + 1, "epoch": 1, "input": q, "target": gold,
			"output": map[string]any{"model": model, "completion": resp, "choices": []any{}},
			"scores": map[string]any{"match": map[string]any{"value": v, "answer": resp}},
		})
	}
	return header, samples
}

// writeInspectJSON writes the log as inspect's .json log: one document
// with the samples inline.
func writeInspectJSON(t *testing.T, dir, model string, right []bool) string {
	t.Helper()
	header, samples := inspectParts(model, right)
	// In inspect's field order (version first: a reader may tell the
	// format by the head of the file).
	log := struct {
		Version any              `json:"version"`
		Status  any              `json:"status"`
		Eval    any              `json:"eval"`
		Results any              `json:"results"`
		Samples []map[string]any `json:"samples"`
	}{header["version"], header["status"], header["eval"], header["results"], samples}
	path := filepath.Join(dir, "2026-12-01T10-00-00+00-00_bn-arith_"+strings.ReplaceAll(model, "/", "-")+".json")
	writeJSON(t, path, log)
	return path
}

// writeInspectEval writes the log as inspect's .eval log: a ZIP of
// header.json and samples/<id>_epoch_1.json.
func writeInspectEval(t *testing.T, dir, model string, right []bool) string {
	t.Helper()
	header, samples := inspectParts(model, right)
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	add := func(name string, v any) {
		w, err := zw.Create(name)
		if err == nil {
			err = json.NewEncoder(w).Encode(v)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	add("header.json", header)
	for _, s := range samples {
		add(fmt.Sprintf("samples/%d_epoch_1.json", s["id"]), s)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "2026-12-01T10-00-00+00-00_bn-arith_"+strings.ReplaceAll(model, "/", "-")+".eval")
	writeBytes(t, path, b.Bytes())
	return path
}

// gateFormat is one harness format: how to write a run as it does (the
// path to import), its binary metric's id in the store, and the row id of
// item i ("task / sample id", as interop.RowID makes it).
type gateFormat struct {
	name   string
	write  func(t *testing.T, dir, model string, right []bool) string
	metric string
	id     func(i int) string
}

func TestImportGate(t *testing.T) {
	g := plantRuns()
	// The planted figures, counted again from the outcomes.
	if mean01(g.base) != 0.7 || mean01(g.regressed) != 366.0/600 || mean01(g.noise) != 0.7 || len(g.dropped) != gateDrop {
		t.Fatalf("planted runs: %v %v %v, %d dropped", mean01(g.base), mean01(g.regressed), mean01(g.noise), len(g.dropped))
	}
	flips := 0
	for i := range g.base {
		if g.base[i] != g.noise[i] {
			flips++
		}
	}
	if flips != 2*gateSwap {
		t.Fatalf("noise copy flips %d items", flips)
	}
	folder := func(write func(*testing.T, string, string, []bool)) func(*testing.T, string, string, []bool) string {
		return func(t *testing.T, dir, model string, right []bool) string {
			write(t, dir, model, right)
			return dir
		}
	}
	halfID := func(tasks [2]string) func(int) string {
		return func(i int) string { return fmt.Sprintf("%s / %d", tasks[i/gateHalf], i%gateHalf) }
	}
	inspectID := func(i int) string { return fmt.Sprintf("bn_arith / %d", i+1) }
	for _, f := range []gateFormat{
		{"lm-eval", folder(writeLMEval), "acc,none", halfID([2]string{"arc_easy_bn", "arc_easy_hi"})},
		{"lighteval", folder(writeLighteval), "em", halfID([2]string{"lighteval|mgsm:bn|0", "lighteval|mgsm:hi|0"})},
		{"inspect-json", writeInspectJSON, "match", inspectID},
		{"inspect-eval", writeInspectEval, "match", inspectID},
	} {
		t.Run(f.name, func(t *testing.T) { checkImportGate(t, f, g) })
	}
}

func checkImportGate(t *testing.T, f gateFormat, g gateRuns) {
	dir := t.TempDir()
	db := filepath.Join(dir, "runs.db")
	for k, run := range []struct {
		title, model string
		right        []bool
	}{{"base", "evalbook/tiny-bn", g.base}, {"regressed", "evalbook/tiny-bn-v2", g.regressed}, {"noise", "evalbook/tiny-bn-rerun", g.noise}} {
		path := f.write(t, filepath.Join(dir, run.title), run.model, run.right)
		// The fixture is consistent: its reported figures are its sample means.
		if out, errOut, code := runCLI(t, "import", path, "--check"); code != 0 {
			t.Fatalf("%s: import --check: exit %d\n%s%s", run.title, code, out, errOut)
		}
		_, errOut, code := runCLI(t, "import", path, "--record", "--store", db, "--record-title", run.title)
		if want := fmt.Sprintf("recorded run %d", k+1); code != 0 || !strings.Contains(errOut, want) {
			t.Fatalf("%s: import --record: exit %d, stderr %q (want %q)", run.title, code, errOut, want)
		}
	}
	out, errOut, code := runCLI(t, "runs", "list", "--json", "--store", db)
	var list []struct {
		ID          int64
		Title       string
		Command     string
		DatasetHash string `json:"dataset_hash"`
		Rows        int
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil || code != 0 || len(list) != 3 {
		t.Fatalf("runs list: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	for i, r := range list {
		if r.Rows != gateItems || r.Command != "import" || r.Title != []string{"base", "regressed", "noise"}[i] || r.DatasetHash != list[0].DatasetHash {
			t.Errorf("run %d: %+v (want %d rows of import, one dataset hash)", i+1, r, gateItems)
		}
	}

	// gate base → regressed: d = regressed − base is −1 on 54 items, 0 on
	// 546. Mean −54/600 = −0.09; sample variance (54 − 600·0.09²)/599 =
	// 49.14/599 = 0.0820367, sd 0.286421, se = sd/√600 = 0.0116931. The
	// one-sided 95% upper bound −0.09 + 1.644854·0.0116931 = −0.070767 is
	// below −0.02: p = Φ((−0.09 + 0.02)/0.0116931) = Φ(−5.986) ≈ 1.1e−9, a
	// regression (exit 3).
	type gateDoc struct {
		Regression       bool
		Delta, Upper, P  float64
		N, Better, Worse int
		Excluded         int
		BaselineMean     float64 `json:"baseline_mean"`
		CandidateMean    float64 `json:"candidate_mean"`
		OnlyBaseline     int     `json:"only_baseline"`
		OnlyCandidate    int     `json:"only_candidate"`
		Decision         string
	}
	gate := func(cand string) (gateDoc, int, string) {
		out, errOut, code := runCLI(t, "gate", "--store", db, "--baseline", "1", "--candidate", cand, "--metric", f.metric, "--margin", "0.02", "--json")
		var d gateDoc
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("gate 1 → %s: exit %d, %v\n%s%s", cand, code, err, out, errOut)
		}
		return d, code, out + errOut
	}
	const tol = 1e-6
	d, code, text := gate("2")
	if code != 3 || !d.Regression || math.Abs(d.Delta-(-54.0/600)) > 1e-12 || math.Abs(d.Upper-(-0.070767)) > tol ||
		d.P > 1e-8 || d.N != gateItems || d.Worse != gateDrop || d.Better != 0 || d.Excluded != 0 ||
		d.OnlyBaseline != 0 || d.OnlyCandidate != 0 || d.BaselineMean != 0.7 || math.Abs(d.CandidateMean-0.61) > 1e-12 {
		t.Errorf("gate base → regressed: exit %d, want 3, regression, delta −0.09, upper −0.070767, n 600, 54 worse\n%s", code, text)
	}

	// gate base → noise: d is +1 on 15 items, −1 on 15, 0 on 570. Mean 0;
	// variance 30/599 = 0.0500835, sd 0.223793, se 0.0091363; the upper
	// bound 1.644854·0.0091363 = +0.015028 is far above −0.02 and
	// p = Φ((0 + 0.02)/0.0091363) = Φ(2.189) = 0.9857 ≥ 0.05: no
	// regression (exit 0), "the candidate is not worse".
	d, code, text = gate("3")
	if code != 0 || d.Regression || d.Delta != 0 || math.Abs(d.Upper-0.015028) > tol || math.Abs(d.P-0.985704) > tol ||
		d.N != gateItems || d.Better != gateSwap || d.Worse != gateSwap || !strings.Contains(d.Decision, "not worse") {
		t.Errorf("gate base → noise: exit %d, want 0, delta 0, upper +0.015028, p 0.9857\n%s", code, text)
	}

	// history lists the three runs: 0.70, 0.61, 0.70 on one dataset.
	out, errOut, code = runCLI(t, "history", "--store", db, "--metric", f.metric, "--json")
	var h struct {
		Points []struct {
			Run        int64
			N          int
			Accuracy   float64
			Comparable bool
		}
	}
	if err := json.Unmarshal([]byte(out), &h); err != nil || code != 0 || len(h.Points) != 3 {
		t.Fatalf("history: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	for i, p := range h.Points {
		want := []float64{0.7, 366.0 / 600, 0.7}[i]
		if p.Run != int64(i+1) || p.N != gateItems || math.Abs(p.Accuracy-want) > 1e-12 || !p.Comparable {
			t.Errorf("history point %d: %+v, want run %d, n %d, accuracy %v, comparable", i, p, i+1, gateItems, want)
		}
	}

	// aa on base and noise copy: 30 of 600 items flipped, 30/600 = 0.05.
	out, errOut, code = runCLI(t, "aa", "--store", db, "--json", "1", "3")
	var aa struct {
		Metrics []struct {
			Metric   string
			N        int
			Flips    int
			FlipRate float64 `json:"flip_rate"`
			Delta    float64
		}
	}
	if err := json.Unmarshal([]byte(out), &aa); err != nil || code != 0 || len(aa.Metrics) != 1 {
		t.Fatalf("aa: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	if m := aa.Metrics[0]; m.Metric != f.metric || m.N != gateItems || m.Flips != 2*gateSwap || m.FlipRate != 30.0/600 || m.Delta != 0 {
		t.Errorf("aa: %+v, want %s over %d items, 30 flips, rate 0.05, delta 0", m, f.metric, gateItems)
	}

	// runs diff pairs the rows by sample id ("task / id"): the 54 worse
	// rows are exactly the dropped items.
	out, errOut, code = runCLI(t, "runs", "diff", "--store", db, "--json", "--flips", "-1", "1", "2")
	var rd struct {
		Comparable bool
		Key        string
		Paired     int
		OnlyA      int `json:"only_a"`
		OnlyB      int `json:"only_b"`
		Metrics    []struct {
			Metric        string
			Better, Worse int
			Delta         float64
			WorseRows     []struct{ ID string } `json:"worse_rows"`
		}
	}
	if err := json.Unmarshal([]byte(out), &rd); err != nil || code != 0 || len(rd.Metrics) != 1 {
		t.Fatalf("runs diff: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	m := rd.Metrics[0]
	if !rd.Comparable || rd.Key != "id" || rd.Paired != gateItems || rd.OnlyA != 0 || rd.OnlyB != 0 ||
		m.Metric != f.metric || m.Better != 0 || m.Worse != gateDrop || math.Abs(m.Delta-(-0.09)) > 1e-12 {
		t.Errorf("runs diff: comparable %v, key %q, %d paired, only %d/%d; %s: %d better, %d worse, delta %v",
			rd.Comparable, rd.Key, rd.Paired, rd.OnlyA, rd.OnlyB, m.Metric, m.Better, m.Worse, m.Delta)
	}
	var got, want []string
	for _, r := range m.WorseRows {
		got = append(got, r.ID)
	}
	for _, i := range g.dropped {
		want = append(want, f.id(i))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("runs diff: the worse rows are not the dropped items:\n got %v\nwant %v", got, want)
	}
	out, _, _ = runCLI(t, "runs", "diff", "--store", db, "1", "2")
	if !strings.Contains(out, "600 rows paired by sample id; 0 only in A, 0 only in B") || strings.Contains(out, "row number") {
		t.Errorf("runs diff text does not pair by sample id:\n%s", out)
	}
}

// A stored figure's n is the number of rows that carry the metric: in
// lmeval/new, acc,none is on the 4 arc_easy_hi records (3 right) of the 9
// items and exact_match,strict-match on the 3 gsm8k_bn items (2 right),
// so history says n 4 and n 3 beside 0.75 and 2/3, not n 9.
func TestImportRecordMetricN(t *testing.T) {
	db := filepath.Join(t.TempDir(), "runs.db")
	if _, errOut, code := runCLI(t, "import", interopData+"lmeval/new", "--record", "--store", db); code != 0 {
		t.Fatalf("import --record: exit %d: %s", code, errOut)
	}
	for _, c := range []struct {
		metric string
		n      int
		acc    float64
	}{{"acc,none", 4, 0.75}, {"exact_match,strict-match", 3, 2.0 / 3}} {
		out, errOut, code := runCLI(t, "history", "--store", db, "--metric", c.metric, "--json")
		var h struct {
			Points []struct {
				N        int
				Accuracy float64
			}
		}
		if err := json.Unmarshal([]byte(out), &h); err != nil || code != 0 || len(h.Points) != 1 {
			t.Fatalf("history %s: exit %d, %v\n%s%s", c.metric, code, err, out, errOut)
		}
		if p := h.Points[0]; p.N != c.n || math.Abs(p.Accuracy-c.acc) > 1e-12 {
			t.Errorf("history %s: n %d, accuracy %v; want n %d, accuracy %v", c.metric, p.N, p.Accuracy, c.n, c.acc)
		}
	}
}
