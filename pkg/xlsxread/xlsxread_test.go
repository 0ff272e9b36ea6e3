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

func book(t *testing.T, rows [][]any) []byte {
	t.Helper()
	f := excelize.NewFile()
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestScoreWorkbook(t *testing.T) {
	data := book(t, [][]any{
		{"id", "question", "answer", "Domain", "response"},
		{1, "Capital?", "Delhi", "Geo", "Delhi"},
		{},
		{2, "Year?", 1947, "History", "it was 1947"},
		{3, "Rivers?", "गंगा", "Geo", ""},
	})
	var out bytes.Buffer
	res, err := qa.Score(context.Background(), bytes.NewReader(data), "run.xlsx", qa.Options{Verdicts: &out})
	if err != nil {
		t.Fatal(err)
	}
	if res.Combined.N != 3 || res.Combined.Blank != 1 || res.Dataset.Format != "xlsx" {
		t.Errorf("combined = %+v, format %s", res.Combined, res.Dataset.Format)
	}
	if got := res.Combined.Metrics["exact_substring"].Correct; got != 2 {
		t.Errorf("exact_substring correct = %v, want 2 (Delhi, 1947)", got)
	}
	want := "id,question,answer,Domain,response,exact_substring,word_overlap,matching_words,total_golden_words,blank_response,empty_golden\n" +
		"1,Capital?,Delhi,Geo,Delhi,1,1,1,1,0,0\n" +
		"2,Year?,1947,History,it was 1947,1,1,1,1,0,0\n" +
		"3,Rivers?,गंगा,Geo,,0,0,0,1,1,0\n"
	if out.String() != want {
		t.Errorf("verdicts:\n%s\nwant\n%s", out.String(), want)
	}
}

func TestBadWorkbooks(t *testing.T) {
	_, err := qa.Score(context.Background(), strings.NewReader("not a zip"), "x.xlsx", qa.Options{})
	if err == nil || !strings.Contains(err.Error(), "x.xlsx") {
		t.Errorf("garbage: %v", err)
	}
	_, err = qa.Score(context.Background(), bytes.NewReader(book(t, nil)), "e.xlsx", qa.Options{})
	if !errors.Is(err, qa.ErrEmptyFile) {
		t.Errorf("empty workbook: %v", err)
	}
	data := book(t, [][]any{{"question", "answer", "Domain", "response"}, {"q", "a", "D", "r", "extra"}})
	_, err = qa.Score(context.Background(), bytes.NewReader(data), "w.xlsx", qa.Options{})
	var pe *qa.ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || !errors.Is(err, qa.ErrFieldCount) {
		t.Errorf("wide row: %v", err)
	}
	data = book(t, [][]any{{"question", "answer", "response"}, {"q", "a", "r"}})
	_, err = qa.Score(context.Background(), bytes.NewReader(data), "m.xlsx", qa.Options{})
	if !errors.Is(err, qa.ErrMissingColumn) || !strings.Contains(err.Error(), "m.xlsx") {
		t.Errorf("missing column: %v", err)
	}
}
