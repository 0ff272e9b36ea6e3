package harness

import (
	"bytes"
	"encoding/csv"
	"reflect"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// TestWriteCSVGuardsFormulas: run --out guards formula cells by default
// and writes them as they came with Raw.
func TestWriteCSVGuardsFormulas(t *testing.T) {
	cells := []string{`=HYPERLINK("http://x","y")`, "+1+2", "-2+3", "@SUM(A1)", "-2.5"}
	guarded := []string{`'=HYPERLINK("http://x","y")`, "'+1+2", "'-2+3", "'@SUM(A1)", "-2.5"}
	var rows []RunRow
	for _, c := range cells {
		rows = append(rows, RunRow{ID: "x" + c, Expect: "answer", Outcome: "answer", Fact: c})
	}
	for _, raw := range []bool{false, true} {
		var b bytes.Buffer
		var n int
		var err error
		if raw {
			n, err = WriteCSVOptions(&b, rows, tabular.CSVOptions{Raw: true})
		} else {
			err = WriteCSV(&b, rows)
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
	var b bytes.Buffer
	if n, err := WriteCSVOptions(&b, rows, tabular.CSVOptions{}); err != nil || n != 4 {
		t.Errorf("WriteCSVOptions counted %d guarded cells (%v), want 4", n, err)
	}
	back, err := ReadCSV(&b, "run.csv")
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range back {
		if r.Fact != cells[i] {
			t.Errorf("ReadCSV gave fact %q, want %q", r.Fact, cells[i])
		}
	}
}
