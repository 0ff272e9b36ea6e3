package xlsxreport

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"github.com/evalbook/evalbook/pkg/tabular"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// sample scores the embedded sample set (284 rows, en/hi/bn) grouped by
// Domain and by model × language, and returns the result, its JSON form
// read back (what `report --from` renders), and the verdict CSV.
func sample(t testing.TB) (*results.Score, []byte) {
	t.Helper()
	var verdicts bytes.Buffer
	res, err := qa.Score(context.Background(), bytes.NewReader(datasets.Responses), datasets.ResponsesName, qa.Options{
		By:       [][]string{{"Domain"}, {"model", "language"}},
		Verdicts: &verdicts,
	})
	if err != nil {
		t.Fatal(err)
	}
	res.Tool = "evalbook test"
	// Round-trip through JSON, as `evalbook report --from` does.
	var js bytes.Buffer
	if err := res.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	back, err := results.ReadScore(&js)
	if err != nil {
		t.Fatal(err)
	}
	return back, verdicts.Bytes()
}

// render writes the workbook and opens it again with excelize. With
// XLSXREPORT_OUT set to a directory, the bytes are also saved there for
// a person (or scripts/render-check.sh) to look at.
func render(t *testing.T, s *results.Score, opt Options) (*excelize.File, []byte, Info) {
	t.Helper()
	var buf bytes.Buffer
	info, err := Write(&buf, s, opt)
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("XLSXREPORT_OUT"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(t.Name())+".xlsx"), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f, buf.Bytes(), info
}

// parts returns the files of the XLSX package by name.
func parts(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[zf.Name] = data
	}
	return out
}

// csvRecords parses a verdict CSV completely.
func csvRecords(t *testing.T, b []byte) [][]string {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// The verdict file guards formula cells (tabular.GuardFormula); the
	// workbook stores them as the text they are, unguarded.
	for _, rec := range recs[min(1, len(recs)):] {
		tabular.UnguardRecord(rec)
	}
	return recs
}

// raw returns a cell's stored value, unformatted.
func raw(t *testing.T, f *excelize.File, sheet, ref string) string {
	t.Helper()
	v, err := f.GetCellValue(sheet, ref, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	return v
}
