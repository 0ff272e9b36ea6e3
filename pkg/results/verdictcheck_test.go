package results

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckVerdicts(t *testing.T) {
	// Three rows; by hand: exact_substring passes 2 (rows a, b),
	// word_overlap 1 (row b), squad_f1 sums to 0.5 + 1 + 0 = 1.5.
	head := "id,response,exact_substring,word_overlap,squad_f1,matching_words,total_golden_words,blank_response,empty_golden\n"
	rows := "a,x,1,0,0.5,1,2,0,0\nb,y,1,1,1,2,2,0,0\nc,,0,0,0,0,1,1,0\n"
	s := verdictScore()
	s.Combined = Group{N: 3, Metrics: map[string]MetricScore{
		"exact_substring": {Correct: 2}, "word_overlap": {Correct: 1}, "squad_f1": {Correct: 1.5},
	}}
	// Row a passes exact_substring only, b both, c neither.
	s.Agreement = []Agreement{{First: "exact_substring", Second: "word_overlap", Both: 1, Neither: 1, OnlyFirst: 1}}
	isMetric := func(id string) bool {
		return id == "exact_substring" || id == "word_overlap" || id == "squad_f1" || id == "chrf"
	}
	cases := []struct {
		name, in, want string
	}{
		{"own file", head + rows, ""},
		{"a pass count differs", head + strings.Replace(rows, "c,,0,0,0", "c,,1,0,0", 1), "exact_substring passes 3 rows in the verdict file, the result says 2"},
		// The audit's tampering: exact_substring 1 → 0 on the row both pass
		// (b) and 0 → 1 on the row neither passes (c): the pass counts stay,
		// the buckets do not.
		{"buckets differ", head + strings.Replace(strings.Replace(rows, "b,y,1", "b,y,0", 1), "c,,0", "c,,1", 1),
			"exact_substring and word_overlap: 0 rows are passed by both in the verdict file, the result says 1"},
		{"a graded sum differs", head + strings.Replace(rows, "0.5", "0.25", 1), "squad_f1 sums to 1.25 over the verdict file's rows, the result says 1.5"},
		{"a row more", head + rows + "d,z,0,0,0,0,1,0,0\n", "the verdict file has 4 rows, the result has 3"},
		{"a metric missing", strings.Replace(head, "squad_f1", "rouge1", 1) + rows, `no column "squad_f1"`},
		{"metrics in another order", strings.Replace(head, "exact_substring,word_overlap", "word_overlap,exact_substring", 1) + rows, "not exact_substring, word_overlap, squad_f1 in that order"},
		{"an extra metric", strings.Replace(head, "squad_f1,", "squad_f1,chrf,", 1) +
			"a,x,1,0,0.5,0,1,2,0,0\nb,y,1,1,1,0,2,2,0,0\nc,,0,0,0,0,0,1,1,0\n",
			`a column for metric "chrf", which the result does not score`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := CheckVerdicts(strings.NewReader(c.in), "v.csv", s, isMetric)
			if c.want == "" {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			var m *VerdictMismatch
			if !errors.As(err, &m) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v (%T), want a VerdictMismatch containing %q", err, err, c.want)
			}
		})
	}
}
