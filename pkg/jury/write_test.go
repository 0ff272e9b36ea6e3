package jury

import (
	"bytes"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// TestWriteCSV: the label file's bytes, an errored label written empty
// and a formula-like item guarded (or not, with Raw).
func TestWriteCSV(t *testing.T) {
	ls := &Labels{Labels: []Label{
		{Item: "q1", Rater: "a", Label: "yes"},
		{Item: "=1+1", Rater: "b, c", Label: "ERROR", Errored: true},
	}}
	for _, tc := range []struct {
		raw     bool
		want    string
		guarded int
	}{
		{false, "item,rater,label\nq1,a,yes\n'=1+1,\"b, c\",\n", 1},
		{true, "item,rater,label\nq1,a,yes\n=1+1,\"b, c\",\n", 0},
	} {
		var b bytes.Buffer
		n, err := ls.WriteCSV(&b, tabular.CSVOptions{Raw: tc.raw})
		if err != nil || n != tc.guarded || b.String() != tc.want {
			t.Errorf("raw %v: WriteCSV wrote %q (%d guarded, %v), want %q (%d guarded)", tc.raw, b.String(), n, err, tc.want, tc.guarded)
		}
	}
}
