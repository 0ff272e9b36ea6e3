package htmlreport

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

// The second user audit (item 1): Write showed another run's verdict
// rows beside this run's figures ("disagree on 43", then "All 35
// disagreement rows"). Now what it streams is checked against the result.
func TestWriteRefusesOtherVerdicts(t *testing.T) {
	s, own := sample(t)
	// The sample's exact_substring / word_overlap buckets (score --json on
	// datasets/responses.csv): both 164, neither 77, only_first 23,
	// only_second 20, so 43 disagreement rows.
	if a := s.Agreement[0]; a.OnlyFirst != 23 || a.OnlySecond != 20 {
		t.Fatalf("sample buckets %+v, want only_first 23, only_second 20", a)
	}
	indic, err := textnorm.ParseProfile("indic")
	if err != nil {
		t.Fatal(err)
	}
	var other bytes.Buffer
	if _, err := qa.Score(context.Background(), bytes.NewReader(datasets.Responses), datasets.ResponsesName, qa.Options{
		By: [][]string{{"Domain"}, {"model", "language"}}, Verdicts: &other, Profile: indic,
	}); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(own), "\n")
	var onlyFirst string
	for _, l := range lines[1:] {
		if strings.Contains(l, ",1,0,") { // exact_substring 1, word_overlap 0
			onlyFirst = l
			break
		}
	}
	if onlyFirst == "" {
		t.Fatal("no only_first row in the sample's verdicts")
	}
	cases := []struct {
		name     string
		verdicts string
		maxRows  int
		want     string
	}{
		{"own verdicts", string(own), 0, ""},
		{"another normalisation's verdicts", other.String(), 0, "exact_substring passes"},
		{"a row short", strings.Join(lines[:len(lines)-2], ""), 0, "the verdict file has 283 rows, the result has 284"},
		// Stopping early: 43 copies of one only_first row end the search
		// for the 43 disagreement rows, but the result has 23 such rows.
		{"stopped early", lines[0] + strings.Repeat(onlyFirst, 43) + strings.Join(lines[1:], ""), 43,
			"exact_substring and word_overlap: 43 rows are passed by exact_substring only in the verdict file so far, the result says 23"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			err := Write(&out, s, Options{Verdicts: strings.NewReader(c.verdicts), VerdictsName: "v.csv", MaxRows: c.maxRows})
			if c.want == "" {
				if err != nil {
					t.Errorf("refused its own verdicts: %v", err)
				}
				return
			}
			var m *results.VerdictMismatch
			if !errors.As(err, &m) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "v.csv: ") {
				t.Errorf("error %v (%T), want a VerdictMismatch naming v.csv and containing %q", err, err, c.want)
			}
		})
	}
}
