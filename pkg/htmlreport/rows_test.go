package htmlreport

import (
	"bytes"
	"context"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
)

// TestRowsAsValues: the page drawn from the run's rows as values
// (a RowTable filled by qa.Options.Rows) is byte for byte the page drawn
// from the same run's verdict file, for every row cap.
func TestRowsAsValues(t *testing.T) {
	var verdicts bytes.Buffer
	var rows results.RowTable
	s, err := qa.Score(context.Background(), bytes.NewReader(datasets.Responses), datasets.ResponsesName, qa.Options{
		By: [][]string{{"Domain"}, {"model", "language"}}, Verdicts: &verdicts, Rows: rows.Add,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, max := range []int{0, -1, 1, 7, 284, 1000} {
		var fromFile, fromRows bytes.Buffer
		if err := Write(&fromFile, s, Options{Verdicts: bytes.NewReader(verdicts.Bytes()), MaxRows: max}); err != nil {
			t.Fatal(err)
		}
		if err := Write(&fromRows, s, Options{Rows: &rows, MaxRows: max}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fromFile.Bytes(), fromRows.Bytes()) {
			t.Errorf("MaxRows %d: the page from rows differs from the page from the verdict file", max)
		}
		if !bytes.Contains(fromRows.Bytes(), []byte(`id="verdicts"`)) {
			t.Errorf("MaxRows %d: no verdicts section", max)
		}
	}
}
