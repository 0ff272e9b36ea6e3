package xlsxreport

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// kappaTables are small tables in the shape other commands fill; the
// figures are SPEC.md's (30 pairs, observed 26/30, expected 307/900).
func kappaTables() []results.Table {
	return []results.Table{
		{
			Title: "Cohen's kappa", Note: "Two annotators, 30 pairs.",
			Columns: []results.Column{{Name: "measure"}, {Name: "value", Kind: results.KindNumber}, {Name: "share", Kind: results.KindRate}},
			Rows: [][]string{
				{"observed", "26", results.Float(26.0 / 30)},
				{"expected", "", results.Float(307.0 / 900)},
				{"=formula?", "x", ""},
			},
		},
		{
			Title:   "Confusion",
			Columns: []results.Column{{Name: "annotator 1"}, {Name: "a", Kind: results.KindNumber}, {Name: "b", Kind: results.KindNumber}, {Name: "tie", Kind: results.KindNumber}},
			Rows:    [][]string{{"a", "10", "0", "0"}, {"b", "0", "11", "0"}, {"tie", "3", "1", "5"}},
		},
	}
}

func TestWriteTables(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteTables(&buf, "Annotator agreement", kappaTables()); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, want := f.GetSheetList(), []string{"Contents", "Cohen-s kappa", "Confusion"}; !slices.Equal(got, want) {
		t.Fatalf("sheets %q, want %q", got, want)
	}
	check := func(sheet, ref, want string, typ excelize.CellType) {
		t.Helper()
		if got := raw(t, f, sheet, ref); got != want {
			t.Errorf("%s!%s = %q, want %q", sheet, ref, got, want)
		}
		if got, _ := f.GetCellType(sheet, ref); got != typ {
			t.Errorf("%s!%s type %v, want %v", sheet, ref, got, typ)
		}
	}
	// Title in row 1, note in row 2, a blank row, the header in row 4.
	// A number cell has no type attribute, which excelize reports as
	// CellTypeUnset; text has a type (shared string here).
	const number = excelize.CellTypeUnset
	check("Cohen-s kappa", "B5", "26", number)
	check("Cohen-s kappa", "C5", f64(26.0/30), number)
	check("Cohen-s kappa", "B6", "", excelize.CellTypeUnset)
	check("Cohen-s kappa", "A7", "=formula?", excelize.CellTypeSharedString)
	check("Cohen-s kappa", "B7", "x", excelize.CellTypeSharedString)
	check("Confusion", "D6", "5", number)
	if fx, _ := f.GetCellFormula("Cohen-s kappa", "A7"); fx != "" {
		t.Errorf("a text cell became the formula %q", fx)
	}
	rows, _ := f.GetRows("Contents")
	if !strings.Contains(strings.Join(rows[3], " "), "Cohen's kappa. Two annotators, 30 pairs.") {
		t.Errorf("contents row %q", rows[3])
	}

	bad := kappaTables()
	bad[1].Rows[0] = []string{"a", "10"}
	err = WriteTables(&bytes.Buffer{}, "x", bad)
	if err == nil || !strings.Contains(err.Error(), "row 1 has 2 cells for 4 columns") {
		t.Errorf("ragged table: error %v", err)
	}
	// The table is named once, not "table \"T\": table \"T\": row 1 ...".
	if prefix := fmt.Sprintf("table %q: ", bad[1].Title); err == nil || !strings.HasPrefix(err.Error(), prefix) || strings.Count(err.Error(), prefix) != 1 {
		t.Errorf("ragged table: error %v, want it to start with %q once", err, prefix)
	}
	// Likewise through Write's Options.Tables.
	s, _ := sample(t)
	_, err = Write(&bytes.Buffer{}, s, Options{Tables: bad})
	if prefix := fmt.Sprintf("table %q: ", bad[1].Title); err == nil || strings.Count(err.Error(), prefix) != 1 {
		t.Errorf("Write with a ragged table: error %v, want %q once", err, prefix)
	}
}

func TestScoreWithTables(t *testing.T) {
	s, _ := sample(t)
	f, _, _ := render(t, s, Options{Tables: kappaTables()[:1]})
	want := []string{"Summary", "By Domain", "By model - language", "Agreement", "Cohen-s kappa", "Warnings"}
	if got := f.GetSheetList(); !slices.Equal(got, want) {
		t.Errorf("sheets %q, want %q", got, want)
	}
}

// TestTablesNamedLikeOwnSheets adds tables titled like the workbook's own
// sheets. A comparison's tables include one titled "Warnings"; it used to
// take the Warnings sheet's name, so that the workbook's own Warnings
// sheet was the same sheet, ordered twice, and finish panicked (index out
// of range). Every table must get a sheet of its own, and the workbook
// its own sheets, under their usual names.
func TestTablesNamedLikeOwnSheets(t *testing.T) {
	s, verdicts := sample(t)
	one := func(title string) results.Table {
		return results.Table{Title: title, Columns: []results.Column{{Name: "code"}, {Name: "count", Kind: results.KindNumber}},
			Rows: [][]string{{title, "1"}}}
	}
	var tables []results.Table
	for _, title := range []string{"Warnings", "warnings", "Verdicts", "Verdicts (2)", "Disagreements", "Summary", "Agreement", "History", "Contents", "By Domain"} {
		tables = append(tables, one(title))
	}
	f, _, info := render(t, s, Options{Tables: tables, Verdicts: bytes.NewReader(verdicts), RowsPerSheet: 200})
	want := []string{"Summary", "By Domain", "By model - language", "Agreement",
		"Warnings (table)", "warnings (table) (2)", "Verdicts (table)", "Verdicts (2) (table)", "Disagreements (table)",
		"Summary (table)", "Agreement (table)", "History (table)", "Contents (table)", "By Domain (2)",
		"Verdicts", "Verdicts (2)", "Disagreements", "Warnings"}
	if got := f.GetSheetList(); !slices.Equal(got, want) {
		t.Fatalf("sheets\n%q\nwant\n%q", got, want)
	}
	if !slices.Equal(info.Sheets, want) {
		t.Errorf("Info.Sheets %q", info.Sheets)
	}
	// Each table's sheet holds that table: its title in A1, its one row.
	for i, name := range want[4:14] {
		if got := raw(t, f, name, "A1"); got != tables[i].Title {
			t.Errorf("%s!A1 = %q, want %q", name, got, tables[i].Title)
		}
		if got := raw(t, f, name, "A4"); got != tables[i].Title {
			t.Errorf("%s!A4 = %q, want %q", name, got, tables[i].Title)
		}
	}
	// The workbook's own sheets are still its own.
	if got := raw(t, f, "Warnings", "A1"); got != "Warnings" {
		t.Errorf("Warnings!A1 = %q", got)
	}
	if got := raw(t, f, "Verdicts", "A1"); got == "Verdicts" || got == "" {
		t.Errorf("Verdicts!A1 = %q, want the verdict file's first header", got)
	}

	// The same tables in a workbook of tables alone.
	var buf bytes.Buffer
	if err := WriteTables(&buf, "All", tables); err != nil {
		t.Fatal(err)
	}
	g, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if got := g.GetSheetList(); len(got) != len(tables)+1 || got[0] != "Contents" || got[9] != "Contents (table)" {
		t.Errorf("WriteTables sheets %q", got)
	}
}
