package score

import (
	"slices"

	"github.com/evalbook/evalbook/pkg/textnorm"
)

func init() {
	Register(&Metric{
		ID:     "char_f1",
		Name:   "Character F1",
		Graded: true,
		Rule: "F1 over the multisets of characters (Unicode code points after NFC, whitespace left out) of the golden " +
			"answer and the response: common = Σ_c min(count_g(c), count_r(c)), P = common / |r|, R = common / |g|, " +
			"F1 = 2PR/(P+R). Order is ignored; case-sensitive. It gives partial credit to inflected and misspelled " +
			"forms, in any script, with no tokeniser to get wrong.",
		FalsePositives: "Anagrams and unrelated words made of the same letters score high; a long response contains most " +
			"characters of a short answer (recall is then high, precision low).",
		FalseNegatives: "A transliteration or a translation shares no characters.",
		Blank:          "Both sides without a non-space character score 1; exactly one such side scores 0.",
		Source:         "evalbook: SQuAD-style F1 (compute_f1) over characters instead of words",
		New:            func() Scorer { return &charF1Scorer{} },
	})
}

// CharF1 returns the F1 of the character multisets of golden and response:
// the code points after NFC, without whitespace,
//
//	common = Σ_c min(count_golden(c), count_response(c))
//	P = common / |response|,  R = common / |golden|,  F1 = 2PR / (P + R)
//
// It is 1 when both are empty (or only whitespace) and 0 when one is.
func CharF1(golden, response string) PRF {
	var s charF1Scorer
	return s.score(golden, response)
}

type charF1Scorer struct{ g, r []rune }

func (s *charF1Scorer) Score(golden, response string) Verdict {
	return Verdict{Value: s.score(golden, response).F}
}

func (s *charF1Scorer) score(golden, response string) PRF {
	s.g = appendChars(s.g[:0], textnorm.UnifyNukta(golden), false)
	s.r = appendChars(s.r[:0], textnorm.UnifyNukta(response), false)
	switch {
	case len(s.g) == 0 && len(s.r) == 0:
		return PRF{1, 1, 1}
	case len(s.g) == 0 || len(s.r) == 0:
		return PRF{}
	}
	slices.Sort(s.g)
	slices.Sort(s.r)
	common := 0
	for i, j := 0, 0; i < len(s.g) && j < len(s.r); {
		switch {
		case s.g[i] == s.r[j]:
			common++
			i++
			j++
		case s.g[i] < s.r[j]:
			i++
		default:
			j++
		}
	}
	return prf(float64(common)/float64(len(s.r)), float64(common)/float64(len(s.g)))
}
