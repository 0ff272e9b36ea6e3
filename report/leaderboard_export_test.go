package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// Two metrics give two boards: a workbook with a sheet per table of each,
// and one page holding both.
func TestLeaderboardExports(t *testing.T) {
	dir := t.TempDir()
	x, h := filepath.Join(dir, "lb.xlsx"), filepath.Join(dir, "lb.html")
	out, errs, code := runCLI(t, "leaderboard", "--metric", "exact_substring,chrf", "--xlsx", x, "--html", h)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "Leaderboard: exact_substring") || !strings.Contains(out, "Leaderboard: chrf") {
		t.Errorf("text output lacks one of the boards:\n%s", out)
	}
	f, err := excelize.OpenFile(x)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sheets := strings.Join(f.GetSheetList(), "|")
	for _, want := range []string{"exact_substring", "chrf"} {
		if !strings.Contains(sheets, want) {
			t.Errorf("workbook sheets %q lack one for %s", sheets, want)
		}
	}
	page, err := os.ReadFile(h)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Leaderboard: exact_substring", "Leaderboard: chrf", "kestrel-7b", "tern-13b"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(string(page), "http://") || strings.Contains(string(page), "https://") {
		t.Error("page refers to the network")
	}
}

// agree and compare write their tables as a workbook and a page; the
// figures in them are the ones the text output prints.
func TestAgreeCompareExports(t *testing.T) {
	dir := t.TempDir()
	x, h := filepath.Join(dir, "a.xlsx"), filepath.Join(dir, "a.html")
	_, errs, code := runCLI(t, "agree", "--labels", "../datasets/agreement/pairs.csv", "--raters", "ann1,ann2", "--id", "id", "--xlsx", x, "--html", h)
	if code != 0 {
		t.Fatalf("agree: exit %d: %s", code, errs)
	}
	// Seed figure: kappa 0.798 on the 30 pairs (full precision in the cell).
	if k, ok := workbookFigure(t, x, "kappa"); !ok || math.Abs(k-0.798) >= 0.0005 {
		t.Errorf("kappa row = %v (found %v), want 0.798", k, ok)
	}
	page, _ := os.ReadFile(h)
	for _, want := range []string{"lib03", "Disagreements, to adjudicate", "Confusion"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("agree page lacks %q", want)
		}
	}
	x2 := filepath.Join(dir, "c.xlsx")
	_, errs, code = runCLI(t, "compare", "--old", "testdata/compare_old.csv", "--new", "testdata/compare_new.csv", "--metric", "pass", "--xlsx", x2)
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errs)
	}
	// Seed figure: 2 better, 0 worse gives p = 0.5.
	if p, ok := workbookFigure(t, x2, "sign test p"); !ok || p != 0.5 {
		t.Errorf("sign test p row = %v (found %v), want 0.5", p, ok)
	}
}

// calibrate writes its record as tables and its per-kind bars and
// confusion as charts; agree draws its confusion.
func TestCalibrateExports(t *testing.T) {
	dir := t.TempDir()
	x, charts := filepath.Join(dir, "c.xlsx"), filepath.Join(dir, "charts")
	_, errs, code := runCLI(t, "calibrate", "--judge", "fake:mixed", "--xlsx", x, "--charts", charts)
	if code != 0 {
		t.Fatalf("calibrate: exit %d: %s", code, errs)
	}
	// Seed 003: the mixed judge agrees on 19 of 30 pairs (0.633), kappa 0.456.
	if a, ok := workbookFigure(t, x, "agreement"); !ok || math.Abs(a-19.0/30) > 1e-9 {
		t.Errorf("agreement row = %v (found %v), want 19/30", a, ok)
	}
	for _, name := range []string{"calibration-by-kind.png", "calibration-by-kind.svg", "calibration-confusion.svg"} {
		if st, err := os.Stat(filepath.Join(charts, name)); err != nil || st.Size() == 0 {
			t.Errorf("chart %s: %v", name, err)
		}
	}
	_, errs, code = runCLI(t, "agree", "--labels", "../datasets/agreement/pairs.csv", "--raters", "ann1,ann2", "--charts", charts)
	if code != 0 {
		t.Fatalf("agree --charts: exit %d: %s", code, errs)
	}
	svg, err := os.ReadFile(filepath.Join(charts, "agree-confusion.svg"))
	if err != nil || !strings.Contains(string(svg), ">10<") || !strings.Contains(string(svg), ">11<") {
		t.Errorf("agree confusion SVG lacks the seed's diagonal counts 10 and 11 (err %v)", err)
	}
}

// workbookFigure finds, on any sheet of the workbook at path, the first row
// whose first cell is label, and returns its second cell as a number.
func workbookFigure(t *testing.T, path, label string) (float64, bool) {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, sh := range f.GetSheetList() {
		rows, err := f.GetRows(sh, excelize.Options{RawCellValue: true}) // the number, not its format (62.9%)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if len(r) >= 2 && r[0] == label {
				v, err := strconv.ParseFloat(r[1], 64)
				return v, err == nil
			}
		}
	}
	return 0, false
}
