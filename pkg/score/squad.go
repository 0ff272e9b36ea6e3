package score

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/textnorm"
)

func init() {
	Register(&Metric{
		ID:   ExactMatch,
		Name: "Exact match",
		Rule: "1 when the response equals the golden answer exactly, byte for byte (after the chosen --normalize profile), else 0. " +
			"In evalbook task run the response is a sample's extracted answer and no profile applies; the looser rule task run " +
			"used to apply under this id is loose_exact_match.",
		FalsePositives: "Practically none: only identical text passes.",
		FalseNegatives: "Any difference at all fails: case, a trailing full stop, surrounding prose, a dropped clause of a long answer, NFC versus NFD.",
		Blank: "When the golden answer is empty (the source has no answer) an empty response is a correct \"no answer\" and scores 1; " +
			"any text, even \"No answer found.\", scores 0.",
		Source: "seed 002 (Evaluate Q&A notebook)",
		New:    func() Scorer { return exactScorer{} },
		Canon:  func(s string) string { return s },
	})
	Register(&Metric{
		ID:   LooseExactMatch,
		Name: "Loose exact match",
		Rule: "1 when both sides are equal after: lower-casing (Go strings.ToLower), splitting on whitespace and joining " +
			"with single spaces (which trims the ends), then dropping every full stop (.) and danda (।) at the end, else 0. " +
			"Nothing else is normalised: inner punctuation, articles and NFC/NFD stay. evalbook task run called this rule " +
			"exact_match before it had its own id.",
		FalsePositives: "A final full stop or danda is dropped even where it belongs to the answer (\"U.S.\" equals \"U.S\"); " +
			"case differences that matter (an identifier) are ignored.",
		FalseNegatives: "Any other difference fails: a comma, quotes, an article, a paraphrase, NFC versus NFD, digits in another script.",
		Blank:          "Two sides that are empty after normalising are equal and score 1; one empty scores 0.",
		Source:         "evalbook task run's comparison (pkg/tasks normAnswer) before every metric had one home (issue 26)",
		New:            func() Scorer { return canonScorer(LooseNormalize) },
		Canon:          LooseNormalize,
	})
	Register(&Metric{
		ID:   "squad_em",
		Name: "SQuAD exact match",
		Rule: "1 when both sides are equal after SQuAD normalisation: lower-case, delete ASCII punctuation, " +
			"replace the whole words a, an and the by a space, collapse whitespace.",
		FalsePositives: "Articles and punctuation carry meaning now and then (\"a\" as an option letter), and they are dropped.",
		FalseNegatives: "Any extra or missing content word fails; no stemming; non-ASCII punctuation (the danda) is kept.",
		Blank:          "SQuAD v2: both empty after normalisation scores 1; one empty scores 0.",
		Source:         "SQuAD v2.0 official evaluation script (normalize_answer, compute_exact)",
		New:            func() Scorer { return &squadScorer{em: true} },
	})
	Register(&Metric{
		ID:     "squad_f1",
		Name:   "SQuAD token F1",
		Graded: true,
		Rule: "Harmonic mean of token precision and recall over the multisets of SQuAD-normalised tokens " +
			"(a token counts as often as it occurs on both sides).",
		FalsePositives: "Long answers that share many tokens with the golden answer get high partial credit whatever they claim.",
		FalseNegatives: "Synonyms and inflections share no tokens; a correct but wordy answer loses precision.",
		Blank:          "SQuAD v2: both token lists empty scores 1; exactly one empty scores 0.",
		Source:         "SQuAD v2.0 official evaluation script (compute_f1)",
		New:            func() Scorer { return &squadScorer{} },
	})
	Register(&Metric{
		ID:   "quasi_exact_match",
		Name: "Quasi exact match",
		Rule: "1 when both sides are equal after normalising case, ASCII punctuation, the articles a/an/the and whitespace " +
			"(the SQuAD normalisation). With a single golden answer it agrees with squad_em row for row; it is kept " +
			"under this name so that results line up with LightEval-style metric catalogues.",
		FalsePositives: "As squad_em.",
		FalseNegatives: "As squad_em.",
		Blank:          "Both empty after normalisation scores 1; one empty scores 0.",
		Source:         "LightEval metric catalogue (quasi exact match), SQuAD normalisation",
		New:            func() Scorer { return &squadScorer{em: true} },
	})
	Register(&Metric{
		ID:             "prefix_exact_match",
		Name:           "Prefix exact match",
		Rule:           "1 when the response, stripped of surrounding whitespace, starts with the golden answer, stripped likewise.",
		FalsePositives: "An answer that starts right and then contradicts itself (\"Delhi. No, wait: Mumbai\") passes.",
		FalseNegatives: "Any preamble (\"The answer is ...\") fails; case differences fail.",
		Blank:          "An empty golden answer is a prefix of everything and scores 1 (warned about); a blank response scores 0 unless the golden answer is empty too.",
		Source:         "LightEval metric catalogue (prefix exact match)",
		New:            func() Scorer { return prefixScorer{} },
	})
}

type exactScorer struct{}

func (exactScorer) Score(golden, response string) Verdict {
	if golden == response {
		return Verdict{Value: 1}
	}
	return Verdict{}
}

type prefixScorer struct{}

func (prefixScorer) Score(golden, response string) Verdict {
	if strings.HasPrefix(textnorm.Strip(response), textnorm.Strip(golden)) {
		return Verdict{Value: 1}
	}
	return Verdict{}
}

// SQuADNormalize applies the SQuAD evaluation script's normalize_answer:
// lower-case (as Python), remove every character of Python's
// string.punctuation, replace the words a, an and the (delimited as
// Python's \b does: by characters that are not letters, digits or
// underscore) by a space, and collapse whitespace to single spaces.
func SQuADNormalize(s string) string {
	return strings.Join(squadTokens(nil, s), " ")
}

// squadTokens returns the normalised tokens of s, appended to dst.
func squadTokens(dst []string, s string) []string {
	low := textnorm.Lower(s)
	var b strings.Builder
	b.Grow(len(low))
	for i := 0; i < len(low); i++ {
		if !textnorm.IsASCIIPunct(low[i]) {
			b.WriteByte(low[i])
		}
	}
	noPunct := b.String()
	// Remove articles: a maximal run of Python \w characters equal to a,
	// an or the becomes a space.
	b.Reset()
	i := 0
	for i < len(noPunct) {
		r, n := utf8.DecodeRuneInString(noPunct[i:])
		if !pyWord(r) {
			b.WriteString(noPunct[i : i+n])
			i += n
			continue
		}
		j := i
		for j < len(noPunct) {
			r2, n2 := utf8.DecodeRuneInString(noPunct[j:])
			if !pyWord(r2) {
				break
			}
			j += n2
		}
		switch w := noPunct[i:j]; w {
		case "a", "an", "the":
			b.WriteByte(' ')
		default:
			b.WriteString(w)
		}
		i = j
	}
	return append(dst, textnorm.Fields(b.String())...)
}

// pyWord reports whether r matches Python 3's \w in a str pattern:
// alphanumeric (str.isalnum) or underscore. Combining marks (matras) are
// not \w in Python, which only matters here for where an article may end.
func pyWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.In(r, unicode.Nl, unicode.No)
}

type squadScorer struct {
	em   bool
	g, r []string
}

func (s *squadScorer) Score(golden, response string) Verdict {
	s.g = squadTokens(s.g[:0], golden)
	s.r = squadTokens(s.r[:0], response)
	if s.em {
		if equalStrings(s.g, s.r) {
			return Verdict{Value: 1}
		}
		return Verdict{}
	}
	return Verdict{Value: tokenF1(s.g, s.r)}
}

// tokenF1 is the SQuAD F1 over token multisets.
//
//	common    = Σ_t min(count_gold(t), count_pred(t))
//	precision = common / len(pred), recall = common / len(gold)
//	F1        = 2·precision·recall / (precision + recall), 0 when common = 0
//
// When either side has no tokens, F1 is 1 if both are empty and 0 otherwise.
func tokenF1(gold, pred []string) float64 {
	if len(gold) == 0 || len(pred) == 0 {
		if len(gold) == len(pred) {
			return 1
		}
		return 0
	}
	counts := make(map[string]int, len(gold))
	for _, t := range gold {
		counts[t]++
	}
	common := 0
	for _, t := range pred {
		if counts[t] > 0 {
			counts[t]--
			common++
		}
	}
	if common == 0 {
		return 0
	}
	p := float64(common) / float64(len(pred))
	r := float64(common) / float64(len(gold))
	return 2 * p * r / (p + r)
}

func equalStrings(a, b []string) bool {
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

// LooseNormalize is loose_exact_match's normal form: lower-cased, inner
// whitespace collapsed to single spaces and the ends trimmed, then every
// full stop or danda at the end dropped.
func LooseNormalize(s string) string {
	s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	return strings.TrimRight(s, ".।")
}

// canonScorer scores 1 when both sides have the same normal form.
type canonScorer func(string) string

func (c canonScorer) Score(golden, response string) Verdict {
	if c(golden) == c(response) {
		return Verdict{Value: 1}
	}
	return Verdict{}
}
