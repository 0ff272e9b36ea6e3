package generate

import (
	"bytes"
	"encoding/csv"
	"reflect"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// TestWriteCSVGuardsFormulas: generate --out guards formula cells by
// default and writes them as they came with Raw.
func TestWriteCSVGuardsFormulas(t *testing.T) {
	cells := []string{`=HYPERLINK("http://x","y")`, "+1+2", "-2+3", "@SUM(A1)", "-2.5"}
	guarded := []string{`'=HYPERLINK("http://x","y")`, "'+1+2", "'-2+3", "'@SUM(A1)", "-2.5"}
	res := &Result{Model: "m", Questions: len(cells)}
	for i, c := range cells {
		res.Rows = append(res.Rows, Row{Question: Question{ID: string(rune('a' + i)), Text: "q"}, Response: c})
	}
	for _, raw := range []bool{false, true} {
		var b bytes.Buffer
		var n int
		var err error
		if raw {
			n, err = res.WriteCSVOptions(&b, tabular.CSVOptions{Raw: true})
		} else {
			err = res.WriteCSV(&b)
		}
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(&b).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range recs[1:] {
			got = append(got, r[6])
		}
		want := guarded
		if raw {
			want = cells
		}
		if !reflect.DeepEqual(got, want) || n != 0 {
			t.Errorf("raw=%v: wrote %q (%d guarded), want %q", raw, got, n, want)
		}
	}
	if n, err := res.WriteCSVOptions(&bytes.Buffer{}, tabular.CSVOptions{}); err != nil || n != 4 {
		t.Errorf("WriteCSVOptions counted %d guarded cells (%v), want 4", n, err)
	}
}
