package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/correct"
)

// The worked example of issue 28 (20 labelled, 200 judged, 150 pass; the
// figures are checked against ppi_py's in pkg/correct and pkg/stats).
const (
	correctLab = "testdata/correct_labelled.csv"
	correctUnl = "testdata/correct_judged.csv"
)

func TestCorrectGolden(t *testing.T) {
	out, errOut, code := runCLI(t, "correct", "--labelled", correctLab, "--unlabelled", correctUnl, "--by", "lang")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "correct_by_lang.stdout", out)
}

// `correct --json` is the JSON of correct.Files' result for the same
// files and options.
func TestCorrectJSONIsTheLibraryResult(t *testing.T) {
	for _, m := range correct.Methods() {
		res, err := correct.Files(correctLab, correctUnl, correct.Options{Method: m, By: "lang", Confidence: 0.9})
		if err != nil {
			t.Fatal(err)
		}
		out, errOut, code := runCLI(t, "correct", "--labelled", correctLab, "--unlabelled", correctUnl, "--by", "lang", "--method", m, "--confidence", "0.9", "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", m, code, errOut)
		}
		if want := jsonOf(t, res); out != want {
			t.Errorf("correct --method %s --json differs from the library's result\n got: %.300s\nwant: %.300s", m, out, want)
		}
	}
}

// The workbook and the page come from the generic renderer.
func TestCorrectExports(t *testing.T) {
	dir := t.TempDir()
	xlsx, html := filepath.Join(dir, "c.xlsx"), filepath.Join(dir, "c.html")
	_, errOut, code := runCLI(t, "correct", "--labelled", correctLab, "--unlabelled", correctUnl, "--xlsx", xlsx, "--html", html)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Corrected pass rate", "Judge against the human labels", "ppi++"} {
		if !strings.Contains(string(page), w) {
			t.Errorf("page lacks %q", w)
		}
	}
	if fi, err := os.Stat(xlsx); err != nil || fi.Size() == 0 {
		t.Errorf("workbook: %v", err)
	}
}

// Bad input exits 1 naming the file and line; a bad flag exits 2.
func TestCorrectErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("id,human,judge\na,1,1\nb,maybe,0\n"), 0o644)
	_, errOut, code := runCLI(t, "correct", "--labelled", bad, "--unlabelled", correctUnl)
	if code != 1 || !strings.Contains(errOut, "bad.csv:3:3") || !strings.Contains(errOut, `"maybe" is not a verdict`) {
		t.Errorf("non-0/1 label: exit %d, %q", code, errOut)
	}
	_, errOut, code = runCLI(t, "correct", "--labelled", correctLab, "--unlabelled", correctUnl, "--method", "ppi+")
	if code != 2 || !strings.Contains(errOut, "ppi++") {
		t.Errorf("unknown method: exit %d, %q", code, errOut)
	}
	_, errOut, code = runCLI(t, "correct", "--labelled", correctLab)
	if code != 2 || !strings.Contains(errOut, "--unlabelled") {
		t.Errorf("no --unlabelled: exit %d, %q", code, errOut)
	}
}
