package xlsxread

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/xuri/excelize/v2"
)

// twoSheets is a workbook whose first sheet is a cover note and whose
// second, "Data", holds the response table.
func twoSheets(t *testing.T) []byte {
	t.Helper()
	f := excelize.NewFile()
	f.SetSheetRow("Sheet1", "A1", &[]any{"About this file"})
	f.SetSheetRow("Sheet1", "A2", &[]any{"run of 2026-12-01"})
	if _, err := f.NewSheet("Data"); err != nil {
		t.Fatal(err)
	}
	for i, r := range [][]any{
		{"id", "question", "answer", "Domain", "response"},
		{1, "Capital?", "Delhi", "Geo", "Delhi"},
		{2, "Year?", 1947, "History", "1950"},
	} {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Data", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Without a sheet the first is read; its header lacks the columns, and
// the error names the sheet read and the sheet that has them. With
// Options.Sheet the data sheet scores: 1 of 2 correct.
func TestSheetOption(t *testing.T) {
	data := twoSheets(t)
	ctx := context.Background()
	_, err := qa.Score(ctx, bytes.NewReader(data), "run.xlsx", qa.Options{})
	if !errors.Is(err, qa.ErrMissingColumn) {
		t.Fatalf("first sheet: %v, want a missing-column error", err)
	}
	for _, want := range []string{`run.xlsx:1: missing column`, `this is sheet "Sheet1"`, `sheet "Data" has the columns: read it with --sheet "Data"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	var pe *qa.ParseError
	if !errors.As(err, &pe) || pe.Line != 1 {
		t.Errorf("error %#v is not a ParseError at line 1", err)
	}

	res, err := qa.Score(ctx, bytes.NewReader(data), "run.xlsx", qa.Options{Sheet: "Data"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Combined.N != 2 || res.Combined.Metrics["exact_substring"].Correct != 1 {
		t.Errorf("Data sheet: n %d, correct %v; want 2 and 1 (Delhi)", res.Combined.N, res.Combined.Metrics["exact_substring"].Correct)
	}

	_, err = qa.Score(ctx, bytes.NewReader(data), "run.xlsx", qa.Options{Sheet: "Dta"})
	if err == nil || !strings.Contains(err.Error(), `the workbook has no sheet "Dta"; it has "Sheet1", "Data"`) {
		t.Errorf("unknown sheet: %v", err)
	}
	_, err = qa.Score(ctx, strings.NewReader("question,answer,Domain,response\nq,a,D,a\n"), "run.csv", qa.Options{Sheet: "Data"})
	if err == nil || !strings.Contains(err.Error(), "applies to a workbook (.xlsx), not to csv input") {
		t.Errorf("sheet on CSV: %v", err)
	}
}

// A workbook whose no sheet fits says so.
func TestSheetHintNoFit(t *testing.T) {
	data := book(t, [][]any{{"q", "a"}, {"x", "y"}})
	_, err := qa.Score(context.Background(), bytes.NewReader(data), "run.xlsx", qa.Options{})
	if err == nil || !strings.Contains(err.Error(), `this is sheet "Sheet1", and no other sheet has them`) {
		t.Errorf("%v", err)
	}
}
