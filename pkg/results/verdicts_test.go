package results

import (
	"io"
	"slices"
	"strings"
	"testing"
)

func verdictScore() *Score {
	return &Score{
		Settings: Settings{Metrics: []string{"exact_substring", "word_overlap", "squad_f1"}},
		Metrics:  []MetricDef{{ID: "exact_substring"}, {ID: "word_overlap"}, {ID: "squad_f1", Graded: true}},
	}
}

func TestVerdictReader(t *testing.T) {
	// An input column that shares a metric's name comes first; the
	// scorer's own column is the last of that name.
	in := "\xEF\xBB\xBFid,word_overlap,response,exact_substring,word_overlap,squad_f1,matching_words,total_golden_words,blank_response,empty_golden\n" +
		"a,x,\"two\nlines\",1,0,0.5,1,2,0,0\n" +
		"b,y,ok,1,1,1,2,2,0,0\n" +
		"c,z,,0,0,0,0,1,1,0\n"
	v, err := NewVerdictReader(strings.NewReader(in), "v.csv", verdictScore())
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{3, 4, 5}; !slices.Equal(v.MetricCol, want) {
		t.Errorf("MetricCol %v, want %v", v.MetricCol, want)
	}
	if want := []bool{false, false, false, true, true, true, true, true, true, true}; !slices.Equal(v.Numeric, want) {
		t.Errorf("Numeric %v, want %v", v.Numeric, want)
	}
	if !slices.Equal(v.Graded, []bool{false, false, true}) || v.Binary() != 2 {
		t.Errorf("Graded %v, Binary %d", v.Graded, v.Binary())
	}
	// Row a: exact 1, overlap 0 (disagree; the graded squad_f1 is left
	// out); b: both 1; c: both 0.
	for _, want := range []struct {
		line     int
		disagree bool
	}{{2, true}, {4, false}, {5, false}} {
		rec, err := v.Read()
		if err != nil {
			t.Fatal(err)
		}
		if v.Line() != want.line || v.Disagree(rec) != want.disagree {
			t.Errorf("row %q: line %d, disagree %v; want %d, %v", rec[0], v.Line(), v.Disagree(rec), want.line, want.disagree)
		}
	}
	if _, err := v.Read(); err != io.EOF {
		t.Errorf("after the last row: %v, want io.EOF", err)
	}
	if v.Rows() != 3 {
		t.Errorf("Rows %d, want 3", v.Rows())
	}
}

func TestVerdictReaderErrors(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", "v.csv: empty verdict file"},
		{"missing metric", "id,exact_substring,word_overlap\n", `v.csv: no column "squad_f1"`},
		{"quote", "id,exact_substring,word_overlap,squad_f1\n\"a,1,1,1\n", "v.csv: "},
		{"ragged", "id,exact_substring,word_overlap,squad_f1\na,1\n", "v.csv:2: 2 fields, the header has 4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := NewVerdictReader(strings.NewReader(c.in), "v.csv", verdictScore())
			if err == nil {
				_, err = v.Read()
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

func TestNumber(t *testing.T) {
	for in, ok := range map[string]bool{"1": true, "0.25": true, "-3": true, "1e3": true, "": false, "NaN": false, "Inf": false, "yes": false, "1e400": false} {
		if _, got := Number(in); got != ok {
			t.Errorf("Number(%q) ok = %v, want %v", in, got, ok)
		}
	}
}

func TestAgreementWords(t *testing.T) {
	a := Agreement{First: "exact_substring", Second: "word_overlap", Both: 164, Neither: 77, OnlyFirst: 23, OnlySecond: 20}
	// The sample's buckets (score --json on datasets/responses.csv): 284 rows.
	if a.Total() != 284 || a.Count("only_first") != 23 || a.Count("nope") != 0 {
		t.Errorf("Total %d, Count(only_first) %d", a.Total(), a.Count("only_first"))
	}
	if m := a.Meaning("only_second"); !strings.HasPrefix(m, "only word_overlap passes: golden words present") {
		t.Errorf("Meaning(only_second) = %q", m)
	}
	if m := a.Meaning("both"); m != Buckets[0].Meaning {
		t.Errorf("Meaning(both) = %q", m)
	}
}
