package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
)

// copyPrivate copies the repository file src into dir (a folder named
// private-folder under a temporary directory, so that a path leaking
// into a report is found by its name) and returns the absolute copy.
func copyPrivate(t *testing.T, dir, src string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, filepath.Base(src))
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// The one report design (issue 27) for the commands that
// TestReportDesignEveryCommand does not run: score, gate, aa, history,
// runs show, mc, summarize, probes, calibrate, correct, power, cases
// coverage, jury, repeats and irt. Each page holds what the design promises for its result
// (a headline verdict in plain words, figure cards, the inline SVG chart
// in its wide and narrow forms, whiskers where the figures have
// intervals, a grid for a heatmap) and each workbook a Summary sheet and
// a native chart (error bars, or a colour scale for a grid); the figures
// quoted are worked by hand below. Every input is given by its absolute
// path inside a folder named private-folder: neither the page nor the
// workbook names that folder.
func TestReportDesignMoreCommands(t *testing.T) {
	out := reportOut(t)
	private := filepath.Join(t.TempDir(), "private-folder")
	if err := os.Mkdir(private, 0o755); err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(private, "runs.db")
	// Run 1 passes rows 0-29 of 40, run 2 rows 0-34: 30/40 = 75.0% and
	// 35/40 = 87.5%, a change of +12.5 pp; rows 30-34 flip, 5/40 = 12.5%.
	scoreAndRecord(t, store, "v1.csv", storeTestTable(40, func(i int) bool { return i < 30 }), "--record-title", "first")
	scoreAndRecord(t, store, "v2.csv", storeTestTable(40, func(i int) bool { return i < 35 }), "--record-title", "second")
	responses := filepath.Join(private, "responses.csv")
	if err := os.WriteFile(responses, datasets.Responses, 0o644); err != nil {
		t.Fatal(err)
	}
	preds := copyPrivate(t, private, "../datasets/mc/kestrel-7b_predictions.csv")
	pairs := copyPrivate(t, private, "../datasets/judge/pairs.jsonl")
	cases := copyPrivate(t, private, "../datasets/helpdesk/cases.jsonl")
	sDataset := copyPrivate(t, private, "../datasets/helpdesk/seed004_dataset.json")
	sResults := copyPrivate(t, private, "../datasets/helpdesk/seed004_results.json")
	labelled := copyPrivate(t, private, "testdata/correct_labelled.csv")
	judged := copyPrivate(t, private, "testdata/correct_judged.csv")
	cp := func(src string) string { return copyPrivate(t, private, src) }

	type design struct {
		verdict, cards, whiskers, grid bool // on the page
		errBars, colorScale            bool // in the workbook
	}
	full := design{verdict: true, cards: true, whiskers: true, errBars: true}
	for _, tc := range []struct {
		name     string
		args     []string
		d        design
		contains []string
	}{
		// 187 and 184 of 284 right; Wilson 95%, z = 1.96: for 187/284, p = 0.6585,
		// centre (p + z²/2n)/(1 + z²/n) = 0.6564, half-width
		// z·sqrt(p(1−p)/n + z²/4n²)/(1 + z²/n) = 0.0548: 60.2% to 71.1%; for
		// 184/284 59.1% to 70.1% (as in score's text table). 7 blank responses: warn.
		{"score", []string{"score", "--responses", responses}, full,
			[]string{"Evaluation report: responses.csv", `<p class="verdict warn">exact_substring: 65.8% of 284 rows correct (95% wilson interval 60.2% to 71.1%); word_overlap: 64.8% of 284 rows correct (95% wilson interval 59.1% to 70.1%).</p>`,
				"7 of 284 responses are blank and count as wrong."}},
		{"gate", []string{"gate", "--store", store, "--baseline", "1", "--candidate", "2", "--metric", "exact_substring", "--margin", "0.05"}, full,
			[]string{`class="badge good" role="status">RELEASE</div>`, "75.0% → 87.5% (+12.5 pp)", "“first”", "“second”"}},
		{"aa", []string{"aa", "--store", store, "1", "2"}, full,
			[]string{"Noise alone flips 12.5% of rows on exact_substring", "“first”", "“second”"}},
		{"history", []string{"history", "--store", store, "--metric", "exact_substring", "--by", "Domain"}, full,
			[]string{"History of exact_substring by Domain", `<div class="m">change</div>`}},
		// Run 1 passes 30 of 40: 75.0%, Wilson 95% (z = 1.96) centre 0.7281,
		// half-width 0.1300: 59.8% to 85.8%.
		{"runs show", []string{"runs", "show", "--store", store, "1"}, full,
			[]string{"Stored run 1 “first”", "Run 1 “first” scored exact_substring 75.0% of 40 rows (interval 59.8% to 85.8%)"}},
		// 15 of 32 right: 46.9%; Wilson 95% [0.309, 0.636] as in testdata/mc_sample.stdout.
		{"mc", []string{"mc", "--predictions", preds}, full, []string{"acc 46.9% (95% interval 30.9% to 63.6%)"}},
		// seed 004: 2 of 6 cases answered right or rightly abstained, 33.3%.
		{"summarize", []string{"summarize", "--dataset", sDataset, "--results", sResults}, full, []string{"Task success 33.3%: 2 of 6 cases"}},
		// probes: "Bias probes over /abs/path/pairs.jsonl" in the table title.
		{"probes", []string{"probes", "--judge", "fake:all", "--pairs", pairs}, full, []string{"Judge probes: pairs.jsonl"}},
		{"calibrate", []string{"calibrate", "--judge", "fake:mixed", "--pairs", pairs}, full, []string{"Judge calibration: fake:mixed", "kappa"}},
		// correct: "/abs/path/correct_judged.csv corrected with the labels of /abs/path/..." in the note.
		{"correct", []string{"correct", "--labelled", labelled, "--unlabelled", judged}, full, []string{"Corrected pass rate: correct_judged.csv"}},
		// R: power.prop.test(p1 = 0.7, p2 = 0.8, power = 0.8) gives
		// n = 293.09 per group, so 294 cases. A curve: no whiskers.
		{"power", []string{"power", "--baseline", "0.7", "--target", "0.8"}, design{verdict: true, cards: true},
			[]string{"run 294 cases per version"}},
		// The generic renderer's results (issue 28), so far checked only for a table.
		{"jury", []string{"jury", "--labels", cp("../pkg/jury/testdata/dawid_skene_table1.csv")}, design{verdict: true, cards: true},
			[]string{"The most accurate rater is"}},
		// Items A 3/3, B 2/3, C 1/3, D 0/3: mean (1 + 2/3 + 1/3 + 0)/4 = 50.0%; B and C disagree
		// within their samples: 2 of 4 flaky, drawn beside the mean with whiskers.
		{"repeats", []string{"repeats", "--samples", cp("../pkg/repeats/testdata/hand.csv")}, full,
			[]string{"Mean 50.0%", "2 of 4 items are flaky", "mean of all items"}},
		// LSAT section 6 (Bock and Lieberman 1970): 1,000 subjects, 5 items, one row per answer.
		{"irt", []string{"irt", "--responses", cp("../pkg/irt/testdata/lsat.csv"), "--points", "15"}, full, []string{"Fitted 5 items over 1,000 subjects"}},
		{"cases coverage", []string{"cases", "coverage", cases}, design{verdict: true, cards: true, grid: true, colorScale: true},
			[]string{"1 of 15 cells is empty"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := strings.ReplaceAll(tc.name, " ", "-")
			h, x := filepath.Join(out, name+".html"), filepath.Join(out, name+".xlsx")
			_, errb, code := runCLI(t, append(append([]string{}, tc.args...), "--html", h, "--xlsx", x)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errb)
			}
			b, err := os.ReadFile(h)
			if err != nil {
				t.Fatal(err)
			}
			page, book := string(b), workbookText(t, x)
			if strings.Contains(page, "private-folder") || strings.Contains(book, "private-folder") {
				t.Errorf("the page or the workbook names the input's folder %s", private)
			}
			checkDesign(t, page, book, tc.d.verdict, tc.d.cards, tc.d.whiskers, tc.d.grid, tc.d.errBars, tc.d.colorScale)
			for _, want := range tc.contains {
				if !strings.Contains(page, want) {
					t.Errorf("page lacks %q", want)
				}
			}
			// The verdict is on the workbook's Summary sheet too.
			if want := inBook[tc.name]; want != "" && !strings.Contains(book, want) {
				t.Errorf("workbook lacks %q", want)
			}
		})
	}
}

// inBook is a verdict each command's workbook holds (see the figures
// worked above).
var inBook = map[string]string{
	"score":     "exact_substring: 65.8% of 284 rows correct (95% wilson interval 60.2% to 71.1%)",
	"runs show": "Run 1 “first” scored exact_substring 75.0% of 40 rows (interval 59.8% to 85.8%)",
	"repeats":   "Mean 50.0% (95% interval 7.8% to 92.2%)",
}

var whiskerLine = regexp.MustCompile(`<line x1="[0-9.]+" x2="[0-9.]+" y1="[0-9.]+" y2="[0-9.]+" stroke="#262626" stroke-width="1.2"/>|stroke-width="1.4"/>`)

// checkDesign checks the report design's parts on a page and in a
// workbook: those said present are there, and a grid, a whisker, error
// bars or a colour scale said absent is absent.
func checkDesign(t *testing.T, page, book string, verdict, cards, whiskers, grid, errBars, colorScale bool) {
	t.Helper()
	has := map[string]bool{
		`<svg class="chart wide`: true, `<svg class="chart narrow`: true,
		`<sheet name="Summary"`: true,
	}
	if verdict {
		has[`class="verdict`] = true
	}
	if cards {
		has[`class="card"`] = true
	}
	for m := range has {
		if !strings.Contains(page+book, m) {
			t.Errorf("lacks %s", m)
		}
	}
	// A native chart (on a Charts sheet or beside the figures), or a
	// Charts sheet holding a colour-scaled grid.
	if !strings.Contains(book, "\n--xl/charts/chart") && !strings.Contains(book, `<sheet name="Charts"`) {
		t.Error("the workbook has neither a native chart nor a Charts sheet")
	}
	if got := whiskerLine.MatchString(page); got != whiskers {
		t.Errorf("page has whiskers: %v, want %v", got, whiskers)
	}
	if got := strings.Contains(page, "chart wide grid"); got != grid {
		t.Errorf("page draws a grid: %v, want %v", got, grid)
	}
	if got := strings.Contains(book, "<errBars>"); got != errBars {
		t.Errorf("workbook chart has error bars: %v, want %v", got, errBars)
	}
	if got := strings.Contains(book, "colorScale"); got != colorScale {
		t.Errorf("workbook has a colour scale: %v, want %v", got, colorScale)
	}
	if strings.Contains(page, "http://") || strings.Contains(page, "https://") {
		t.Error("the page refers to the network")
	}
}

// The report design of plan check, plan gate and run (issue 27): each
// page has a verdict, figure cards (plan check: counts), the chart in its wide and narrow forms, and whiskers where
// the figures have intervals; each workbook a Summary sheet and a native
// chart. Intervals are 95% Wilson, z = 1.96, centre (p + z²/2n)/(1 + z²/n),
// half-width z·sqrt(p(1−p)/n + z²/4n²)/(1 + z²/n).
func TestReportDesignPlanAndRun(t *testing.T) {
	out := reportOut(t)
	dir := t.TempDir()
	nw := filepath.Join(dir, "new.csv")
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		d        planPage
		contains []string
	}{
		// run_new.stdout: 24 of 31 cases pass, 77.4%: centre 0.7440,
		// half-width 0.1421, 60.2% to 88.6%; unanswerable 4 of 7 per task.
		{"run", []string{"run", "--chunking", "sentence", "--min-score", "0.4", "--min-margin", "0.1", "--out", nw}, 0,
			planPage{verdict: true, cards: true, whiskers: true, errBars: true},
			[]string{"Run of cases.jsonl", "24 of 31 cases passed: 77.4% (95% interval 60.2% to 88.6%).", "Pass rate by task"}},
		// plan_gate_new.stdout: abstain_correct 0.571 of n = 7 is 4/7: centre
		// 0.5461, half-width 0.2957, 0.250 to 0.842; answer_correct 0.833 of
		// 24 is 20/24: 0.641 to 0.933. No release: exit 3.
		{"plan gate", []string{"plan", "gate", "--plan", "../datasets/helpdesk/plan_v1.json", "--run", nw}, 3,
			planPage{verdict: true, cards: true, whiskers: true, errBars: true},
			[]string{`class="badge bad" role="status">NO RELEASE</div>`, `<div class="civ">interval 25.0% to 84.2%</div>`, `<div class="civ">interval 64.1% to 93.3%</div>`, "Gated metrics"}},
		// plan_weak.json: its thresholds drawn, no interval to draw; one
		// blocking metric of five, guarding one of its two high-cost failures.
		{"plan check", []string{"plan", "check", "../datasets/helpdesk/plan_weak.json"}, 0,
			planPage{verdict: true, cards: true}, []string{"Thresholds the plan gates on", `class="verdict bad"`,
				`<div class="m">blocking metrics</div><div class="big">1</div>`, `<div class="m">high-cost failures guarded</div><div class="big">1</div><div class="note">of 2, by a blocking metric</div>`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := strings.ReplaceAll(tc.name, " ", "-")
			h, x := filepath.Join(out, name+".html"), filepath.Join(out, name+".xlsx")
			_, errb, code := runCLI(t, append(append([]string{}, tc.args...), "--html", h, "--xlsx", x)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s", code, tc.code, errb)
			}
			b, err := os.ReadFile(h)
			if err != nil {
				t.Fatal(err)
			}
			page, book := string(b), workbookText(t, x)
			checkDesign(t, page, book, tc.d.verdict, tc.d.cards, tc.d.whiskers, false, tc.d.errBars, false)
			for _, want := range tc.contains {
				if !strings.Contains(page, want) {
					t.Errorf("page lacks %q", want)
				}
			}
		})
	}
}

// planPage is what TestReportDesignPlanAndRun expects of a page.
type planPage struct{ verdict, cards, whiskers, errBars bool }
