package main

import (
	"encoding/csv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// formulaResponses has the four formula responses of issue 17 and a
// plain number.
const formulaResponses = `question,answer,Domain,response
q1,a,d,"=HYPERLINK(""http://evil.example"",""click"")"
q2,a,d,+1+2
q3,a,d,-2+3
q4,a,d,@SUM(A1)
q5,a,d,-2.5
`

func writeFormulaResponses(t *testing.T) (dir, in string) {
	t.Helper()
	dir = t.TempDir()
	in = filepath.Join(dir, "in.csv")
	if err := os.WriteFile(in, []byte(formulaResponses), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, in
}

func responsesOf(t *testing.T, path string, col int) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range recs[1:] {
		out = append(out, r[col])
	}
	return out
}

// TestScoreSafeCSV: score --out guards formula cells, warns
// formula_cells with the count, and --raw-csv writes them as they came
// and says so.
func TestScoreSafeCSV(t *testing.T) {
	dir, in := writeFormulaResponses(t)
	out := filepath.Join(dir, "v.csv")
	stdout, stderr, code := runCLI(t, "score", "--responses", in, "--out", out, "--json")
	if code != 0 {
		t.Fatalf("score: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, `"code": "formula_cells"`) || !strings.Contains(stdout, `"count": 4`) {
		t.Errorf("score --json has no formula_cells warning of 4 cells:\n%s", stdout)
	}
	got := strings.Join(responsesOf(t, out, 3), "|")
	if want := `'=HYPERLINK("http://evil.example","click")|'+1+2|'-2+3|'@SUM(A1)|-2.5`; got != want {
		t.Errorf("verdict responses %s, want %s", got, want)
	}
	_, stderr, code = runCLI(t, "score", "--responses", in, "--out", out, "--raw-csv")
	if code != 0 {
		t.Fatalf("score --raw-csv: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "--raw-csv") {
		t.Errorf("score --raw-csv does not say so on stderr: %q", stderr)
	}
	got = strings.Join(responsesOf(t, out, 3), "|")
	if want := `=HYPERLINK("http://evil.example","click")|+1+2|-2+3|@SUM(A1)|-2.5`; got != want {
		t.Errorf("--raw-csv verdict responses %s, want %s", got, want)
	}
}

// TestScoreVerdictsInLibreOffice opens a score --out verdict file with a
// real spreadsheet (LibreOffice converts it to CSV, evaluating formulas
// as it would on screen) and checks that no formula was run.
func TestScoreVerdictsInLibreOffice(t *testing.T) {
	lo, err := exec.LookPath("libreoffice")
	if err != nil {
		t.Skip("libreoffice not on PATH (.ci/run installs libreoffice-calc)")
	}
	if testing.Short() {
		t.Skip("-short: not starting LibreOffice")
	}
	dir, in := writeFormulaResponses(t)
	out := filepath.Join(dir, "v.csv")
	if _, stderr, code := runCLI(t, "score", "--responses", in, "--out", out); code != 0 {
		t.Fatalf("score: exit %d: %s", code, stderr)
	}
	conv := filepath.Join(dir, "conv")
	// The import filter's 13th token turns on "evaluate formulas", as
	// opening the file on screen does; the export writes what cells show.
	cmd := exec.Command(lo, "--headless", "-env:UserInstallation=file://"+filepath.Join(dir, "profile"),
		"--infilter=CSV:44,34,76,1,,0,false,true,false,false,false,-1,true",
		"--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false", "--outdir", conv, out)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("libreoffice: %v\n%s", err, b)
	}
	got := responsesOf(t, filepath.Join(conv, "v.csv"), 3)
	// LibreOffice shows a guarded cell as text, its quote included
	// (=HYPERLINK(...) would otherwise show "click", +1+2 show 3).
	want := []string{`=HYPERLINK("http://evil.example","click")`, "+1+2", "-2+3", "@SUM(A1)", "-2.5"}
	if len(got) != len(want) {
		t.Fatalf("LibreOffice shows %d rows, want %d: %q", len(got), len(want), got)
	}
	for i := range want {
		if strings.TrimPrefix(got[i], "'") != want[i] {
			t.Errorf("LibreOffice shows response %d as %q, want the text %q (no formula run)", i+1, got[i], want[i])
		}
	}
}
