package qa

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
)

// Second user audit (2026-11-30) items 3, 6, 7, 11, 12 and 20.

const twoRows = "question,answer,Domain,response\nq,a,D,a\nq,b,D,c\n"

// TestOptionsChecked: Metrics and By are checked before anything is read.
func TestOptionsChecked(t *testing.T) {
	es := metricsOf(t, "exact_substring")[0]
	cases := []struct {
		name string
		opt  Options
		want string
	}{
		{"metric twice", Options{Metrics: []*score.Metric{es, es}}, `lists "exact_substring" twice`},
		{"nil metric", Options{Metrics: []*score.Metric{nil}}, "Options.Metrics[0] is nil"},
		{"no metric", Options{Metrics: []*score.Metric{}}, "no metrics to score"},
		{"empty grouping", Options{By: [][]string{{}}}, "Options.By[0] is an empty grouping"},
		{"empty column name", Options{By: [][]string{{""}}}, "Options.By[0] has an empty column name"},
		{"grouping twice", Options{By: [][]string{{"Domain"}, {"Domain"}}}, "lists the grouping Domain twice"},
		{"column twice in a grouping", Options{By: [][]string{{"Domain", "Domain"}}}, `names column "Domain" twice`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Score(context.Background(), strings.NewReader(twoRows), "t.csv", c.opt)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v (result %v), want one containing %q", err, res != nil, c.want)
			}
			// An option error is not the input file's fault.
			var pe *ParseError
			if errors.As(err, &pe) || strings.Contains(err.Error(), "t.csv") {
				t.Errorf("error %q blames the input file", err)
			}
		})
	}
	// No groups at all is still allowed.
	res, err := Score(context.Background(), strings.NewReader(twoRows), "t.csv", Options{By: [][]string{}})
	if err != nil || len(res.Groups) != 0 {
		t.Errorf("By [][]string{}: %v, %d groups; want only the combined figures", err, len(res.Groups))
	}
}

// TestGradedIntervalNearlyEqual: four rows whose squad_f1 is 0.667,
// 0.667, 0.667 and 0.75 (golden "a b c", responses scoring 2/3 and one
// scoring 3/4) keep their figure, 68.8% [64.7, 72.8] as the audit
// printed it, but warn that it rests on few rows and a near-zero
// variance. By hand: m = (3·2/3 + 0.75)/4 = 0.6875; s² = (3·(2/3 −
// 0.6875)² + (0.75 − 0.6875)²)/3 = (0.0013021 + 0.0039063)/3 = 0.0017361,
// below 0.01·m(1 − m) = 0.0021484; z·s/√4 = 1.959964·0.020833 = 0.040833,
// so [0.646667, 0.728333]. No warning names a flag.
func TestGradedIntervalNearlyEqual(t *testing.T) {
	// Golden "x y z", response "x y w": precision 2/3, recall 2/3, F1
	// 2/3. Golden "x y z v", response "x y z u": F1 3/4. (Not "a": SQuAD
	// normalisation drops articles.)
	in := "question,answer,Domain,response\n" +
		"q,x y z,D,x y w\nq,x y z,D,x y u\nq,x y z,D,x y t\nq,x y z v,D,x y z u\n"
	res, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{Metrics: metricsOf(t, "squad_f1")})
	if err != nil {
		t.Fatal(err)
	}
	ms := res.Combined.Metrics["squad_f1"]
	if got := fmt.Sprintf("%.1f [%.1f, %.1f]", 100*ms.Accuracy, 100*ms.CILow, 100*ms.CIHigh); got != "68.8 [64.7, 72.8]" {
		t.Errorf("squad_f1 %s, want 68.8 [64.7, 72.8] (unchanged)", got)
	}
	// The warnings are stats.UnitMeanInterval's for the same sums, with
	// their codes, passed on word for word after the metric id.
	sum, sumsq := 3*(2.0/3)+0.75, 3*(4.0/9)+0.5625
	want := results.FromStats("squad_f1", stats.UnitMeanInterval(sum, sumsq, 4, 0.95).Warnings)
	for i := range want {
		want[i].Count = 2 // the combined interval and group D's
	}
	var got []results.Warning
	for _, w := range res.Warnings {
		if w.Code == stats.CodeFewValues || w.Code == stats.CodeNearZeroVariance {
			got = append(got, w)
		}
	}
	if len(want) != 2 || !reflect.DeepEqual(got, want) {
		t.Errorf("interval warnings %+v, want %+v (few_values and near_zero_variance)", got, want)
	}
	for _, w := range res.Warnings {
		if strings.Contains(w.Message, "--") {
			t.Errorf("warning %q names a command flag", w.Message)
		}
	}
}

// TestWarningsNameNoFlags: the corpus-level and NFC warnings name no
// command flag (a library cannot know its caller's flags).
func TestWarningsNameNoFlags(t *testing.T) {
	in := "question,answer,Domain,response\nq,cafe\u0301,D,x\nq,b,D,b\n"
	res, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{Metrics: metricsOf(t, "exact_substring", "chrf")})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, w := range res.Warnings {
		codes = append(codes, w.Code)
		if strings.Contains(w.Message, "--") {
			t.Errorf("warning %q names a command flag", w.Message)
		}
	}
	if got := strings.Join(codes, ","); got != CodeNotNFC+","+CodeNoInterval {
		t.Errorf("warning codes %s, want not_nfc,no_interval", got)
	}
}

// TestAdvice: Options.Advice replaces, by code, the advice that closes
// the warnings pkg/qa words, and leaves the rest of the sentence and the
// other warnings as they were.
func TestAdvice(t *testing.T) {
	in := "question,answer,Domain,response\nq,cafe\u0301,D,x\nq,b,D,b\n"
	opt := Options{Metrics: metricsOf(t, "exact_substring", "chrf")}
	plain, err := Score(context.Background(), strings.NewReader(in), "t.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Advice = map[string]string{CodeNotNFC: "run the NFC step", CodeNoInterval: "use the bootstrap"}
	advised, err := Score(context.Background(), strings.NewReader(in), "t.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		CodeNotNFC: {"1 row contains text not in Unicode NFC: the same Indic word in NFC and NFD compares unequal; consider normalising both sides to NFC (the nfc or indic profile)",
			"1 row contains text not in Unicode NFC: the same Indic word in NFC and NFD compares unequal; run the NFC step"},
		CodeNoInterval: {"chrf: a corpus-level metric has no Wilson interval; ask for a bootstrap interval",
			"chrf: a corpus-level metric has no Wilson interval; use the bootstrap"},
	}
	if len(plain.Warnings) != len(want) || len(advised.Warnings) != len(want) {
		t.Fatalf("warnings %+v and %+v, want %d each", plain.Warnings, advised.Warnings, len(want))
	}
	for i, w := range plain.Warnings {
		a := advised.Warnings[i]
		if w.Message != want[w.Code][0] || a.Code != w.Code || a.Message != want[w.Code][1] || a.Count != w.Count {
			t.Errorf("warning %d: %+v, advised %+v; want %q and %q", i, w, a, want[w.Code][0], want[w.Code][1])
		}
	}
}

// TestParseErrorPlaces: Column is the character column of the problem
// (counted by hand in each input), Field the column concerned.
func TestParseErrorPlaces(t *testing.T) {
	hdr := "question,answer,Domain,response\n"
	cases := []struct {
		name, file, in string
		open           bool // read through Open (encoding/csv) rather than Score
		line, col      int
		field          string
	}{
		// "q,a" precedes the bad byte: column 4.
		{"csv answer", "t.csv", hdr + "q,a\xff,D,r\n", false, 2, 4, "answer"},
		// "কখ,a" is 4 characters (7 bytes): column 5.
		{"csv after Bengali", "t.csv", hdr + "কখ,a\xff,D,r\n", false, 2, 5, "answer"},
		// A quoted field over two lines: "y" then the bad byte, line 3 column 2.
		{"csv second line of a field", "t.csv", hdr + "q,\"x\ny\xff\",D,r\n", false, 3, 2, "answer"},
		{"csv header", "t.csv", "quest\xffion,answer,Domain,response\nq,a,D,r\n", false, 1, 6, ""},
		{"Open csv after Bengali", "t.csv", hdr + "কখ,a\xff,D,r\n", true, 2, 5, "answer"},
		// `"ক","a` is 6 characters, quotes included (an editor shows
		// them): the bad byte is the 7th. (Before pkg/tabular this was
		// 6: the quotes of the earlier field were not counted.)
		{"Open csv quoted", "t.csv", hdr + "\"ক\",\"a\xff\",D,r\n", true, 2, 7, "answer"},
		// `{"question": "q", "answer": "a` is 30 characters: the bad byte is the 31st.
		{"jsonl bad byte", "t.jsonl", `{"question": "q", "answer": "a` + "\xff" + `", "Domain": "D", "response": "r"}` + "\n", false, 1, 31, "answer"},
		// A syntax error: the stray x is the 29th character, in the value of "answer".
		{"jsonl syntax", "t.jsonl", `{"question": "q", "answer": x}` + "\n", false, 1, 29, "answer"},
		{"missing column", "t.csv", "question,answer,domain,response\nq,a,d,r\n", false, 1, 0, "Domain"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			if c.open {
				var src RowSource
				src, err = Open(strings.NewReader(c.in), c.file, "")
				if err == nil {
					if _, err = src.Header(); err == nil {
						_, _, err = src.Next()
					}
				}
			} else {
				_, err = Score(context.Background(), strings.NewReader(c.in), c.file, Options{})
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T) is not a *ParseError", err, err)
			}
			if pe.Line != c.line || pe.Column != c.col || pe.Field != c.field {
				t.Errorf("line %d column %d field %q, want %d, %d, %q (%v)", pe.Line, pe.Column, pe.Field, c.line, c.col, c.field, err)
			}
			if strings.Count(err.Error(), `"`+c.field+`"`) > 1 && c.field != "" {
				t.Errorf("%q names the column twice", err)
			}
		})
	}
}

// TestEmptyFileNamesRenamedColumns: the empty-file error names the
// columns the caller asked for, and is still ErrEmptyFile.
func TestEmptyFileNamesRenamedColumns(t *testing.T) {
	cols := DefaultColumns
	cols.Question, cols.Response = "prompt", "output"
	for _, name := range []string{"t.csv", "t.jsonl"} {
		_, err := Score(context.Background(), strings.NewReader(""), name, Options{Columns: cols})
		if !errors.Is(err, ErrEmptyFile) {
			t.Fatalf("%s: error %v is not ErrEmptyFile", name, err)
		}
		if !strings.Contains(err.Error(), "prompt, answer, Domain, output") || strings.Contains(err.Error(), "question") {
			t.Errorf("%s: %q, want the renamed columns prompt, answer, Domain, output", name, err)
		}
	}
}

// TestXLSXWithoutReader: .xlsx with no reader registered says which
// package to import (pkg/qa's tests do not import pkg/xlsxread).
func TestXLSXWithoutReader(t *testing.T) {
	if _, ok := formats["xlsx"]; ok {
		t.Skip("an xlsx reader is registered")
	}
	_, err := Score(context.Background(), strings.NewReader("PK"), "run.xlsx", Options{})
	if err == nil || !strings.Contains(err.Error(), `unknown input format "xlsx"`) || !strings.Contains(err.Error(), "import github.com/evalbook/evalbook/pkg/xlsxread") {
		t.Errorf("error %v, want the unknown format naming pkg/xlsxread", err)
	}
	if _, err := Open(strings.NewReader("PK"), "run.xlsx", ""); err == nil || !strings.Contains(err.Error(), "pkg/xlsxread") {
		t.Errorf("Open: error %v, want one naming pkg/xlsxread", err)
	}
}
