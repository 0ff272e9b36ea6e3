package qa

import (
	"context"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/score"
)

// lengthRatio is a toy corpus-level metric for the test: the corpus value
// is Σ min(|response|, |golden|) / Σ |golden| (in characters), which is
// not the mean of the per-row ratios.
type lengthRatio struct{}

func (lengthRatio) AppendStats(dst []float64, golden, response string) []float64 {
	g, r := utf8.RuneCountInString(golden), utf8.RuneCountInString(response)
	return append(dst, float64(min(g, r)), float64(g))
}

func (lengthRatio) Score(golden, response string) score.Verdict {
	st := lengthRatio{}.AppendStats(nil, golden, response)
	return score.Verdict{Value: ratioFinal(st)}
}

func ratioFinal(s []float64) float64 {
	if s[1] == 0 {
		return 0
	}
	return s[0] / s[1]
}

var corpusMetric = &score.Metric{
	ID: "test_length_ratio", Name: "test", Graded: true, Rule: "test only",
	New:    func() score.Scorer { return lengthRatio{} },
	Corpus: &score.CorpusDef{NStats: 2, New: func() score.CorpusStats { return lengthRatio{} }, Final: ratioFinal},
}

func TestCorpusLevelMetric(t *testing.T) {
	// Row 1: golden 10 chars, response 5 -> 0.5; row 2: golden 2, response 2 -> 1.
	// Mean of sentence values 0.75; corpus value (5+2)/(10+2) = 7/12.
	in := "question,answer,Domain,response\nq,abcdefghij,D,abcde\nq,ab,D,ab\n"
	for _, ci := range []string{"wilson", "bootstrap"} {
		res, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{Metrics: []*score.Metric{corpusMetric}, CI: ci, Resamples: 500})
		if err != nil {
			t.Fatal(err)
		}
		ms := res.Combined.Metrics["test_length_ratio"]
		if math.Abs(ms.Accuracy-7.0/12) > 1e-12 || math.Abs(ms.SentenceMean-0.75) > 1e-12 || ms.Level != "corpus" {
			t.Errorf("%s: corpus %v (want 7/12), sentence mean %v (want 0.75), level %q", ci, ms.Accuracy, ms.SentenceMean, ms.Level)
		}
		if ci == "bootstrap" && !(ms.CILow <= ms.Accuracy && ms.Accuracy <= ms.CIHigh && ms.CILow >= 0.5-1e-12 && ms.CIHigh <= 1) {
			// Every resample is a mix of the two rows, so values lie in [0.5, 1].
			t.Errorf("bootstrap interval [%v, %v] around %v", ms.CILow, ms.CIHigh, ms.Accuracy)
		}
	}
}
