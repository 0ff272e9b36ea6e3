package results

import (
	"encoding/csv"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestVerdictReaderRows reads the rows of TestVerdictReader's file as
// values: an input column named like a metric stays a field, the
// scorer's columns become values, counts and flags.
func TestVerdictReaderRows(t *testing.T) {
	in := "id,word_overlap,response,exact_substring,word_overlap,squad_f1,matching_words,total_golden_words,blank_response,empty_golden\n" +
		"a,x,\"two\nlines\",1,0,0.5,1,2,0,0\n" +
		"c,z,,0,0,0,0,1,1,1\n"
	s := verdictScore()
	s.Combined = Group{N: 2, Metrics: map[string]MetricScore{
		"exact_substring": {Correct: 1}, "word_overlap": {Correct: 0}, "squad_f1": {Correct: 0.5},
	}}
	v, err := NewVerdictReader(strings.NewReader(in), "v.csv", s)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(in)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	sc := v.Schema()
	if !slices.Equal(sc.Columns, []string{"id", "word_overlap", "response"}) || !sc.Words || !sc.Flags || len(sc.Extra) != 0 {
		t.Fatalf("schema %+v", sc)
	}
	want := []Row{
		{Line: 2, Fields: []string{"a", "x", "two\nlines"}, Values: []float64{1, 0, 0.5}, Matching: 1, TotalGolden: 2},
		{Line: 4, Fields: []string{"c", "z", ""}, Values: []float64{0, 0, 0}, TotalGolden: 1, Blank: true, EmptyGolden: true},
	}
	i := 0
	for r, err := range v.All() {
		if err != nil {
			t.Fatal(err)
		}
		w := want[i]
		if r.Line != w.Line || !slices.Equal(r.Fields, w.Fields) || !slices.Equal(r.Values, w.Values) || r.Matching != w.Matching ||
			r.TotalGolden != w.TotalGolden || r.Blank != w.Blank || r.EmptyGolden != w.EmptyGolden || r.Groups != nil {
			t.Errorf("row %d = %+v, want %+v", i, *r, w)
		}
		// The cells of the row are the file's record.
		if got := sc.AppendCells(nil, r); !slices.Equal(got, recs[i+1]) {
			t.Errorf("row %d: cells %q, record %q", i, got, recs[i+1])
		}
		i++
	}
	if i != 2 {
		t.Errorf("%d rows", i)
	}
}

// TestVerdictReaderJudgeRows: a judge's verdict file has no counts or
// flags, an empty llm_judge cell (an invalid reply: NaN, no verdict)
// and a reason column after the metrics (Extra); its cells come back as
// the file has them.
func TestVerdictReaderJudgeRows(t *testing.T) {
	head := "question,answer,Domain,response,exact_substring,word_overlap,llm_judge,llm_judge_reason"
	lines := []string{"q1,Paris,geo,Paris,1,1,1,matches", "q2,Delhi,geo,Mumbai,0,0,,invalid reply: no JSON"}
	s := &Score{
		Settings: Settings{Metrics: []string{"exact_substring", "word_overlap", "llm_judge"}},
		Metrics:  []MetricDef{{ID: "exact_substring"}, {ID: "word_overlap"}, {ID: "llm_judge"}},
		Combined: Group{N: 2, Metrics: map[string]MetricScore{"exact_substring": {Correct: 1}, "word_overlap": {Correct: 1}, "llm_judge": {Correct: 1}}},
	}
	v, err := NewVerdictReader(strings.NewReader(head+"\n"+strings.Join(lines, "\n")+"\n"), "j.csv", s)
	if err != nil {
		t.Fatal(err)
	}
	sc := v.Schema()
	if sc.Words || sc.Flags || !slices.Equal(sc.Extra, []string{"llm_judge_reason"}) || sc.Binary() != 3 {
		t.Fatalf("schema: words %v flags %v extra %q binary %d", sc.Words, sc.Flags, sc.Extra, sc.Binary())
	}
	i := 0
	for r, err := range v.All() {
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(sc.AppendCells(nil, r), ","); got != lines[i] {
			t.Errorf("row %d cells %q, want %q", i, got, lines[i])
		}
		if i == 1 && (!math.IsNaN(r.Values[2]) || r.Extra[0] != "invalid reply: no JSON" || sc.Disagree(r)) {
			t.Errorf("row 2: values %v extra %q disagree %v", r.Values, r.Extra, sc.Disagree(r))
		}
		i++
	}
	if i != 2 {
		t.Errorf("%d rows", i)
	}
}

func TestVerdictReaderRowErrors(t *testing.T) {
	head := "id,exact_substring,word_overlap,squad_f1,matching_words,total_golden_words,blank_response,empty_golden\n"
	for _, c := range []struct{ name, row, want string }{
		{"binary", "a,yes,0,0,0,1,0,0", `v.csv:2: exact_substring is "yes", not a number`},
		{"count", "a,1,0,0,one,1,0,0", `v.csv:2: matching_words is "one", not a whole number`},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := NewVerdictReader(strings.NewReader(head+c.row+"\n"), "v.csv", verdictScore())
			if err != nil {
				t.Fatal(err)
			}
			_, err = v.ReadRow()
			if err == nil || err.Error() != c.want {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

func TestRowSchemaAndClone(t *testing.T) {
	s := NewRowSchema([]string{"q", "a"}, []string{"exact_match", "squad_f1"}, []bool{false, true}, false, []string{"Domain"})
	if got := strings.Join(s.Header, ","); got != "q,a,exact_match,squad_f1,blank_response,empty_golden" {
		t.Errorf("header %s", got)
	}
	if !slices.Equal(s.Numeric, []bool{false, false, true, true, true, true}) || !slices.Equal(s.MetricCol, []int{2, 3}) {
		t.Errorf("numeric %v metric columns %v", s.Numeric, s.MetricCol)
	}
	r := &Row{Schema: s, Line: 7, Fields: []string{"x", "y"}, Values: []float64{1, 1.0 / 3}, Blank: true, Groups: []string{"geo"}}
	if got := strings.Join(s.AppendCells(nil, r), ","); got != "x,y,1,0.3333333333333333,1,0" {
		t.Errorf("cells %s", got)
	}
	if x, ok := s.Number(r, 3); !ok || x != 1.0/3 {
		t.Errorf("Number %v %v", x, ok)
	}
	if _, ok := s.Number(r, 0); ok {
		t.Error("Number of a text column")
	}
	c := r.Clone()
	r.Fields[0], r.Values[0], r.Groups[0] = "changed", 0, "changed"
	if c.Fields[0] != "x" || c.Values[0] != 1 || c.Groups[0] != "geo" || c.Line != 7 || c.Schema != s {
		t.Errorf("clone shares memory: %+v", c)
	}
	for _, f := range []struct {
		v      float64
		graded bool
		want   string
	}{{1, false, "1"}, {0, false, "0"}, {0.5, false, "0"}, {0.25, true, "0.25"}, {1, true, "1"}, {math.NaN(), true, ""}, {math.NaN(), false, ""}} {
		if got := FormatValue(f.v, f.graded); got != f.want {
			t.Errorf("FormatValue(%v, %v) = %q, want %q", f.v, f.graded, got, f.want)
		}
	}
}
