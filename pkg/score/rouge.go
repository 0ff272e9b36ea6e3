package score

import (
	"github.com/evalbook/evalbook/internal/fasttext"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

func init() {
	for _, m := range []struct {
		id, name string
		n        int
	}{{"rouge1", "ROUGE-1", 1}, {"rouge2", "ROUGE-2", 2}} {
		n := m.n
		Register(&Metric{
			ID:     m.id,
			Name:   m.name,
			Graded: true,
			Rule: m.name + " F-measure (Lin 2004) as Google's rouge-score computes it, with a Unicode tokeniser: both sides " +
				"are lower-cased (Python's str.lower) and split into words [\\p{L}\\p{M}\\p{N}]+ (textnorm.Words), so matras " +
				"and the virama stay in words and the danda separates them; P = clipped matching n-grams / response n-grams, " +
				"R = clipped matching n-grams / golden n-grams, F = 2PR/(P+R). No stemming. On ASCII text the tokens, and so " +
				"the scores, are rouge-score's; on other text rouge-score's [a-z0-9] tokeniser finds nothing and scores 0.",
			FalsePositives: "Shared words are not shared meaning: a response that reuses the golden answer's words in another " +
				"claim, or contains them among many others, gets credit.",
			FalseNegatives: "Synonyms and inflections (no stemming) share no n-grams.",
			Blank: "A side with no word scores 0 (as rouge-score). Unlike rouge-score, when neither side is long enough to " +
				"have an n-gram of this order but both have words, the score is 1 if the word sequences are identical and 0 " +
				"otherwise, so that identical one-word answers score 1 under rouge2 too.",
			Source: "rouge-score (github.com/google-research/google-research/tree/master/rouge) rouge_scorer.py, " +
				"with textnorm.Words as tokeniser",
			New: func() Scorer { return &rougeScorer{n: n} },
		})
	}
	Register(&Metric{
		ID:     "rouge_l",
		Name:   "ROUGE-L",
		Graded: true,
		Rule: "ROUGE-L F-measure (Lin 2004) as rouge-score's rougeL computes it, with the Unicode tokeniser of rouge1: " +
			"LCS = the length of the longest common subsequence of the two word sequences, P = LCS / response words, " +
			"R = LCS / golden words, F = 2PR/(P+R). Word order matters, gaps do not.",
		FalsePositives: "As rouge1: long responses containing the golden words in order get high recall.",
		FalseNegatives: "Reordered but correct answers lose credit; no stemming.",
		Blank:          "A side with no word scores 0 (as rouge-score); identical strings with at least one word score 1.",
		Source:         "rouge-score (github.com/google-research/google-research/tree/master/rouge) rouge_scorer.py _score_lcs",
		New:            func() Scorer { return &rougeScorer{n: 0} },
	})
}

// PRF is a precision, a recall and their harmonic mean (F1).
type PRF struct {
	Precision, Recall, F float64
}

func prf(p, r float64) PRF {
	s := PRF{Precision: p, Recall: r}
	if p+r > 0 {
		s.F = 2 * p * r / (p + r)
	}
	return s
}

// RougeTokens returns the words ROUGE compares: textnorm.Words of the
// text lower-cased as Python's str.lower does.
func RougeTokens(s string) []string {
	return textnorm.Words(textnorm.Lower(s))
}

// RougeN returns ROUGE-N of prediction against target (rouge-score's
// argument order: target first) over RougeTokens:
//
//	P = Σ_g min(c_pred(g), c_target(g)) / Σ_g c_pred(g)
//	R = Σ_g min(c_pred(g), c_target(g)) / Σ_g c_target(g)
//	F = 2PR / (P + R)
//
// over the n-grams g; a side with no n-grams gives 0, except as the
// rouge1 and rouge2 metrics document for identical short texts. n must be
// 1 to 4 (it panics otherwise).
func RougeN(target, prediction string, n int) PRF {
	if n < 1 || n > 4 {
		panic("score: RougeN: n must be 1..4")
	}
	s := &rougeScorer{n: n}
	return s.score(target, prediction)
}

// RougeL returns ROUGE-L of prediction against target over RougeTokens:
// with LCS the length of the longest common subsequence of the words,
//
//	P = LCS / len(prediction),  R = LCS / len(target),  F = 2PR / (P + R)
func RougeL(target, prediction string) PRF {
	s := &rougeScorer{n: 0}
	return s.score(target, prediction)
}

// rougeScorer computes ROUGE-n (n ≥ 1) or ROUGE-L (n = 0).
type rougeScorer struct {
	n        int
	gb, rb   []byte
	gs, rs   [][2]int
	ids      wordIDs
	gid, rid []uint32
	idx      gramIndex
	match    [4]float64
	row      []int32
}

func (s *rougeScorer) Score(golden, response string) Verdict {
	return Verdict{Value: s.score(golden, response).F}
}

func (s *rougeScorer) score(target, prediction string) PRF {
	s.gb = textnorm.AppendLower(s.gb[:0], target)
	s.rb = textnorm.AppendLower(s.rb[:0], prediction)
	g, r := string(s.gb), string(s.rb)
	s.gs = fasttext.WordSpans(g, s.gs[:0])
	s.rs = fasttext.WordSpans(r, s.rs[:0])
	s.ids.reset()
	s.gid = s.gid[:0]
	for _, sp := range s.gs {
		s.gid = append(s.gid, s.ids.id(g[sp[0]:sp[1]]))
	}
	s.rid = s.rid[:0]
	for _, sp := range s.rs {
		s.rid = append(s.rid, s.ids.id(r[sp[0]:sp[1]]))
	}
	if len(s.gid) == 0 || len(s.rid) == 0 {
		return PRF{}
	}
	if s.n == 0 {
		l := float64(s.lcs(s.gid, s.rid))
		return prf(l/float64(len(s.rid)), l/float64(len(s.gid)))
	}
	n := s.n
	ng, nr := len(s.gid)-n+1, len(s.rid)-n+1
	if ng <= 0 && nr <= 0 {
		// Both too short for an n-gram: identical word sequences score 1.
		if equalIDs(s.gid, s.rid) {
			return PRF{1, 1, 1}
		}
		return PRF{}
	}
	ng, nr = max(ng, 0), max(nr, 0)
	// The index counts n-grams of every order up to n; only order n is used.
	s.idx.reset(ng * n)
	s.idx.countRef(s.gid, n)
	clear(s.match[:n])
	s.idx.matchHyp(s.rid, n, s.match[:n])
	match := s.match[n-1]
	return prf(match/float64(max(nr, 1)), match/float64(max(ng, 1)))
}

func equalIDs(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// lcs returns the length of the longest common subsequence of a and b,
// with one row of the dynamic programme.
func (s *rougeScorer) lcs(a, b []uint32) int {
	if cap(s.row) < len(b)+1 {
		s.row = make([]int32, len(b)+1)
	}
	row := s.row[:len(b)+1]
	clear(row)
	for i := range a {
		prevDiag := int32(0) // row[j-1] of the previous row
		for j := 1; j <= len(b); j++ {
			up := row[j]
			if a[i] == b[j-1] {
				row[j] = prevDiag + 1
			} else if row[j-1] > up {
				row[j] = row[j-1]
			}
			prevDiag = up
		}
	}
	return int(row[len(b)])
}
