package xlsxreport

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// A negative difference, rating, count or number in a workbook table reads with
// the minus sign U+2212, as the page shows it (results.FormatUnit), and
// stays a negative number: the format's negative section carries the
// sign. It read "-7.0 pp" beside the page's "−7.0 pp".
func TestNegativeFiguresMinusSign(t *testing.T) {
	tb := results.Table{Title: "Signs", Columns: []results.Column{{Name: "change", Kind: results.KindPP}, {Name: "rating", Kind: results.KindRating},
		{Name: "count", Kind: results.KindCount}, {Name: "number", Kind: results.KindNumber}},
		Rows: [][]string{{"-0.07", "-12", "-1234", "-0.02"}, {"0.031", "1094", "33390", "1.07912"}}}
	var b bytes.Buffer
	if err := WriteTables(&b, "signs", []results.Table{tb}); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&b)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sheet := f.GetSheetList()[1]
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for _, r := range rows {
		if len(r) == 4 && r[0] != "change" {
			got = append(got, r)
		}
	}
	// A plain number reads as on the page too: three decimals (it was
	// General: "-0.02", "1.07912").
	want := [][]string{{"−7.0 pp", "−12", "−1,234", "−0.020"}, {"+3.1 pp", "1094", "33,390", "1.079"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows as shown %q, want %q", got, want)
	}
	for _, c := range []string{"A4", "B4", "C4", "D4"} {
		if v, _ := f.GetCellValue(sheet, c, excelize.Options{RawCellValue: true}); len(v) == 0 || v[0] != '-' {
			t.Errorf("%s holds %q, want a negative number", c, v)
		}
	}
}
