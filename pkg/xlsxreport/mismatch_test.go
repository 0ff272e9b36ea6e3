package xlsxreport

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

// The second user audit (items 1 and 2): Write filled the Verdicts and
// Disagreements sheets from another run's verdict file. Now the rows it
// streams are checked against the result at the end of the file.
func TestWriteRefusesOtherVerdicts(t *testing.T) {
	s, own := sample(t)
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
	// The audit's tampering: exact_substring 1 → 0 on one row both
	// metrics pass and 0 → 1 on one row neither passes keeps every pass
	// count; the sample's buckets (both 164, neither 77) become 163 and 76.
	recs := csvRecords(t, own)
	es, wo := slices.Index(recs[0], "exact_substring"), slices.Index(recs[0], "word_overlap")
	swapped := 0
	for _, r := range recs[1:] {
		switch {
		case swapped&1 == 0 && r[es] == "1" && r[wo] == "1":
			r[es] = "0"
			swapped |= 1
		case swapped&2 == 0 && r[es] == "0" && r[wo] == "0":
			r[es] = "1"
			swapped |= 2
		}
	}
	if swapped != 3 {
		t.Fatal("no both and neither rows to swap in the sample")
	}
	var tampered bytes.Buffer
	cw := csv.NewWriter(&tampered)
	cw.WriteAll(recs)
	for _, c := range []struct{ name, verdicts, want string }{
		{"another normalisation's verdicts", other.String(), "exact_substring passes"},
		{"buckets tampered", tampered.String(), "exact_substring and word_overlap: 163 rows are passed by both in the verdict file, the result says 164"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Write(&bytes.Buffer{}, s, Options{Verdicts: strings.NewReader(c.verdicts), VerdictsName: "v.csv"})
			var m *results.VerdictMismatch
			if !errors.As(err, &m) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v (%T), want a VerdictMismatch containing %q", err, err, c.want)
			}
		})
	}
	if _, err := Write(&bytes.Buffer{}, s, Options{Verdicts: bytes.NewReader(own), VerdictsName: "v.csv"}); err != nil {
		t.Errorf("refused its own verdicts: %v", err)
	}
}
