package score

import (
	"bytes"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/textnorm"
)

func init() {
	Register(&Metric{
		ID:   "exact_substring",
		Name: "Exact substring",
		Rule: "Correct when the lower-cased golden answer occurs as one contiguous run of characters " +
			"inside the lower-cased response (Python: answer.lower() in response.lower()). " +
			"Lower-casing is the only normalisation: no trimming, no punctuation handling, no word boundaries.",
		FalsePositives: "A short golden answer matches inside an unrelated word (\"No\" in \"no such temple\"), " +
			"and a response that names the answer only to reject it (\"Delhi is not the answer\") still scores correct.",
		FalseNegatives: "Reordered words, an inserted qualifier (\"Narmada river valley\"), trailing whitespace in the " +
			"golden answer, and NFC/NFD spellings of the same Indic word all score wrong.",
		Blank:  "A blank response (empty after trimming) scores 0 and is counted separately. An empty golden answer scores 1 (the empty string is in everything) and is warned about.",
		Source: "seed 000 exact_substring.py",
		New:    func() Scorer { return &substringScorer{} },
	})
	Register(&Metric{
		ID:   "word_overlap",
		Name: "Word overlap",
		Rule: "Both sides are lower-cased, split on whitespace (Python str.split), and each token is stripped of " +
			"leading and trailing ASCII punctuation (Python string.punctuation); correct when the set of golden " +
			"words is a subset of the set of response words. matching_words counts the distinct golden words found, " +
			"total_golden_words the distinct golden words. A token made only of ASCII punctuation (\"-\") becomes an " +
			"empty word, exactly as in the Python one-liner, and only a response with such a token contains it.",
		FalsePositives: "Extra words are free, so a verbose or different claim that happens to contain every golden word " +
			"passes (\"Chola and Hoysala ideals\" for \"Chola ideals\"); repetition is never checked.",
		FalseNegatives: "Whole tokens only, no stemming: inflections (\"Amalaka\" for \"amalak\") and Indic suffixes fail; " +
			"the danda and other non-ASCII punctuation stay attached to words unless --normalize indic.",
		Blank:  "A blank response scores 0 (matching 0) and is counted separately. An empty golden answer scores 1 (the empty set is a subset of everything) and is warned about.",
		Source: "seed 000 word_overlap.py",
		New:    func() Scorer { return &overlapScorer{} },
	})
}

type substringScorer struct{ g, r []byte }

func (s *substringScorer) Score(golden, response string) Verdict {
	if textnorm.IsBlank(response) {
		return Verdict{}
	}
	s.g = textnorm.AppendLower(s.g[:0], golden)
	s.r = textnorm.AppendLower(s.r[:0], response)
	if bytes.Contains(s.r, s.g) {
		return Verdict{Value: 1}
	}
	return Verdict{}
}

// span is a token's [start, end) offsets in a scratch buffer.
type span struct{ a, b int32 }

type overlapScorer struct {
	g, r   []byte
	gw, rw []span
}

// words lower-cases s into buf and returns the stripped tokens as spans.
func words(buf []byte, sp []span, s string) ([]byte, []span) {
	buf = textnorm.AppendLower(buf[:0], s)
	sp = sp[:0]
	i := 0
	for i < len(buf) {
		// skip whitespace
		for i < len(buf) {
			if c := buf[i]; c < 0x80 {
				if !textnorm.IsSpace(rune(c)) {
					break
				}
				i++
				continue
			}
			r, n := utf8.DecodeRune(buf[i:])
			if !textnorm.IsSpace(r) {
				break
			}
			i += n
		}
		if i >= len(buf) {
			break
		}
		j := i
		for j < len(buf) {
			if c := buf[j]; c < 0x80 {
				if textnorm.IsSpace(rune(c)) {
					break
				}
				j++
				continue
			}
			r, n := utf8.DecodeRune(buf[j:])
			if textnorm.IsSpace(r) {
				break
			}
			j += n
		}
		a, b := i, j
		for a < b && textnorm.IsASCIIPunct(buf[a]) {
			a++
		}
		for b > a && textnorm.IsASCIIPunct(buf[b-1]) {
			b--
		}
		sp = append(sp, span{int32(a), int32(b)})
		i = j
	}
	return buf, sp
}

func (s *overlapScorer) Score(golden, response string) Verdict {
	s.g, s.gw = words(s.g, s.gw, golden)
	// Distinct golden words, in first-seen order.
	distinct := s.gw[:0]
	for _, w := range s.gw {
		dup := false
		for _, d := range distinct {
			if bytes.Equal(s.g[w.a:w.b], s.g[d.a:d.b]) {
				dup = true
				break
			}
		}
		if !dup {
			distinct = append(distinct, w)
		}
	}
	s.gw = distinct
	total := len(distinct)
	if textnorm.IsBlank(response) {
		return Verdict{Total: total}
	}
	s.r, s.rw = words(s.r, s.rw, response)
	matching := 0
	for _, w := range distinct {
		gw := s.g[w.a:w.b]
		for _, v := range s.rw {
			if bytes.Equal(gw, s.r[v.a:v.b]) {
				matching++
				break
			}
		}
	}
	v := Verdict{Matching: matching, Total: total}
	if matching == total {
		v.Value = 1
	}
	return v
}
