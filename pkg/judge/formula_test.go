package judge

import (
	"bytes"
	"encoding/csv"
	"reflect"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

var formulaCells = []string{`=HYPERLINK("http://x","y")`, "+1+2", "-2+3", "@SUM(A1)", "-2.5"}
var formulaGuarded = []string{`'=HYPERLINK("http://x","y")`, "'+1+2", "'-2+3", "'@SUM(A1)", "-2.5"}

// TestWriteVerdictsGuardsFormulas: judge --out guards formula cells by
// default and writes them as they came with Raw.
func TestWriteVerdictsGuardsFormulas(t *testing.T) {
	tbl := &Responses{Header: []string{"response"}}
	for _, c := range formulaCells {
		tbl.Rows = append(tbl.Rows, ResponseRow{Fields: []string{c}})
	}
	for _, raw := range []bool{false, true} {
		var b bytes.Buffer
		n, err := tbl.WriteVerdictsCSV(&b, tabular.CSVOptions{Raw: raw})
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(&b).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range recs[1:] {
			got = append(got, r[0])
		}
		want, wantN := formulaGuarded, 4
		if raw {
			want, wantN = formulaCells, 0
		}
		if !reflect.DeepEqual(got, want) || n != wantN {
			t.Errorf("raw=%v: wrote %q (%d guarded), want %q (%d)", raw, got, n, want, wantN)
		}
	}
	var b bytes.Buffer
	if err := tbl.WriteVerdicts(&b); err != nil {
		t.Fatal(err)
	}
	if recs, _ := csv.NewReader(&b).ReadAll(); recs[1][0] != formulaGuarded[0] {
		t.Errorf("WriteVerdicts wrote %q, want it guarded", recs[1][0])
	}
}
