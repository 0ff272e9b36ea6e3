package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/correct"
	"github.com/evalbook/evalbook/pkg/labelbook"
	"github.com/xuri/excelize/v2"
)

// writeJudged writes a judged file of 20 rows in each of bn, en and hi;
// the judge passes the even rows; en3's response is a formula.
func writeJudged(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("id,language,question,answer,response,judge\n")
	for _, l := range []string{"bn", "en", "hi"} {
		for i := range 20 {
			resp := fmt.Sprintf("response %d", i)
			if l == "en" && i == 3 {
				resp = "=1+2"
			}
			fmt.Fprintf(&b, "%s%d,%s,question %d,answer %d,%s,%d\n", l, i, l, i, i, resp, 1-i%2)
		}
	}
	p := filepath.Join(dir, "judged.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// fillBook copies the exported workbook to name with the labeller's name
// in B1 and the given label cells (as a person would, through the
// library).
func fillBook(t *testing.T, src, name, labeller string, cells map[string]string) string {
	t.Helper()
	f, err := excelize.OpenFile(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if labeller != "" {
		f.SetCellStr(labelbook.SheetLabels, "B1", labeller)
	}
	for c, v := range cells {
		if err := f.SetCellStr(labelbook.SheetLabels, c, v); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(filepath.Dir(src), name)
	if err := f.SaveAs(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// labelCells gives the label column (G, rows 3-14) of 12 items.
func labelCells(labels string) map[string]string {
	m := map[string]string{}
	for i, l := range strings.Fields(labels) {
		m[fmt.Sprintf("G%d", 3+i)] = map[string]string{"p": "pass", "f": "fail", "u": "unsure"}[l]
	}
	return m
}

func TestLabelRoundTrip(t *testing.T) {
	dir := t.TempDir()
	judged := writeJudged(t, dir)
	book := filepath.Join(dir, "labels.xlsx")
	if _, stderr, code := runCLI(t, "label", "export", "--judged", judged, "--out", book, "--n", "12", "--seed", "5"); code != 0 {
		t.Fatalf("label export: exit %d: %s", code, stderr)
	}
	// Asha and Ben agree on 9 of 12 items: Asha passes items 1-6 and
	// 10 (7), Ben 1-5, 8, 10, 11 (8), so they differ on 6, 8 and 11.
	// Cohen's kappa by hand: pₒ = 9/12; pₑ = (7·8 + 5·4)/144 = 76/144;
	// κ = (108 − 76)/(144 − 76) = 32/68.
	a := fillBook(t, book, "asha.xlsx", "Asha", labelCells("p p p p p p f f f p f f"))
	b := fillBook(t, book, "ben.xlsx", "Ben", labelCells("p p p p p f f p f p p f"))
	labelled := filepath.Join(dir, "labelled.csv")
	todo := filepath.Join(dir, "todo.csv")
	out, stderr, code := runCLI(t, "label", "import", a, b, "--out", labelled, "--disagreements", todo, "--resamples", "2000", "--json")
	if code != 0 {
		t.Fatalf("label import: exit %d: %s", code, stderr)
	}
	var res labelbook.ImportResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	all := res.Agreement[0]
	if all.N != 12 || all.Agreeing != 9 || math.Abs(*all.Kappa-32.0/68) > 1e-12 || len(res.Agreement) != 4 {
		t.Fatalf("agreement %+v, want n 12, 9 agreeing, kappa 32/68, and bn, en, hi", res.Agreement)
	}
	if len(res.ToAdjudicate) != 3 || res.Labelled != 9 || res.ToAdjudicate[0].Cell != "B8" {
		t.Errorf("to adjudicate %d (first at %s), labelled %d; want 3 (first at B8), 9", len(res.ToAdjudicate), res.ToAdjudicate[0].Cell, res.Labelled)
	}
	// The labelled file is correct's: it reads and corrects per language.
	if _, stderr, code := runCLI(t, "correct", "--labelled", labelled, "--unlabelled", judged, "--by", "language", "--method", "ppi"); code != 0 {
		t.Fatalf("correct on the labelled file: exit %d: %s", code, stderr)
	}
	f, _ := os.Open(labelled)
	rows, err := correct.ReadLabelled(f, labelled, "language")
	f.Close()
	if err != nil || len(rows) != 9 {
		t.Fatalf("correct.ReadLabelled: %d rows, %v", len(rows), err)
	}
	// The adjudicator decides the three; the labelled file then has 12.
	dis, _ := os.ReadFile(todo)
	lines := strings.Split(strings.TrimSpace(string(dis)), "\n")
	if len(lines) != 4 || !strings.HasSuffix(lines[0], ",human") {
		t.Fatalf("disagreements file:\n%s", dis)
	}
	for i := 1; i < len(lines); i++ {
		lines[i] += "pass"
	}
	os.WriteFile(todo, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	out, stderr, code = runCLI(t, "label", "import", a, b, "--adjudicated", todo, "--out", labelled, "--resamples", "200", "--json")
	if code != 0 {
		t.Fatalf("label import --adjudicated: exit %d: %s", code, stderr)
	}
	res = labelbook.ImportResult{}
	json.Unmarshal([]byte(out), &res)
	if res.Labelled != 12 || res.Adjudicated != 3 || res.HumanPass != 9 {
		t.Errorf("adjudicated: labelled %d, adjudicated %d, human passes %d; want 12, 3, 9", res.Labelled, res.Adjudicated, res.HumanPass)
	}
}

func TestLabelImportRefuses(t *testing.T) {
	dir := t.TempDir()
	book := filepath.Join(dir, "labels.xlsx")
	if _, stderr, code := runCLI(t, "label", "export", "--judged", writeJudged(t, dir), "--out", book, "--n", "12"); code != 0 {
		t.Fatalf("label export: exit %d: %s", code, stderr)
	}
	for _, tc := range []struct {
		cells map[string]string
		want  string
	}{
		{map[string]string{"B6": "hi99"}, `edited.xlsx (sheet Labels) cell B6: edited id: "hi99" where the export wrote`},
		{map[string]string{"G9": "yes"}, `edited.xlsx (sheet Labels) cell G9: not a label of the list: "yes" is not pass, fail or unsure`},
	} {
		p := fillBook(t, book, "edited.xlsx", "", tc.cells)
		_, stderr, code := runCLI(t, "label", "import", p)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("import of %v: exit %d, stderr %q; want 1 and %q", tc.cells, code, stderr, tc.want)
		}
	}
	// Usage errors: no workbook, an output that is not .xlsx.
	if _, _, code := runCLI(t, "label", "import"); code != 2 {
		t.Errorf("label import with no workbook: exit %d, want 2", code)
	}
	if _, _, code := runCLI(t, "label", "export", "--judged", filepath.Join(dir, "judged.csv"), "--out", filepath.Join(dir, "x.csv")); code != 2 {
		t.Errorf("label export --out x.csv: exit %d, want 2", code)
	}
}

// TestLabelWorkbookInLibreOffice opens the exported workbook with a real
// spreadsheet: LibreOffice converts it to PDF (it opens), shows the Labels
// sheet as CSV (the formula-looking response as text, the progress
// formula computed), and re-saves a filled copy as .xlsx, which label
// import reads back with its labels.
func TestLabelWorkbookInLibreOffice(t *testing.T) {
	lo, err := exec.LookPath("libreoffice")
	if err != nil {
		t.Skip("libreoffice not on PATH (.ci/run installs libreoffice-calc)")
	}
	if testing.Short() {
		t.Skip("-short: not starting LibreOffice")
	}
	dir := t.TempDir()
	book := filepath.Join(dir, "labels.xlsx")
	if _, stderr, code := runCLI(t, "label", "export", "--judged", writeJudged(t, dir), "--out", book, "--n", "60"); code != 0 {
		t.Fatalf("label export: exit %d: %s", code, stderr)
	}
	filled := fillBook(t, book, "filled.xlsx", "Asha", labelCells("p f u p"))
	convert := func(to, out string, files ...string) {
		t.Helper()
		args := append([]string{"--headless", "-env:UserInstallation=file://" + filepath.Join(dir, "profile"), "--convert-to", to, "--outdir", out}, files...)
		cmd := exec.Command(lo, args...)
		cmd.Env = append(os.Environ(), "HOME="+dir)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("libreoffice --convert-to %s: %v\n%s", to, err, b)
		}
	}
	convert("pdf", filepath.Join(dir, "pdf"), book)
	if st, err := os.Stat(filepath.Join(dir, "pdf", "labels.pdf")); err != nil || st.Size() < 1000 {
		t.Fatalf("LibreOffice made no PDF of the workbook: %v", err)
	}
	// Token 12 (-1) writes every sheet to its own CSV file.
	convert("csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1", filepath.Join(dir, "csv"), book)
	shown, err := os.ReadFile(filepath.Join(dir, "csv", "labels-Labels.csv"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(shown)
	if !strings.HasPrefix(text, "Labeller:,,labelled: 0 of 60,") {
		t.Errorf("LibreOffice shows row 1 as %q, want the progress formula computed", strings.SplitN(text, "\n", 2)[0])
	}
	if !strings.Contains(text, ",en3,en,question 3,answer 3,=1+2,,") {
		t.Errorf("LibreOffice does not show en3's response =1+2 as text:\n%s", text)
	}
	convert("xlsx:Calc MS Excel 2007 XML", filepath.Join(dir, "resaved"), filled)
	out, stderr, code := runCLI(t, "label", "import", filepath.Join(dir, "resaved", "filled.xlsx"), "--json")
	if code != 0 {
		t.Fatalf("import of the workbook LibreOffice saved: exit %d: %s", code, stderr)
	}
	var res labelbook.ImportResult
	json.Unmarshal([]byte(out), &res)
	if w := res.Workbooks[0]; w.Labeller != "Asha" || w.Pass != 2 || w.Fail != 1 || w.Unsure != 1 || w.Empty != 56 {
		t.Errorf("LibreOffice's copy reads back as %+v, want Asha with 2 pass, 1 fail, 1 unsure, 56 empty", w)
	}
}
