package qa

import (
	"bytes"
	"context"
	"encoding/csv"
	"reflect"
	"strings"
	"testing"
)

// formulaInput has the four risky responses of issue 17 and a plain
// number, which must stay a number.
const formulaInput = `question,answer,Domain,response
q1,a,d,"=HYPERLINK(""http://x"",""y"")"
q2,a,d,+1+2
q3,a,d,-2+3
q4,a,d,@SUM(A1)
q5,a,d,-2.5
q6,a,d,fine
`

func TestVerdictsGuardFormulas(t *testing.T) {
	for _, raw := range []bool{false, true} {
		var out bytes.Buffer
		opt := Options{Metrics: metricsOf(t, "exact_substring"), Verdicts: &out, RawCSV: raw}
		res, err := Score(context.Background(), strings.NewReader(formulaInput), "t.csv", opt)
		if err != nil {
			t.Fatal(err)
		}
		v, err := csv.NewReader(&out).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range v[1:] {
			got = append(got, r[3])
		}
		want := []string{`'=HYPERLINK("http://x","y")`, "'+1+2", "'-2+3", "'@SUM(A1)", "-2.5", "fine"}
		if raw {
			want = []string{`=HYPERLINK("http://x","y")`, "+1+2", "-2+3", "@SUM(A1)", "-2.5", "fine"}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("raw=%v: responses written %q, want %q", raw, got, want)
		}
		var w *struct {
			count int
			lines []int
		}
		for _, x := range res.Warnings {
			if x.Code == CodeFormulaCells {
				w = &struct {
					count int
					lines []int
				}{x.Count, x.Lines}
			}
		}
		switch {
		case raw && w != nil:
			t.Errorf("raw: unexpected %s warning", CodeFormulaCells)
		case !raw && w == nil:
			t.Errorf("no %s warning", CodeFormulaCells)
		case !raw && (w.count != 4 || !reflect.DeepEqual(w.lines, []int{2, 3, 4, 5})):
			t.Errorf("%s warning: count %d lines %v, want 4 [2 3 4 5]", CodeFormulaCells, w.count, w.lines)
		}
	}
}
