package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
	"golang.org/x/net/html"
)

// TestReportReplaysScore checks that rendering a saved result reproduces
// what score wrote in the same run, byte for byte: report --from reads
// every figure from the JSON and recomputes nothing. It also checks that
// score without --out (verdicts spooled to a temporary file) writes the
// same workbook.
func TestReportReplaysScore(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	by := []string{"--by", "Domain", "--by", "model,language"}
	stdout, stderr, code := runCLI(t, append([]string{"score"}, append(by, "--out", p("v.csv"), "--json", "--xlsx", p("a.xlsx"), "--html", p("a.html"), "--charts", p("ch1"))...)...)
	if code != 0 {
		t.Fatalf("score: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"wrote " + p("a.xlsx") + " (7 sheets, 284 verdict rows, 43 disagreements)", "wrote " + p("a.html"), "wrote 3 charts"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("score stderr %q does not say %q", stderr, want)
		}
	}
	if err := os.WriteFile(p("result.json"), []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "report", "--from", p("result.json"), "--verdicts", p("v.csv"), "--xlsx", p("b.xlsx"), "--html", p("b.html"), "--charts", p("ch2")); code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, append([]string{"score"}, append(by, "--xlsx", p("c.xlsx"))...)...); code != 0 {
		t.Fatalf("score without --out: exit %d: %s", code, stderr)
	}
	same := func(a, b string) {
		t.Helper()
		x, err := os.ReadFile(p(a))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(p(b))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s and %s differ", a, b)
		}
	}
	// excelize writes the parts of a workbook, and the entries of
	// [Content_Types].xml, in map order: compare part by part, and the
	// content types as a sorted list.
	sameParts := func(a, b string, fix ...[2]string) {
		t.Helper()
		x, y := reportZipParts(t, p(a)), reportZipParts(t, p(b))
		for name := range y {
			for _, f := range fix {
				y[name] = bytes.ReplaceAll(y[name], []byte(f[0]), []byte(f[1]))
			}
		}
		if len(x) != len(y) {
			t.Errorf("%s has %d parts, %s %d", a, len(x), b, len(y))
		}
		for name, data := range x {
			if name == "[Content_Types].xml" {
				data, y[name] = sortedElements(data), sortedElements(y[name])
			}
			if !bytes.Equal(data, y[name]) {
				t.Errorf("part %s of %s and %s differs", name, a, b)
			}
		}
	}
	sameParts("a.xlsx", "b.xlsx")
	// Without --out no verdict file was written, and the formula_cells
	// warning says so: the only difference, its text, and the height of
	// its row on the Warnings sheet (row 9), which wraps the longer text
	// onto one more line.
	sameParts("a.xlsx", "c.xlsx", [2]string{
		"came in the rows: the report shows them as text, never run; no verdict file was written (--out FILE.csv writes them with a leading &#39;, --raw-csv as they came)",
		"were written to the verdict file with a leading &#39; (--raw-csv writes them as they came)"},
		[2]string{`<row r="9" ht="48" customHeight="true"`, `<row r="9" ht="33" customHeight="true"`})
	same("a.html", "b.html")
	charts, _ := filepath.Glob(p("ch1/*"))
	if len(charts) != 6 {
		t.Errorf("charts %q, want 3 figures in PNG and SVG", charts)
	}
	for _, c := range charts {
		same(filepath.Join("ch1", filepath.Base(c)), filepath.Join("ch2", filepath.Base(c)))
	}

	f, err := excelize.OpenFile(p("b.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := []string{"Summary", "By Domain", "By model - language", "Agreement", "Verdicts", "Disagreements", "Warnings"}
	if got := f.GetSheetList(); !slices.Equal(got, want) {
		t.Errorf("sheets %q, want %q", got, want)
	}
	page, err := os.ReadFile(p("b.html"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := html.Parse(bytes.NewReader(page)); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`id="verdicts"`, `id="disagreements"`, "All 284 rows are here."} {
		if !bytes.Contains(page, []byte(s)) {
			t.Errorf("HTML has no %s", s)
		}
	}
}

// TestReportText renders the saved sample result as text: the same
// table score prints for the same run.
func TestReportText(t *testing.T) {
	got, stderr, code := runCLI(t, "report", "--from", filepath.Join("testdata", "report_result.json"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	golden(t, "report_result.stdout", got)
	scored, _, _ := runCLI(t, "score", "--by", "Domain", "--by", "model,language")
	if got != scored {
		t.Error("report --from prints a different table than score for the same run")
	}
}

func TestReportHTMLRows(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.html")
	if _, stderr, code := runCLI(t, "score", "--html", out, "--html-rows", "10"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	page, _ := os.ReadFile(out)
	// 284 sample rows, the first 10 held (and the disagreement rows after them to hold 10): 274 left out.
	if !bytes.Contains(page, []byte("The first 10 of 284 rows are here, and 7 disagreement rows after them; 274 are left out here")) {
		t.Error("no note of the 274 rows left out")
	}
}

func TestReportErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	result := filepath.Join("testdata", "report_result.json")
	bad := write("bad.json", "{\n  \"kind\": \"score\",\n  \"tool\": x\n}\n")
	other := write("other.json", `{"kind": "nope"}`)
	nokind := write("nokind.json", `{"total": 2}`)
	power := write("power.json", `{"kind": "power", "mode": "mde"}`)
	badpower := write("badpower.json", "{\"kind\": \"power\",\n \"baseline\": \"high\"}")
	unknown := write("unknown.json", `{"kind": "score", "colour": 1}`)
	short := write("short.csv", "id,question,answer,Domain,response,language,model,exact_substring,word_overlap,matching_words,total_golden_words,blank_response,empty_golden\n")
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no from", []string{"report"}, 2, "--from RESULT.json is required"},
		{"argument", []string{"report", "--from", result, "extra"}, 2, `unexpected argument "extra"`},
		{"missing file", []string{"report", "--from", filepath.Join(dir, "nope.json")}, 1, "no such file"},
		{"syntax", []string{"report", "--from", bad}, 1, "bad.json: line 3, column 11: invalid character 'x'"},
		{"kind", []string{"report", "--from", other}, 1, `a result of kind "nope"; evalbook report --from renders the --json of these kinds: aa, agree, calibration,`},
		{"no kind", []string{"report", "--from", nokind}, 1, `a document with no "kind"`},
		{"charts of power", []string{"report", "--from", power, "--charts", filepath.Join(dir, "ch")}, 2, "--charts is for score and judge results"},
		{"title of power", []string{"report", "--from", power, "--title", "t"}, 2, "--title is for score and judge results"},
		{"bad power", []string{"report", "--from", badpower}, 1, `a power result (power --json) that does not decode: line 2, column 19: json: cannot unmarshal string into Go struct field Power.baseline`},
		{"unknown field", []string{"report", "--from", unknown}, 1, `unknown field "colour"`},
		{"verdicts alone", []string{"report", "--from", result, "--verdicts", short}, 2, "--verdicts is only read for --xlsx or --html"},
		{"negative rows", []string{"report", "--from", result, "--html", filepath.Join(dir, "x.html"), "--html-rows", "-1"}, 2, "--html-rows must not be negative"},
		{"same file", []string{"report", "--from", result, "--html", filepath.Join(dir, "x"), "--xlsx", filepath.Join(dir, "x")}, 2, "name the same file"},
		{"short verdicts", []string{"report", "--from", result, "--verdicts", short, "--xlsx", filepath.Join(dir, "short.xlsx")}, 1, "short.csv does not belong to testdata/report_result.json: the verdict file has 0 rows, the result has 284"},
		{"score negative rows", []string{"score", "--html-rows", "-3", "--html", filepath.Join(dir, "y.html")}, 2, "--html-rows must not be negative"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, c.args...)
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr, c.code, c.want)
			}
		})
	}
	// A failed export leaves no file behind.
	if _, err := os.Stat(filepath.Join(dir, "short.xlsx")); !os.IsNotExist(err) {
		t.Errorf("short.xlsx exists after a failed run: %v", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %q", left)
	}
}

// reportZipParts reads every part of a zip file.
func reportZipParts(t *testing.T, path string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name], err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// sortedElements splits XML at element boundaries and sorts the pieces.
func sortedElements(b []byte) []byte {
	parts := strings.SplitAfter(string(b), ">")
	slices.Sort(parts)
	return []byte(strings.Join(parts, ""))
}

// TestReportJudgeResult renders a judge result (kind "judge": the score
// figures and a review table): the table becomes a sheet, a section and
// a block of the text report.
func TestReportJudgeResult(t *testing.T) {
	dir := t.TempDir()
	score, err := os.ReadFile(filepath.Join("testdata", "report_result.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc := `{"kind": "judge", "judge": {"model": "stub"}, "score": ` + string(score) + `, "review": {"title": "Judge review by bucket", "columns": [{"name": "bucket"}, {"name": "share", "kind": "rate"}], "rows": [["both", "0.5"]]}}`
	path := filepath.Join(dir, "judge.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, "report", "--from", path)
	if code != 0 || !strings.Contains(out, "Judge review by bucket") || !strings.Contains(out, "50.0%") {
		t.Fatalf("exit %d, stderr %q, stdout ends %q", code, stderr, out[max(0, len(out)-200):])
	}
	xlsx, page := filepath.Join(dir, "j.xlsx"), filepath.Join(dir, "j.html")
	if _, stderr, code := runCLI(t, "report", "--from", path, "--xlsx", xlsx, "--html", page); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := excelize.OpenFile(xlsx)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !slices.Contains(f.GetSheetList(), "Judge review by bucket") {
		t.Errorf("sheets %q lack the review table", f.GetSheetList())
	}
	b, _ := os.ReadFile(page)
	if !bytes.Contains(b, []byte(`<section id="table-1">`)) {
		t.Error("HTML lacks the review table section")
	}
	if _, stderr, code := runCLI(t, "report", "--from", writeTemp(t, dir, "j2.json", `{"kind": "judge"}`)); code != 1 || !strings.Contains(stderr, "without its score figures") {
		t.Errorf("judge without score: exit %d, %q", code, stderr)
	}
}

func writeTemp(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReportVerdictsBelong: a verdict file with the result's row count
// but from another run (audit item 6) is refused with the first figure
// that differs; the run's own verdict file is accepted.
func TestReportVerdictsBelong(t *testing.T) {
	dir := t.TempDir()
	own, other, extra := filepath.Join(dir, "v.csv"), filepath.Join(dir, "v_indic.csv"), filepath.Join(dir, "v_chrf.csv")
	out, errs, code := runCLI(t, "score", "--json", "--out", own)
	if code != 0 {
		t.Fatalf("score: exit %d, %s", code, errs)
	}
	result := filepath.Join(dir, "r.json")
	if err := os.WriteFile(result, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _, err := results.ReadResult(result, []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"score", "--normalize", "indic", "--by", "model,language", "--out", other},
		{"score", "--metrics", "exact_substring,word_overlap,chrf", "--out", extra},
	} {
		if _, errs, code := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: exit %d, %s", args, code, errs)
		}
	}
	// The own file with one exact_substring verdict flipped from 1 to 0.
	b, err := os.ReadFile(own)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	flipped := ""
	for i, l := range lines[1:] {
		// The last six cells: exact_substring, word_overlap, matching_words,
		// total_golden_words, blank_response, empty_golden.
		cells := strings.Split(l, ",")
		if n := len(cells); n > 6 && cells[n-6] == "1" {
			cells[n-6] = "0"
			lines[i+1] = strings.Join(cells, ",")
			flipped = filepath.Join(dir, "v_flipped.csv")
			os.WriteFile(flipped, []byte(strings.Join(lines, "\n")), 0o644)
			break
		}
	}
	if flipped == "" {
		t.Fatal("no passing row to flip")
	}
	// The audit's tampering: exact_substring 1 → 0 on a row both metrics
	// pass and 0 → 1 on a row neither passes: the pass counts stay, the
	// agreement buckets (both, neither) each lose one row.
	swapped := strings.Split(string(b), "\n")
	done := 0
	for i, l := range swapped[1:] {
		cells := strings.Split(l, ",")
		n := len(cells)
		if n <= 6 {
			continue
		}
		switch ex, wo := cells[n-6], cells[n-5]; {
		case done&1 == 0 && ex == "1" && wo == "1":
			cells[n-6] = "0"
			done |= 1
		case done&2 == 0 && ex == "0" && wo == "0":
			cells[n-6] = "1"
			done |= 2
		default:
			continue
		}
		swapped[i+1] = strings.Join(cells, ",")
	}
	bucketsFile := filepath.Join(dir, "v_buckets.csv")
	os.WriteFile(bucketsFile, []byte(strings.Join(swapped, "\n")), 0o644)
	if done != 3 {
		t.Fatal("no both and neither rows to swap")
	}
	both := res.Agreement[0].Both
	passes := int(res.Combined.Metrics["exact_substring"].Correct)
	html := filepath.Join(dir, "r.html")
	for _, c := range []struct {
		name, verdicts, want string
	}{
		{"flipped verdict", flipped, fmt.Sprintf("v_flipped.csv does not belong to %s: exact_substring passes %d rows in the verdict file, the result says %d", result, passes-1, passes)},
		{"buckets", bucketsFile, fmt.Sprintf("v_buckets.csv does not belong to %s: exact_substring and word_overlap: %d rows are passed by both in the verdict file, the result says %d", result, both-1, both)},
		{"other normalisation", other, "v_indic.csv does not belong to " + result + ": exact_substring passes"},
		{"extra metric", extra, `v_chrf.csv does not belong to ` + result + `: the verdict file has a column for metric "chrf", which the result does not score`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, errs, code := runCLI(t, "report", "--from", result, "--verdicts", c.verdicts, "--html", html)
			if code != 1 || !strings.Contains(errs, c.want) {
				t.Errorf("exit %d, %q; want exit 1 and %q", code, errs, c.want)
			}
			if _, err := os.Stat(html); !os.IsNotExist(err) {
				t.Errorf("the page was written although the verdicts were refused")
			}
		})
	}
	if _, errs, code := runCLI(t, "report", "--from", result, "--verdicts", own, "--html", html); code != 0 {
		t.Errorf("the run's own verdict file: exit %d, %s", code, errs)
	}
}

// TestReportJudgeVerdicts: a judge run's own verdict file belongs to its
// result. judge_verdicts.csv has rows whose llm_judge cell is empty (an
// invalid reply), which the judge's agreement table leaves out; the check
// must leave them out of its buckets too (it refused the file before).
func TestReportJudgeVerdicts(t *testing.T) {
	dir := t.TempDir()
	verdicts, err := os.ReadFile(filepath.Join("testdata", "judge_verdicts.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(verdicts), ",,") {
		t.Fatal("judge_verdicts.csv has no empty llm_judge cell; the test needs one")
	}
	for _, flag := range []string{"--html", "--xlsx"} {
		out := filepath.Join(dir, "r"+strings.TrimPrefix(flag, "--"))
		if _, stderr, code := runCLI(t, "report", "--from", filepath.Join("testdata", "judge_limit40.json"),
			"--verdicts", filepath.Join("testdata", "judge_verdicts.csv"), flag, out); code != 0 {
			t.Errorf("report %s with the judge's own verdicts: exit %d: %s", flag, code, stderr)
		}
	}
}
