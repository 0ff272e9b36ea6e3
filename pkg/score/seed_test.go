package score

import (
	"math/rand/v2"
	"testing"

	"github.com/evalbook/evalbook/pkg/textnorm"
)

// TestSeedPairMatchesScorers holds SeedPair, which scores exact_substring
// and word_overlap in one call, shares their search when the golden
// answer is one word, and checks the words of a golden answer found
// whole where they lie, to the two scorers run apart, on golden answers
// and responses drawn from words that occur inside other words ("no" in
// "know"), punctuated and bare, Indic words with and without a danda,
// empty and blank texts; a third of the responses hold the golden
// answer between any two separators (none, a comma, whitespace).
func TestSeedPairMatchesScorers(t *testing.T) {
	parts := []string{"no", "know", "No", "no.", "(no)", "-", "--", "a", "an", "the", "Narmada", "narmada-valley", "valley",
		"गंगा", "गंगा।", "नदी", "दिल्ली", "নদী", "নদীর", "ΣΑΣ", "σας", "\u00a0", "", "!"}
	seps := []string{" ", "  ", "\t", "", ",", "\n"}
	rng := rand.New(rand.NewPCG(29, 50))
	text := func(max int) string {
		s := ""
		for i := range rng.IntN(max + 1) {
			if i > 0 {
				s += seps[rng.IntN(len(seps))]
			}
			s += parts[rng.IntN(len(parts))]
		}
		return s
	}
	pair := NewSeedPair()
	sub, over := &substringScorer{}, &overlapScorer{}
	ones, both, multi := 0, 0, 0
	for range 200000 {
		g, r := text(3), text(8)
		if rng.IntN(3) == 0 {
			// g inside the response, whole, between any separators
			r = text(3) + seps[rng.IntN(len(seps))] + g + seps[rng.IntN(len(seps))] + text(3)
		}
		gl, rl := textnorm.AppendLower(nil, g), textnorm.AppendLower(nil, r)
		ws, wo := sub.ScoreLower(gl, rl), over.ScoreLower(gl, rl)
		ps, po := pair.ScoreLower(gl, rl)
		if ps != ws || po != wo {
			t.Fatalf("golden %q, response %q: SeedPair gives %+v and %+v, the scorers %+v and %+v", g, r, ps, po, ws, wo)
		}
		if len(textnorm.Fields(g)) > 1 && ws.Value == 1 {
			multi++ // several words, found whole: match starts from where g is
		}
		if len(textnorm.Fields(g)) == 1 {
			ones++
			if ws.Value != wo.Value {
				both++ // a one-word answer found inside another word, or the reverse
			}
		}
	}
	// the draw reaches the shared search and both of its outcomes, and
	// golden answers of several words found whole
	if ones < 10000 || both < 1000 || multi < 1000 {
		t.Fatalf("only %d one-word golden answers, %d with differing verdicts, %d of several words found whole", ones, both, multi)
	}
}
