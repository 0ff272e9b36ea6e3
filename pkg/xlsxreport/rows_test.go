package xlsxreport

import (
	"bytes"
	"context"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
)

// TestRowsAsValues: the workbook written from the run's rows as values
// (a RowTable filled by qa.Options.Rows) is byte for byte the workbook
// written from the same run's verdict file, continuation sheets
// included.
func TestRowsAsValues(t *testing.T) {
	var verdicts bytes.Buffer
	var rows results.RowTable
	s, err := qa.Score(context.Background(), bytes.NewReader(datasets.Responses), datasets.ResponsesName, qa.Options{
		By: [][]string{{"Domain"}, {"model", "language"}}, Verdicts: &verdicts, Rows: rows.Add,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, per := range []int{0, 100} {
		var fromFile, fromRows bytes.Buffer
		fi, err := Write(&fromFile, s, Options{Verdicts: bytes.NewReader(verdicts.Bytes()), RowsPerSheet: per})
		if err != nil {
			t.Fatal(err)
		}
		ri, err := Write(&fromRows, s, Options{Rows: &rows, RowsPerSheet: per})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fromFile.Bytes(), fromRows.Bytes()) {
			t.Errorf("RowsPerSheet %d: the workbook from rows differs from the one from the verdict file", per)
		}
		if ri.VerdictRows != s.Combined.N || ri.Disagreements != fi.Disagreements || ri.Disagreements == 0 {
			t.Errorf("RowsPerSheet %d: info %+v, from the file %+v", per, ri, fi)
		}
	}
}
