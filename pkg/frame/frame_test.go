package frame

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/go-gota/gota/series"
)

func records(t *testing.T, b []byte) [][]string {
	t.Helper()
	recs, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// sample scores the sample data; it returns the result, the verdict
// file (as a file on disk would hold it) and the same rows as values.
func sample(t *testing.T) (*results.Score, []byte, *results.RowTable) {
	t.Helper()
	var v bytes.Buffer
	var rows results.RowTable
	res, err := qa.Score(context.Background(), bytes.NewReader(datasets.Responses), datasets.ResponsesName, qa.Options{
		By: [][]string{{"Domain"}, {"model", "language"}}, Verdicts: &v, Rows: rows.Add,
	})
	if err != nil {
		t.Fatal(err)
	}
	return res, v.Bytes(), &rows
}

// TestFromRows: the DataFrame of the rows as values has the columns,
// types and cells of the DataFrame ReadVerdicts makes of the same run's
// verdict file.
func TestFromRows(t *testing.T) {
	s, verdicts, rows := sample(t)
	want, err := ReadVerdicts(bytes.NewReader(verdicts), s.Settings.Metrics...)
	if err != nil {
		t.Fatal(err)
	}
	got, err := FromRows(rows)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Names(), want.Names()) {
		t.Fatalf("columns %v, want %v", got.Names(), want.Names())
	}
	for _, n := range want.Names() {
		if g, w := got.Col(n).Type(), want.Col(n).Type(); g != w {
			t.Errorf("column %s has type %s, want %s", n, g, w)
		}
	}
	var a, b bytes.Buffer
	if err := WriteCSV(&a, got); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(&b, want); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Error("FromRows and ReadVerdicts give different cells")
	}
	if got.Nrow() != s.Combined.N {
		t.Errorf("%d rows, the result has %d", got.Nrow(), s.Combined.N)
	}
}

func TestResponsesRoundTrip(t *testing.T) {
	df, err := ReadResponses(bytes.NewReader(datasets.Responses))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range df.Names() {
		if typ := df.Col(n).Type(); typ != series.String {
			t.Errorf("column %s has type %s, want string", n, typ)
		}
	}
	var out bytes.Buffer
	if err := WriteCSV(&out, df); err != nil {
		t.Fatal(err)
	}
	want, got := records(t, datasets.Responses), records(t, out.Bytes())
	for _, rec := range want[1:] {
		tabular.GuardRecord(rec) // the sample has formula-like responses
	}
	if !slices.EqualFunc(want, got, slices.Equal[[]string]) {
		t.Fatal("the sample's records changed on the way through a DataFrame")
	}
}

func TestTrickyValuesStayText(t *testing.T) {
	// gota by default reads NA and NaN as missing and "1947" as a number.
	in := "id,answer,response\n1,NA,NaN\n2,1947,007\n3,,=1+1\n"
	df, err := ReadResponses(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteCSV(&out, df); err != nil {
		t.Fatal(err)
	}
	// A formula cell comes back guarded (tabular.GuardFormula).
	if want := strings.Replace(in, ",=1+1", ",'=1+1", 1); out.String() != want {
		t.Errorf("round trip:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestVerdictsRoundTrip(t *testing.T) {
	s, verdicts, _ := sample(t)
	df, err := ReadVerdicts(bytes.NewReader(verdicts), s.Settings.Metrics...)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range append(slices.Clone(s.Settings.Metrics), computed...) {
		if typ := df.Col(n).Type(); typ != series.Float {
			t.Errorf("column %s has type %s, want float", n, typ)
		}
	}
	if typ := df.Col("answer").Type(); typ != series.String {
		t.Errorf("answer has type %s", typ)
	}
	var out bytes.Buffer
	if err := WriteCSV(&out, df); err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(records(t, verdicts), records(t, out.Bytes()), slices.Equal[[]string]) {
		t.Fatal("verdict records changed on the way through a DataFrame")
	}
}

func TestVerdictErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", "empty file"},
		{"no metric", "id,x\n1,2\n", `no column "exact_substring"`},
		{"not a number", "id,exact_substring\n1,yes\n", `line 2, column exact_substring: "yes" is not a number`},
		{"ragged", "id,exact_substring\n1\n", "wrong number of fields"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadVerdicts(strings.NewReader(c.in), "exact_substring")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

// TestSummarizeAgreesWithScore recomputes the per-domain figures from the
// verdict rows through gota and compares them with what pkg/qa reported:
// two independent computations of n, correct and accuracy.
func TestSummarizeAgreesWithScore(t *testing.T) {
	s, _, rows := sample(t)
	df, err := FromRows(rows)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Summarize(df, "Domain", s.Settings.Metrics...)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]results.Group{"combined": s.Combined}
	for _, g := range s.Groups {
		if g.By == "Domain" {
			want[g.Group] = g
		}
	}
	groups := sum.Col("group").Records()
	if len(groups) != len(want) || groups[len(groups)-1] != "combined" || !slices.IsSorted(groups[:len(groups)-1]) {
		t.Fatalf("groups %q", groups)
	}
	n, _ := sum.Col("n").Int()
	for i, name := range groups {
		g := want[name]
		if n[i] != g.N {
			t.Errorf("%s: n %d, want %d", name, n[i], g.N)
		}
		for _, id := range s.Settings.Metrics {
			c := sum.Col(id + "_correct").Float()[i]
			a := sum.Col(id + "_accuracy").Float()[i]
			if c != g.Metrics[id].Correct || a != g.Metrics[id].Accuracy {
				t.Errorf("%s %s: %v %v, want %v %v", name, id, c, a, g.Metrics[id].Correct, g.Metrics[id].Accuracy)
			}
		}
	}
	if _, err := Summarize(df, "nope", "exact_substring"); err == nil {
		t.Error("unknown group column: no error")
	}
	if _, err := Summarize(df, "Domain", "answer"); err == nil {
		t.Error("text metric column: no error")
	}
}

func TestGroups(t *testing.T) {
	s, _, _ := sample(t)
	df, err := Groups(s, "model / language")
	if err != nil {
		t.Fatal(err)
	}
	var want []results.Group
	for _, g := range s.Groups {
		if g.By == "model / language" {
			want = append(want, g)
		}
	}
	want = append(want, s.Combined)
	if df.Nrow() != len(want) {
		t.Fatalf("%d rows, want %d", df.Nrow(), len(want))
	}
	n, _ := df.Col("n").Int()
	for i, g := range want {
		if i < len(want)-1 && df.Col("group").Records()[i] != g.Group {
			t.Errorf("row %d group %q, want %q", i, df.Col("group").Records()[i], g.Group)
		}
		if n[i] != g.N {
			t.Errorf("row %d n %d, want %d", i, n[i], g.N)
		}
		for _, id := range s.Settings.Metrics {
			ms := g.Metrics[id]
			for col, v := range map[string]float64{"_correct": ms.Correct, "_accuracy": ms.Accuracy, "_ci_low": ms.CILow, "_ci_high": ms.CIHigh} {
				if got := df.Col(id + col).Float()[i]; got != v {
					t.Errorf("row %d %s%s = %v, want %v", i, id, col, got, v)
				}
			}
		}
	}
	var out bytes.Buffer
	if err := WriteCSV(&out, df); err != nil {
		t.Fatal(err)
	}
	// The combined row of the CSV keeps full precision.
	last := records(t, out.Bytes())[len(want)]
	if last[0] != "combined" || last[5] != strconv.FormatFloat(s.Combined.Metrics[s.Settings.Metrics[0]].Accuracy, 'g', -1, 64) {
		t.Errorf("combined CSV row %q", last)
	}
	if _, err := Groups(s, "nope"); err == nil {
		t.Error("unknown grouping: no error")
	}
}

// ReadResponses and ReadVerdicts hold the whole file, so they take at
// most tabular.MaxFile bytes (--max-file-mib); a larger input is an
// error naming the limit and the flag, where io.ReadAll took any size.
func TestReadFileLimit(t *testing.T) {
	saved := tabular.MaxFile
	t.Cleanup(func() { tabular.MaxFile = saved })
	tabular.MaxFile = 1 << 10
	in := "id,response\n" + strings.Repeat("1,answer\n", 200) // 1,812 bytes
	_, err := ReadResponses(strings.NewReader(in))
	if !errors.Is(err, tabular.ErrFileTooLarge) || !strings.Contains(err.Error(), "responses: file too large") || !strings.Contains(err.Error(), "--max-file-mib") {
		t.Fatalf("over the limit: %v", err)
	}
	tabular.MaxFile = 2 << 10
	if df, err := ReadResponses(strings.NewReader(in)); err != nil || df.Nrow() != 200 {
		t.Fatalf("under the limit: %v", err)
	}
}
