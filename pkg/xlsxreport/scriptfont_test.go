package xlsxreport

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// family is the font family of a cell's style ("" when the style names
// none).
func family(t *testing.T, f *excelize.File, sheet, ref string) string {
	t.Helper()
	st := styleOf(t, f, sheet, ref)
	if st.Font == nil {
		return ""
	}
	return st.Font.Family
}

func indicTable() results.Table {
	return results.Table{Title: "Answers", Columns: []results.Column{{Name: "language"}, {Name: "answer"}, {Name: "n", Kind: results.KindNumber}, {Name: "accuracy", Kind: results.KindRate}},
		Rows: [][]string{{"bn", "নতুন দিল্লি", "35", "0.543"}, {"hi", "नई दिल्ली", "44", "0.636"}, {"en", "New Delhi", "50", "0.7"}}}
}

// A row that holds Indic text is written wholly in that script's Noto
// font, numbers included, so that every cell of the row has one ascent
// and descent; a Latin row keeps the body font. The number formats stay.
func TestIndicRowsOneFont(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTables(&buf, "Fonts", []results.Table{indicTable()}); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if v, _ := f.GetCellValue("Answers", "B5"); v != "नई दिल्ली" {
		t.Fatalf("B5 = %q: the table is not where the test reads it", v)
	}
	for row, want := range map[string]string{"4": "Noto Sans Bengali", "5": "Noto Sans Bengali"} {
		for _, c := range []string{"A", "B", "C", "D"} {
			if got := family(t, f, "Answers", c+row); got != want {
				t.Errorf("%s%s: font %q, want %q", c, row, got, want)
			}
		}
	}
	for _, c := range []string{"A", "B", "C", "D"} {
		if got := family(t, f, "Answers", c+"6"); got != "" && got != bodyFont {
			t.Errorf("%s6 (a Latin row): font %q, want the body font", c, got)
		}
	}
	id, _ := f.GetCellStyle("Answers", "D5")
	st, _ := f.GetStyle(id)
	if st.CustomNumFmt == nil || *st.CustomNumFmt != "0.0%" {
		t.Errorf("D5's number format = %v, want 0.0%% kept in the Indic font", st.CustomNumFmt)
	}

	// The score workbook's streamed verdict rows too.
	s, verdicts := sample(t)
	g, _, _ := render(t, s, Options{Verdicts: bytes.NewReader(verdicts)})
	rows, err := g.GetRows("Verdicts")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i := 1; i < len(rows); i++ {
		want := ""
		for _, v := range rows[i] {
			if want = scriptFont(v); want != "" {
				break
			}
		}
		if want == "" {
			continue
		}
		for c, v := range rows[i] {
			if v == "" {
				continue
			}
			ref, _ := excelize.CoordinatesToCellName(c+1, i+1)
			if got := family(t, g, "Verdicts", ref); got != want {
				t.Errorf("Verdicts!%s: font %q, want %q (the row holds Indic text)", ref, got, want)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no verdict row holds Indic text: the check saw nothing")
	}
}

// In LibreOffice's PDF of the workbook, Hindi and Bengali text sits on
// the baseline of the Latin text and numbers of its row. Before rows took
// one font, the same table measured +1.3 pt for both scripts with
// scripts/pdf-baselines.py (bottom-aligned; top-aligned it was +2.0 pt);
// with the Hindi row in Noto Sans Devanagari it stayed +1.3 pt.
func TestIndicBaselineInLibreOffice(t *testing.T) {
	lo, err := exec.LookPath("libreoffice")
	if err != nil {
		t.Skip("libreoffice not installed")
	}
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	if _, err := os.Stat("/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf"); err != nil {
		t.Skip("fonts-noto-core not installed")
	}
	dir := t.TempDir()
	var buf bytes.Buffer
	if err := WriteTables(&buf, "Fonts", []results.Table{indicTable()}); err != nil {
		t.Fatal(err)
	}
	xlsx := filepath.Join(dir, "fonts.xlsx")
	if err := os.WriteFile(xlsx, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(lo, "--headless", "-env:UserInstallation=file://"+filepath.Join(dir, "profile"), "--convert-to", "pdf", "--outdir", dir, xlsx)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("libreoffice: %v\n%s", err, out)
	}
	out, err := exec.Command(py, "../../scripts/pdf-baselines.py", filepath.Join(dir, "fonts.pdf")).CombinedOutput()
	if err != nil {
		t.Fatalf("pdf-baselines.py: %v\n%s", err, out)
	}
	re := regexp.MustCompile(`(\d+) (\S+) runs ([+-]\d+\.\d) pt`)
	ms := re.FindAllStringSubmatch(string(out), -1)
	if len(ms) == 0 {
		t.Fatalf("pdf-baselines.py found no Indic text in the PDF:\n%s", out)
	}
	for _, m := range ms {
		if off, _ := strconv.ParseFloat(m[3], 64); off > 0.3 || off < -0.3 {
			t.Errorf("%s runs of %s sit %s pt from the Latin baseline of their row (want within 0.3 pt)", m[1], m[2], m[3])
		}
	}
	t.Logf("%s", out)
}
