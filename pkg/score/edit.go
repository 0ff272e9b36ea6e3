package score

import (
	"github.com/evalbook/evalbook/pkg/textnorm"
)

func init() {
	Register(&Metric{
		ID:     "edit_similarity",
		Name:   "Edit similarity",
		Graded: true,
		Rule: "1 − d / max(|g|, |r|), where d is the Levenshtein distance (insertions, deletions and substitutions of " +
			"one code point, each costing 1) between the golden answer g and the response r after NFC, and |·| counts " +
			"code points. Case-sensitive; nothing else is normalised. The raw distance is score.EditDistance; it is not " +
			"registered as a metric because every verdict in evalbook lies in [0, 1] with 1 best, and a distance does not.",
		FalsePositives: "A one-character change can flip the meaning (a year, a negation) and still scores near 1 on long text.",
		FalseNegatives: "A correct answer inside a longer response is charged one edit per extra character.",
		Blank:          "Both sides empty scores 1 (distance 0); one side empty scores 0.",
		Source:         "Levenshtein (1966); normalised as HELM's and LightEval's edit_similarity (by the longer length)",
		New:            func() Scorer { return &editScorer{} },
	})
}

// EditDistance returns the Levenshtein distance between a and b counted
// in Unicode code points after NFC: the fewest insertions, deletions and
// substitutions of one code point that turn a into b. Invalid UTF-8 bytes
// count as one code point (U+FFFD) each.
func EditDistance(a, b string) int {
	var e editScorer
	return e.distance(a, b)
}

// EditSimilarity returns 1 − EditDistance(a, b) / max(|a|, |b|), with
// lengths in code points after NFC, and 1 when both are empty.
func EditSimilarity(a, b string) float64 {
	var e editScorer
	return e.similarity(a, b)
}

type editScorer struct {
	a, b []rune
	row  []int32
}

func (e *editScorer) Score(golden, response string) Verdict {
	return Verdict{Value: e.similarity(golden, response)}
}

func (e *editScorer) similarity(a, b string) float64 {
	d := e.distance(a, b)
	n := max(len(e.a), len(e.b))
	if n == 0 {
		return 1
	}
	return 1 - float64(d)/float64(n)
}

func (e *editScorer) distance(a, b string) int {
	e.a = appendRunes(e.a[:0], textnorm.UnifyNukta(a))
	e.b = appendRunes(e.b[:0], textnorm.UnifyNukta(b))
	x, y := e.a, e.b
	// Strip the common prefix and suffix: they cost nothing.
	for len(x) > 0 && len(y) > 0 && x[0] == y[0] {
		x, y = x[1:], y[1:]
	}
	for len(x) > 0 && len(y) > 0 && x[len(x)-1] == y[len(y)-1] {
		x, y = x[:len(x)-1], y[:len(y)-1]
	}
	if len(x) < len(y) {
		x, y = y, x
	}
	if len(y) == 0 {
		return len(x)
	}
	if cap(e.row) < len(y)+1 {
		e.row = make([]int32, len(y)+1)
	}
	row := e.row[:len(y)+1]
	for j := range row {
		row[j] = int32(j)
	}
	for i := 1; i <= len(x); i++ {
		diag := row[0]
		row[0] = int32(i)
		for j := 1; j <= len(y); j++ {
			up := row[j]
			c := diag
			if x[i-1] != y[j-1] {
				c = min(diag, up, row[j-1]) + 1
			}
			row[j] = c
			diag = up
		}
	}
	return int(row[len(y)])
}

func appendRunes(dst []rune, s string) []rune {
	for _, r := range s {
		dst = append(dst, r)
	}
	return dst
}
