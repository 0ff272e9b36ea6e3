package output_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/compare"
	"github.com/evalbook/evalbook/pkg/output"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// scoreSample scores the embedded sample with its verdict file in dir.
func scoreSample(t testing.TB, dir string) (*results.Score, string) {
	var v bytes.Buffer
	res, err := qa.Score(context.Background(), bytes.NewReader(datasets.Responses), datasets.ResponsesName, qa.Options{Verdicts: &v})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "verdicts.csv")
	if err := os.WriteFile(path, v.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return res, path
}

func TestWriteScoreWritesEveryFile(t *testing.T) {
	dir := t.TempDir()
	res, verdicts := scoreSample(t, dir)
	x, h, c := filepath.Join(dir, "r.xlsx"), filepath.Join(dir, "r.html"), filepath.Join(dir, "charts")
	done, err := output.WriteScore(res, output.Files{XLSX: x, HTML: h, Charts: c, HTMLRows: 10, Verdicts: verdicts, VerdictsName: "verdicts.csv"})
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 3 || !strings.HasPrefix(done[0], x+" (") || !strings.Contains(done[0], "284 verdict rows") || done[1] != h ||
		!strings.Contains(done[2], "(PNG and SVG) to "+c) {
		t.Errorf("written: %q", done)
	}
	for path, magic := range map[string]string{x: "PK\x03\x04", h: "<!DOCTYPE html>"} {
		b, err := os.ReadFile(path)
		if err != nil || !bytes.HasPrefix(b, []byte(magic)) {
			t.Errorf("%s does not start with %q (%v)", path, magic, err)
		}
	}
	if pngs, _ := filepath.Glob(filepath.Join(c, "*.png")); len(pngs) == 0 {
		t.Errorf("no PNG chart in %s", c)
	}
	// A missing verdict file fails the workbook and leaves no file behind.
	bad := filepath.Join(dir, "bad.xlsx")
	if _, err := output.WriteScore(res, output.Files{XLSX: bad, Verdicts: filepath.Join(dir, "missing.csv")}); err == nil {
		t.Error("a missing verdict file gave no error")
	}
	if _, err := os.Stat(bad); !os.IsNotExist(err) {
		t.Errorf("a failed workbook left %s behind (%v)", bad, err)
	}
}

func ExampleWriteTables() {
	dir, _ := os.MkdirTemp("", "output")
	defer os.RemoveAll(dir)
	tbl := results.Table{Title: "counts", Columns: []results.Column{{Name: "label"}, {Name: "n", Kind: "number"}}, Rows: [][]string{{"yes", "3"}, {"no", "1"}}}
	done, err := output.WriteTables("Counts", []results.Table{tbl}, filepath.Join(dir, "counts.xlsx"), "")
	fmt.Println(len(done), err, filepath.Base(done[0]))
	// Output: 1 <nil> counts.xlsx
}

// TestWriteScoreWithComparisonTables is the call issue 30 reports as a
// crash: a comparison's tables (which end with its "Warnings" table) added
// to a score's workbook and page. Four cases with one flip give the
// comparison a few-flips warning, so its Warnings table is there.
func TestWriteScoreWithComparisonTables(t *testing.T) {
	dir := t.TempDir()
	res, verdicts := scoreSample(t, dir)
	cmp, err := compare.Versions([]string{"a", "b", "c", "d"}, []float64{1, 0, 0, 1}, []float64{1, 1, 0, 1}, nil, compare.Options{Seed: 1, Resamples: 200})
	if err != nil {
		t.Fatal(err)
	}
	tables := cmp.Tables()
	if last := tables[len(tables)-1]; last.Title != "Warnings" {
		t.Fatalf("the comparison's last table is %q, want its Warnings (the case this test is for)", last.Title)
	}
	x, h := filepath.Join(dir, "r.xlsx"), filepath.Join(dir, "r.html")
	if _, err := output.WriteScore(res, output.Files{XLSX: x, HTML: h, Verdicts: verdicts, Tables: tables}); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(x)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if !slices.Contains(sheets, "Warnings (table)") || sheets[len(sheets)-1] != "Warnings" {
		t.Errorf("sheets %q: want the comparison's Warnings (table) and the workbook's own Warnings last", sheets)
	}
	page, err := os.ReadFile(h)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, []byte(cmp.Warnings[0].Message[:20])) {
		t.Errorf("the page lacks the comparison's warning %q", cmp.Warnings[0].Message)
	}
}
