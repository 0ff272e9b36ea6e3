package main

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tasks/tasktest"
)

// reportOut is where a test writes a command's page and workbook: a
// temporary folder, or EVALBOOK_KEEP_REPORTS when set (to look at them:
// screenshots of every page and workbook).
func reportOut(t *testing.T) string {
	if d := os.Getenv("EVALBOOK_KEEP_REPORTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// workbookText is every part of the workbook at path, concatenated.
func workbookText(t *testing.T, path string) string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var b strings.Builder
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n--" + f.Name + "\n")
		io.Copy(&b, rc)
		rc.Close()
	}
	return b.String()
}

// Every command with --html and --xlsx writes the one report design:
// a headline verdict, figure cards, an inline SVG chart with whiskers on
// the page; a Summary sheet, a native chart (with error bars where the
// figures have intervals) in the workbook. Neither carries the absolute
// path of an input, given absolute.
func TestReportDesignEveryCommand(t *testing.T) {
	out := reportOut(t)
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	tdir := abs("testdata")
	m := tasktest.NewModel("the quick brown fox. পানি জল বই বাড়ি। पानी किताब।")
	s := tasktest.New(t, m)
	cases := []struct {
		name     string
		args     []string
		errBars  bool // the workbook's chart has error bars
		heatmap  bool // the page draws a grid
		contains []string
	}{
		{"compare", []string{"compare", "--old", abs("testdata/compare_old.csv"), "--new", abs("testdata/compare_new.csv"), "--metric", "pass", "--by", "task"}, true, false,
			// 25 of 31 and 27 of 31 pass; the change is +6.5 pp (2/31).
			[]string{"80.6%", "87.1%", "+6.5 pp", "No clear difference", "Cases that changed"}},
		{"ratings", []string{"ratings", "--pairs", abs("testdata/ratings_pairs.csv"), "--resamples", "200"}, true, false,
			[]string{"Ratings with intervals", "rates highest"}},
		{"agree", []string{"agree", "--labels", abs("../datasets/agreement/pairs.csv"), "--raters", "ann1,ann2", "--id", "id", "--resamples", "200"}, false, true,
			// Seed figure: kappa 0.798; lib03's question is on the page beside its ratings.
			[]string{"kappa = 0.798", "Substantial agreement", "Can children under 12 use the study rooms?"}},
		{"import", []string{"import", abs("../pkg/interop/testdata/lmeval/new")}, true, false,
			// arc_easy_hi acc: 3 of 4, Wilson 95% [0.3006, 0.9544] (by hand:
			// centre (0.75 + z²/8)/(1 + z²/4) = 0.6274, half-width
			// z·√(3/64 + z²/64)/(1 + z²/4) = 0.3269).
			[]string{"75.0%", "interval 30.1% to 95.4%"}},
		{"leaderboard", []string{"leaderboard"}, true, true, []string{"models × languages", "T1"}},
		{"task", []string{"task", "run", "--tasks", "indiceval|ARC-Easy:hindi|2|0,indiceval|Translate:bengali|1|0", "--endpoint", s.BaseURL(), "--model", "bigram", "--seed", "5", "--cache", filepath.Join(t.TempDir(), "c.jsonl")}, true, false,
			[]string{"Samples", "Figures per task"}},
	}
	bars := regexp.MustCompile(`<line x1="[0-9.]+" x2="[0-9.]+" y1="[0-9.]+" y2="[0-9.]+" stroke="#262626" stroke-width="1.2"/>|stroke-width="1.4"/>`)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, x := filepath.Join(out, tc.name+".html"), filepath.Join(out, tc.name+".xlsx")
			_, errb, code := runCLI(t, append(tc.args, "--html", h, "--xlsx", x)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errb)
			}
			page, err := os.ReadFile(h)
			if err != nil {
				t.Fatal(err)
			}
			book := workbookText(t, x)
			for _, abs := range []string{tdir, filepath.Dir(tdir)} {
				if strings.Contains(string(page), abs) || strings.Contains(book, abs) {
					t.Errorf("the page or the workbook holds the path %s", abs)
				}
			}
			for _, want := range append(tc.contains, `class="verdict`, `class="card"`, `<svg class="chart wide`, `<svg class="chart narrow`) {
				if !strings.Contains(string(page), want) {
					t.Errorf("page lacks %q", want)
				}
			}
			if strings.Contains(string(page), "http://") || strings.Contains(string(page), "https://") {
				t.Error("the page refers to the network")
			}
			if tc.heatmap != strings.Contains(string(page), `chart wide grid`) {
				t.Errorf("page draws a grid: %v, want %v", !tc.heatmap, tc.heatmap)
			}
			if tc.errBars && !bars.MatchString(string(page)) {
				t.Error("page chart has no whisker")
			}
			for _, want := range []string{"<sheet name=\"Summary\"", "<sheet name=\"Charts\""} {
				if !strings.Contains(book, want) {
					t.Errorf("workbook lacks %s", want)
				}
			}
			if tc.errBars && !strings.Contains(book, "<errBars>") {
				t.Error("workbook chart has no error bars")
			}
			if !tc.errBars && tc.heatmap && !strings.Contains(book, "colorScale") {
				t.Error("workbook grid has no colour scale")
			}
		})
	}
}

// A task's pass@3 at n = 4 items that all score 0 has a bootstrap
// interval of no width: the page and the workbook show no interval for
// it, never "0.0% to 0.0%".
func TestReportTaskNoDegenerateInterval(t *testing.T) {
	out := t.TempDir()
	m := tasktest.NewModel("zzz")
	s := tasktest.New(t, m)
	h := filepath.Join(out, "t.html")
	_, errb, code := runCLI(t, "task", "run", "--tasks", "indiceval|Translate:bengali|1|0", "--endpoint", s.BaseURL(), "--model", "bigram", "--seed", "5",
		"--cache", filepath.Join(out, "c.jsonl"), "--html", h)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errb)
	}
	page, _ := os.ReadFile(h)
	if strings.Contains(string(page), "0.0% to 0.0%") || strings.Contains(string(page), "interval 0.0% to 0.0%") {
		t.Error("the page shows a zero-width interval")
	}
	if !strings.Contains(string(page), "pass@") {
		t.Error("the page lacks the pass@k figure")
	}
}
