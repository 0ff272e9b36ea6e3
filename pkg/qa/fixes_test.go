package qa

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/score"
)

// Audit 2026-11-30 items 5, 9 and 14: the JSONL reader and the column
// errors.

func TestJSONLEmpty(t *testing.T) {
	for _, in := range []string{"", "\n\n  \n"} {
		_, err := Score(context.Background(), strings.NewReader(in), "t.jsonl", Options{})
		if !errors.Is(err, ErrEmptyFile) {
			t.Fatalf("error %v is not ErrEmptyFile", err)
		}
		// JSONL has no header row; the message must say what is expected.
		if strings.Contains(err.Error(), "header row") || !strings.Contains(err.Error(), "one JSON object per line") {
			t.Errorf("empty JSONL: %q", err)
		}
	}
}

func TestJSONLRepairUTF8(t *testing.T) {
	in := `{"question": "q", "answer": "a` + "\xff" + `", "Domain": "D", "response": "a` + "\xff" + `"}` + "\n" +
		`{"question": "q", "answer": "b", "Domain": "D", "response": "c"}` + "\n" +
		`{"question": "q", "answer": "b", "Domain": "D", "response": "b` + "\xfe" + `"}` + "\n"
	_, err := Score(context.Background(), strings.NewReader(in), "t.jsonl", Options{})
	if !errors.Is(err, ErrInvalidUTF8) {
		t.Fatalf("without repair: error %v is not ErrInvalidUTF8", err)
	}
	var out bytes.Buffer
	res, err := Score(context.Background(), strings.NewReader(in), "t.jsonl", Options{RepairUTF8: true, Verdicts: &out})
	if err != nil {
		t.Fatal(err)
	}
	if res.Combined.N != 3 {
		t.Fatalf("n = %d, want 3", res.Combined.N)
	}
	var w *struct{ count, lines int }
	for _, x := range res.Warnings {
		if x.Code == "repaired_utf8" {
			w = &struct{ count, lines int }{x.Count, len(x.Lines)}
			if x.Count != 2 || x.Lines[0] != 1 || x.Lines[1] != 3 {
				t.Errorf("repaired_utf8 = %+v, want 2 rows on lines 1 and 3", x)
			}
		}
	}
	if w == nil {
		t.Fatalf("no repaired_utf8 warning in %+v", res.Warnings)
	}
	// Row 1: "a\uFFFD" in both: exact_substring passes; row 3: "b" in "b\uFFFD" passes.
	if got := res.Combined.Metrics["exact_substring"].Correct; got != 2 {
		t.Errorf("exact_substring correct = %v, want 2", got)
	}
	if !strings.Contains(out.String(), "a\uFFFD") {
		t.Errorf("verdicts do not carry the replacement character:\n%s", out.String())
	}
}

func TestJSONLNestedValues(t *testing.T) {
	in := `{"question": "q", "answer": "Delhi", "Domain": "Geo", "response": "Delhi", "ok": null, "extra": {"tokens": 12, "tags": ["a", "b"]}}` + "\n" +
		`{"question": "q", "extra": [1, {"x": null}], "answer": 1947, "Domain": "History", "response": "in 1947", "ok": true}` + "\n"
	t.Run("unused column", func(t *testing.T) {
		var out bytes.Buffer
		res, err := Score(context.Background(), strings.NewReader(in), "t.jsonl", Options{Verdicts: &out})
		if err != nil {
			t.Fatal(err)
		}
		if res.Combined.N != 2 || res.Combined.Metrics["exact_substring"].Correct != 2 {
			t.Errorf("n = %d, exact_substring correct = %v, want 2 and 2", res.Combined.N, res.Combined.Metrics["exact_substring"].Correct)
		}
		// The objects and arrays are kept as compact JSON text.
		for _, want := range []string{`"{""tokens"":12,""tags"":[""a"",""b""]}"`, `"[1,{""x"":null}]"`} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("verdicts lack %s:\n%s", want, out.String())
			}
		}
	})
	t.Run("grouped on", func(t *testing.T) {
		_, err := Score(context.Background(), strings.NewReader(in), "t.jsonl", Options{By: [][]string{{"extra"}}})
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 1 || pe.Field != "extra" || !strings.Contains(err.Error(), "object or array") {
			t.Errorf("grouping on an object column: %v", err)
		}
	})
	t.Run("scored column", func(t *testing.T) {
		in := in + `{"question": "q", "answer": ["x"], "Domain": "D", "response": "x", "extra": 1, "ok": false}` + "\n"
		_, err := Score(context.Background(), strings.NewReader(in), "t.jsonl", Options{})
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 3 || pe.Field != "answer" {
			t.Errorf("an array as the golden answer: %v", err)
		}
	})
}

func TestMissingColumns(t *testing.T) {
	cases := []struct {
		name, header string
		by           [][]string
		required     bool
		once         []string
	}{
		// Domain is both the domain column and the default grouping:
		// it is listed once.
		{"domain twice", "question,answer,response", nil, true, []string{`"Domain"`}},
		{"by column", "question,answer,Domain,response", [][]string{{"nosuch"}}, false, []string{`"nosuch" (a grouping column)`, `"Domain"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := c.header + "\n" + strings.Repeat("x,", strings.Count(c.header, ",")) + "x\n"
			_, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{By: c.by})
			if !errors.Is(err, ErrMissingColumn) {
				t.Fatalf("error %v is not ErrMissingColumn", err)
			}
			if errors.Is(err, ErrRequiredColumn) != c.required {
				t.Errorf("errors.Is(ErrRequiredColumn) = %v, want %v (%v)", !c.required, c.required, err)
			}
			for _, s := range c.once {
				if n := strings.Count(err.Error(), s); n != 1 {
					t.Errorf("%s appears %d times in %q, want once", s, n, err)
				}
			}
		})
	}
}

// Audit item 13: two rows whose graded values are all equal. Before, the
// normal interval collapsed to [1, 1] and [0, 0]; now it is the Wilson
// interval of the mean with n = 2 (stats.UnitMeanInterval), by hand with
// z² = 3.841459: at mean 1, lo = 2/(2 + z²) = 0.342380; at mean 0,
// hi = z²/(2 + z²) = 0.657620.
func TestGradedIntervalAllEqual(t *testing.T) {
	in := "question,answer,Domain,response\nq1,,D,\nq2,,D,\n"
	ms := metricsOf(t, "squad_f1", "rouge1")
	res, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{Metrics: ms})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id          string
		acc, lo, hi float64
	}{
		{"squad_f1", 1, 0.342380, 1},
		{"rouge1", 0, 0, 0.657620},
	} {
		s := res.Combined.Metrics[c.id]
		if s.Accuracy != c.acc || math.Abs(s.CILow-c.lo) > 5e-7 || math.Abs(s.CIHigh-c.hi) > 5e-7 {
			t.Errorf("%s = %v [%.6f, %.6f], want %v [%.6f, %.6f]", c.id, s.Accuracy, s.CILow, s.CIHigh, c.acc, c.lo, c.hi)
		}
	}
}

func metricsOf(t *testing.T, ids ...string) []*score.Metric {
	t.Helper()
	var ms []*score.Metric
	for _, id := range ids {
		m, err := score.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	return ms
}

// Audit item 15: the empty-golden warning names only the metrics run
// that score an empty golden answer correct, and counts agree in number.
func TestWarningMessages(t *testing.T) {
	cases := []struct {
		name    string
		metrics []string
		rows    string
		want    string
	}{
		{"chrf only", []string{"chrf"}, "q,,D,x\n",
			"1 row has an empty golden answer: check whether this question has no answer on purpose"},
		{"default metrics", nil, "q,,D,x\nq,,D,y\n",
			"2 rows have an empty golden answer: exact_substring and word_overlap score them correct (the empty string is in everything), so check whether these questions have no answer on purpose"},
		{"one passing metric", []string{"squad_f1", "exact_substring"}, "q,,D,x\n",
			"1 row has an empty golden answer: exact_substring scores it correct (the empty string is in everything), so check whether this question has no answer on purpose"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ms []*score.Metric
			if c.metrics != nil {
				ms = metricsOf(t, c.metrics...)
			}
			in := "question,answer,Domain,response\n" + c.rows + "q,a,D,a\n"
			res, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{Metrics: ms})
			if err != nil {
				t.Fatal(err)
			}
			var got string
			for _, w := range res.Warnings {
				if w.Code == "empty_golden" {
					got = w.Message
				}
			}
			if got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
	if got := WarningMessage("blank_response", 1, nil, nil); !strings.HasPrefix(got, "1 row has a blank response") || strings.Contains(got, "they") {
		t.Errorf("blank_response for one row: %q", got)
	}
}

// FuzzJSONLLoader: the JSONL reader never panics, fails only with a
// *ParseError, accepts only lines that encoding/json accepts as JSON,
// and with RepairUTF8 writes verdicts that are valid UTF-8 and never
// fails for invalid UTF-8.
func FuzzJSONLLoader(f *testing.F) {
	f.Add([]byte(`{"question": "q", "answer": "a", "Domain": "D", "response": "a"}`+"\n"), false)
	f.Add([]byte(`{"question": "q", "answer": 1947, "Domain": null, "response": true, "meta": {"k": [1, 2]}}`+"\n\n"), false)
	f.Add([]byte("\uFEFF"+`{"question": "q", "answer": "a`+"\xff"+`", "Domain": "D", "response": "a"}`+"\n"), true)
	f.Add([]byte(`{"question": "q", "answer": "a", "Domain": "D", "response": "a"}`+"\n"+`{"response": "b", "Domain": "D", "answer": ["b"], "question": "q"}`+"\n"), false)
	f.Add([]byte(`{"question": "q", "answer": "a", "Domain": "D", "response": "a"} {}`), true)
	f.Fuzz(func(t *testing.T, data []byte, repair bool) {
		var out bytes.Buffer
		res, err := Score(context.Background(), bytes.NewReader(data), "f.jsonl", Options{Verdicts: &out, Workers: 2, RepairUTF8: repair})
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error is not a *ParseError: %v", err)
			}
			if repair && errors.Is(err, ErrInvalidUTF8) {
				t.Fatalf("invalid UTF-8 error under RepairUTF8: %v", err)
			}
			return
		}
		objects := 0
		for i, line := range bytes.Split(data, []byte("\n")) {
			line = bytes.TrimSpace(line)
			if i == 0 {
				line = bytes.TrimPrefix(line, []byte("\uFEFF"))
			}
			if len(line) == 0 {
				continue
			}
			objects++
			if !json.Valid(bytes.ToValidUTF8(line, []byte("\uFFFD"))) {
				t.Fatalf("accepted line %d, which encoding/json rejects: %q", i+1, line)
			}
		}
		if res.Combined.N != objects {
			t.Fatalf("n = %d, the input has %d objects", res.Combined.N, objects)
		}
		if repair && !utf8.Valid(out.Bytes()) {
			t.Fatalf("verdicts are not valid UTF-8 under RepairUTF8")
		}
	})
}
