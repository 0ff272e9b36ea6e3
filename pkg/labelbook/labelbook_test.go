package labelbook

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/xlsxread"
	"github.com/xuri/excelize/v2"
)

// judgedCSV is a judged file of three languages: bn 10 rows, en 20, hi
// 30; row en-3's response is a formula and row hi-5's judge verdict is
// empty (a failed judge call).
func judgedCSV() string {
	var b strings.Builder
	b.WriteString("id,language,question,answer,response,judge\n")
	for _, l := range []struct {
		lang string
		n    int
	}{{"bn", 10}, {"en", 20}, {"hi", 30}} {
		for i := range l.n {
			resp := fmt.Sprintf("answer %d", i)
			if l.lang == "en" && i == 3 {
				resp = `"=HYPERLINK(""http://evil.example"",""click"")"`
			}
			judge := fmt.Sprint(i % 2)
			if l.lang == "hi" && i == 5 {
				judge = ""
			}
			fmt.Fprintf(&b, "%s-%d,%s,question %d,gold %d,%s,%s\n", l.lang, i, l.lang, i, i, resp, judge)
		}
	}
	return b.String()
}

func export(t *testing.T, opt ExportOptions) (*Sample, []byte) {
	t.Helper()
	s, err := ReadJudged(strings.NewReader(judgedCSV()), "judged.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteWorkbook(&buf, s); err != nil {
		t.Fatal(err)
	}
	return s, buf.Bytes()
}

// fill opens an exported workbook, writes cells of the Labels sheet
// (cell -> value) as a person would, and returns the saved bytes.
func fill(t *testing.T, data []byte, cells map[string]string) []byte {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for c, v := range cells {
		if err := f.SetCellStr(SheetLabels, c, v); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestAllocate(t *testing.T) {
	for _, tc := range []struct {
		sizes []int
		n     int
		prop  bool
		want  []int
	}{
		// 12 over 3 groups is 4 each; the first has 3 rows, and its
		// one left over goes to the next group in order.
		{[]int{3, 10, 10}, 12, false, []int{3, 5, 4}},
		// 10 in proportion to 10:30:60 is 1, 3, 6.
		{[]int{10, 30, 60}, 10, true, []int{1, 3, 6}},
		// 5 over 10:10:10: 5/3 = 1.67 each, floors 1,1,1, the 2 left to
		// the largest remainders (all equal: the first two).
		{[]int{10, 10, 10}, 5, true, []int{2, 2, 1}},
		{[]int{2, 2}, 9, false, []int{2, 2}},
	} {
		if got := allocate(tc.sizes, tc.n, tc.prop); !slices.Equal(got, tc.want) {
			t.Errorf("allocate(%v, %d, %v) = %v, want %v", tc.sizes, tc.n, tc.prop, got, tc.want)
		}
	}
}

func TestExportWorkbook(t *testing.T) {
	s, data := export(t, ExportOptions{By: "language", N: 12, Seed: 7})
	r := s.Result
	// hi has 29 judged rows (hi-5 has no verdict): 4 per language.
	if r.Items != 12 || len(r.Groups) != 3 || r.Groups[2].Judged != 29 || r.Groups[0].Sampled != 4 {
		t.Fatalf("sample %+v", r)
	}
	if len(r.Warnings) != 1 || r.Warnings[0].Code != CodeNotJudged || r.Warnings[0].Count != 1 {
		t.Errorf("warnings %+v, want not_judged 1", r.Warnings)
	}
	// The same seed samples the same ids whatever the row order.
	lines := strings.Split(strings.TrimSuffix(judgedCSV(), "\n"), "\n")
	slices.Reverse(lines[1:])
	s2, err := ReadJudged(strings.NewReader(strings.Join(lines, "\n")+"\n"), "judged.csv", ExportOptions{By: "language", N: 12, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if s2.Result.Digest != r.Digest {
		t.Errorf("reversed rows sample other items")
	}
	s3, _ := ReadJudged(strings.NewReader(judgedCSV()), "judged.csv", ExportOptions{By: "language", N: 12, Seed: 8})
	if s3.Result.Digest == r.Digest {
		t.Errorf("seed 8 samples the items of seed 7")
	}

	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); !slices.Equal(got, []string{SheetLabels, SheetGuidelines, SheetMeta}) {
		t.Errorf("sheets %v", got)
	}
	if v, _ := f.GetSheetVisible(SheetMeta); v {
		t.Errorf("the hidden sheet is visible")
	}
	hdr, _ := f.GetRows(SheetLabels)
	if want := []string{"#", "id", "language", "question", "answer", "response", "label", "note"}; !slices.Equal(hdr[headerRow-1], want) {
		t.Errorf("header %q, want %q", hdr[headerRow-1], want)
	}
	// The drop-down covers the label column of every item's row.
	dvs, err := f.GetDataValidations(SheetLabels)
	if err != nil || len(dvs) != 1 || dvs[0].Sqref != "G3:G14" || dvs[0].Formula1 != `"pass,fail,unsure"` {
		t.Fatalf("data validations %+v (%v), want one list pass,fail,unsure on G3:G14", dvs, err)
	}
	// Formulas are in row 1 only and read the label column; every item
	// cell is a value, the formula-looking response as text.
	found := false
	for r := 1; r <= 14; r++ {
		for c := 1; c <= 8; c++ {
			ref := cell(c, r)
			fm, _ := f.GetCellFormula(SheetLabels, ref)
			if r == nameRow && (c == 3 || c == 7) {
				if !strings.Contains(fm, "COUNTIF(G3:G14") {
					t.Errorf("%s: formula %q, want the progress count over G3:G14", ref, fm)
				}
				continue
			}
			if fm != "" {
				t.Errorf("%s holds formula %q", ref, fm)
			}
			if v, _ := f.GetCellValue(SheetLabels, ref); strings.HasPrefix(v, "=HYPERLINK") {
				found = true
				if typ, _ := f.GetCellType(SheetLabels, ref); typ != excelize.CellTypeSharedString {
					t.Errorf("%s: the response is of cell type %v, want a shared string", ref, typ)
				}
			}
		}
	}
	if en3 := slices.ContainsFunc(s.Items, func(it Item) bool { return it.ID == "en-3" }); en3 != found {
		t.Errorf("en-3 sampled %v, its formula text found %v", en3, found)
	}
	// Only the name, label and note cells are unlocked.
	for _, c := range []struct {
		ref    string
		locked bool
	}{{"B1", false}, {"C1", true}, {"B3", true}, {"F3", true}, {"G3", false}, {"H14", false}, {"A2", true}} {
		id, _ := f.GetCellStyle(SheetLabels, c.ref)
		st, _ := f.GetStyle(id)
		locked := st == nil || st.Protection == nil || st.Protection.Locked
		if locked != c.locked {
			t.Errorf("%s locked %v, want %v", c.ref, locked, c.locked)
		}
	}
}

func TestCutLongText(t *testing.T) {
	long := strings.Repeat("अ", maxCell+10)
	s := &Sample{Source: "x.csv", Show: []string{"response"}, Items: []Item{{ID: "a", Shown: []string{long}}}, Result: &ExportResult{}}
	var buf bytes.Buffer
	if err := WriteWorkbook(&buf, s); err != nil {
		t.Fatal(err)
	}
	f, _ := excelize.OpenReader(&buf)
	defer f.Close()
	v, _ := f.GetCellValue(SheetLabels, "C3")
	if utf16Len(v) > maxCell || !strings.HasSuffix(v, fmt.Sprintf(cutMarker, maxCell+10)) {
		t.Errorf("cut cell: %d units, ends %q", utf16Len(v), v[len(v)-60:])
	}
	if len(s.Result.Warnings) != 1 || s.Result.Warnings[0].Code != CodeCellsCut {
		t.Errorf("warnings %+v", s.Result.Warnings)
	}
}

// labels gives the 12 items' labels of two labellers. Cohen's kappa by
// hand: A passes items 0-5 and 10 (7), B passes 0-4, 9, 10 (7); they
// agree on 10 of 12 (items 5 and 9 differ), so pₒ = 10/12, pₑ = (7/12)² +
// (5/12)² = 74/144 and κ = (120 − 74)/(144 − 74) = 46/70.
var (
	labelsA = []string{"pass", "pass", "pass", "pass", "pass", "pass", "fail", "fail", "fail", "fail", "Pass ", "fail"}
	labelsB = []string{"pass", "pass", "pass", "pass", "pass", "fail", "fail", "fail", "fail", "pass", "pass", "fail"}
)

func filled(t *testing.T, data []byte, name string, labels []string) []byte {
	cells := map[string]string{"B1": name}
	for i, l := range labels {
		cells[cell(7, firstRow+i)] = l
	}
	return fill(t, data, cells)
}

func TestRoundTrip(t *testing.T) {
	s, data := export(t, ExportOptions{By: "language", N: 12, Seed: 7})
	a, err := ReadWorkbook(bytes.NewReader(filled(t, data, "Asha", labelsA)), "a.xlsx", xlsxread.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadWorkbook(bytes.NewReader(filled(t, data, "", labelsB)), "dir/ben.xlsx", xlsxread.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Labeller != "Asha" || b.Labeller != "ben" || !b.NameFromFile {
		t.Errorf("labellers %q %q", a.Labeller, b.Labeller)
	}
	res, err := Import([]*Workbook{a, b}, ImportOptions{Resamples: 2000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	all := res.Agreement[0]
	if all.Group != "" || all.N != 12 || all.Agreeing != 10 || math.Abs(*all.Kappa-46.0/70) > 1e-12 {
		t.Fatalf("agreement %+v, want n 12, 10 agreeing, kappa 46/70", all)
	}
	if !(*all.CILow < *all.Kappa && *all.Kappa <= *all.CIHigh) {
		t.Errorf("interval %v %v around %v", *all.CILow, *all.CIHigh, *all.Kappa)
	}
	if len(res.Agreement) != 4 || res.Agreement[1].Group != "bn" || res.Agreement[1].N != 4 {
		t.Errorf("per-group agreement %+v", res.Agreement)
	}
	if len(res.ToAdjudicate) != 2 || res.ToAdjudicate[0].ID != s.Items[5].ID || res.ToAdjudicate[1].ID != s.Items[9].ID ||
		res.ToAdjudicate[0].Cell != "B8" || res.ToAdjudicate[0].Reason != "disagree" {
		t.Fatalf("to adjudicate %+v", res.ToAdjudicate)
	}
	// Items 5 and 9 stay out; the others pass where A (= B) passes.
	if res.Labelled != 10 || res.HumanPass != 6 || res.LeftOut != 2 {
		t.Errorf("labelled %d, human passes %d, left out %d; want 10, 6, 2", res.Labelled, res.HumanPass, res.LeftOut)
	}
	var csv bytes.Buffer
	if err := res.WriteLabelled(&csv); err != nil {
		t.Fatal(err)
	}
	first := strings.SplitN(csv.String(), "\n", 3)
	it := s.Items[0]
	if first[0] != "id,human,judge,language" || first[1] != fmt.Sprintf("%s,1,%d,%s", it.ID, int01(it.Judge), it.Group) {
		t.Errorf("labelled file starts %q", first[:2])
	}
	// The disagreements file, filled by an adjudicator, reads back.
	var dis bytes.Buffer
	if err := res.WriteDisagreements(&dis); err != nil {
		t.Fatal(err)
	}
	decided := strings.Replace(dis.String(), "disagree,pass,,fail,,\n", "disagree,pass,,fail,,1\n", 1)
	adj, err := ReadAdjudicated(strings.NewReader(decided), "dis.csv")
	if err != nil || len(adj) != 1 || !adj[s.Items[5].ID] {
		t.Fatalf("adjudicated %v (%v) from\n%s", adj, err, decided)
	}
	res2, err := Import([]*Workbook{a, b}, ImportOptions{Resamples: 200, Adjudicated: adj})
	if err != nil {
		t.Fatal(err)
	}
	if res2.Labelled != 11 || res2.HumanPass != 7 || res2.Adjudicated != 1 || *res2.ToAdjudicate[0].Human != 1 {
		t.Errorf("after adjudication: labelled %d, passes %d, adjudicated %d", res2.Labelled, res2.HumanPass, res2.Adjudicated)
	}
	// Two workbooks of one labeller are refused.
	if _, err := Import([]*Workbook{a, a}, ImportOptions{}); err == nil || !strings.Contains(err.Error(), "both name the labeller") {
		t.Errorf("same labeller twice: %v", err)
	}
	// So are workbooks of two exports.
	_, other := export(t, ExportOptions{By: "language", N: 12, Seed: 8})
	c, err := ReadWorkbook(bytes.NewReader(other), "c.xlsx", xlsxread.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Import([]*Workbook{a, c}, ImportOptions{}); !errors.Is(err, ErrMismatch) {
		t.Errorf("two exports: %v", err)
	}
}

func TestImportRefuses(t *testing.T) {
	_, data := export(t, ExportOptions{By: "language", N: 12, Seed: 7})
	for _, tc := range []struct {
		name  string
		cells map[string]string
		cell  string
		is    error
		says  string
	}{
		{"edited id", map[string]string{"B5": "bn-99"}, "B5", ErrEdited, `"bn-99" where the export wrote`},
		{"emptied id", map[string]string{"B9": ""}, "B9", ErrEdited, "deleted or moved"},
		{"value outside the list", map[string]string{"G7": "maybe"}, "G7", ErrValue, `"maybe" is not pass, fail or unsure`},
		{"formula-looking value", map[string]string{"G4": "=1+1"}, "G4", ErrValue, `"'=1+1" is not`},
		{"row below the export", map[string]string{"D15": "extra"}, "D15", ErrEdited, "row 15 is not one the export wrote"},
		{"header", map[string]string{"G2": "verdict"}, "G2", ErrEdited, "header was edited"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadWorkbook(bytes.NewReader(fill(t, data, tc.cells)), "a.xlsx", xlsxread.Limits{})
			var ce *CellError
			if !errors.As(err, &ce) || ce.Cell != tc.cell || ce.Sheet != SheetLabels || !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("got %v, want a %v error at cell %s saying %q", err, tc.is, tc.cell, tc.says)
			}
			if !strings.HasPrefix(err.Error(), "a.xlsx (sheet Labels) cell "+tc.cell+": ") {
				t.Errorf("message %q does not start with the file, sheet and cell", err)
			}
		})
	}
	// A formula typed in a label cell.
	f, _ := excelize.OpenReader(bytes.NewReader(data))
	f.SetCellFormula(SheetLabels, "G6", `"pass"`)
	var buf bytes.Buffer
	f.WriteTo(&buf)
	f.Close()
	if _, err := ReadWorkbook(&buf, "a.xlsx", xlsxread.Limits{}); err == nil || !strings.Contains(err.Error(), "cell G6: not a label of the list: the label cell holds a formula") {
		t.Errorf("formula label: %v", err)
	}
	// An edit of the hidden sheet breaks its digest.
	f, _ = excelize.OpenReader(bytes.NewReader(data))
	f.SetCellStr(SheetMeta, cell(4, metaFirstItem), map[bool]string{true: "0", false: "1"}[mustCell(f, SheetMeta, cell(4, metaFirstItem)) == "1"])
	buf.Reset()
	f.WriteTo(&buf)
	f.Close()
	if _, err := ReadWorkbook(&buf, "a.xlsx", xlsxread.Limits{}); !errors.Is(err, ErrEdited) || !strings.Contains(err.Error(), "(sheet evalbook) cell B5") {
		t.Errorf("hidden sheet edited: %v", err)
	}
	// A workbook past the reading limit is refused before excelize opens it.
	if _, err := ReadWorkbook(bytes.NewReader(data), "a.xlsx", xlsxread.Limits{MaxInflated: 4096}); !errors.Is(err, xlsxread.ErrTooLarge) {
		t.Errorf("4 KiB limit: %v", err)
	}
	// A workbook of something else.
	g := excelize.NewFile()
	buf.Reset()
	g.WriteTo(&buf)
	if _, err := ReadWorkbook(&buf, "other.xlsx", xlsxread.Limits{}); !errors.Is(err, ErrNotLabelBook) {
		t.Errorf("another workbook: %v", err)
	}
}

func mustCell(f *excelize.File, sheet, ref string) string {
	v, _ := f.GetCellValue(sheet, ref)
	return v
}
