package score

import (
	"strings"
	"unicode"

	"github.com/evalbook/evalbook/pkg/textnorm"
)

// The language fidelity metrics (issue 28): did the model answer in the
// language asked? They judge the script of the response against the
// script of the row's language.
const (
	LanguageFidelity     = "language_fidelity"
	LanguageFidelityWord = "language_fidelity_word"
)

// FidelityMinWords is the number of words from which a line of a
// response is judged on its own by language_fidelity.
const FidelityMinWords = 5

// A LanguageScorer scores knowing the row's language (a language column's
// value, or the language a file name gives: anything
// textnorm.ParseLanguage takes). Score(golden, response) is
// ScoreLanguage("", golden, response), which takes the language from the
// script of the golden answer as evalbook score's language grouping does.
type LanguageScorer interface {
	Scorer
	ScoreLanguage(language, golden, response string) Verdict
}

func init() {
	Register(&Metric{
		ID:   LanguageFidelity,
		Name: "Language fidelity (lines)",
		Rule: "Correct when the response is written in the script of the row's language (english Latin, hindi, marathi " +
			"and nepali Devanagari, bengali and assamese Bengali, tamil Tamil, telugu Telugu, and the other languages " +
			"textnorm knows): every line of 5 words or more (words as textnorm.Words: runs of letters, marks and " +
			"digits) must have more than half of its letters and combining marks in that script; a response none of whose " +
			"lines has 5 words is judged on all its letters together by the same majority. Words that are words of the golden " +
			"answer (compared lower-cased) are left aside in the count, so a Hindi row whose golden answer is \"H2O\" or " +
			"\"DNA\" is not failed for answering \"H2O\". The row's language is the " +
			"language column (or the file name's language); without one, or when it is not a language evalbook knows, it " +
			"is the language of the golden answer's script, as evalbook score groups rows. The line-level pass rate of the " +
			"Language Confusion Benchmark (Marchisio et al. 2024), with the script standing in for a language identifier.",
		FalsePositives: "A script is not a language: Hindi answered in Marathi or Nepali (all Devanagari), Bengali in " +
			"Assamese, English in French or romanised Hindi all pass. Short lines (under 5 words) are not judged one by one, " +
			"so a one-line switch of language inside a long answer of short lines passes while the letters stay mostly " +
			"right. A response of digits and punctuation only passes (it has no letter in another script). A row whose " +
			"language is unknown (no language column and a golden answer without letters) passes: nothing says which " +
			"script to expect. The words of the golden answer are left aside, so an answer in the golden answer's own " +
			"words passes whatever their script.",
		FalseNegatives: "A long line that quotes a name, a formula or a code block in another script (an English product " +
			"name in a Hindi line of few words) can tip the line's majority and fail the response; a language whose usual " +
			"script is not the one it was written in (Hindi in Latin letters asked for on purpose, Sanskrit in another " +
			"script) fails.",
		Blank:  "A blank response (empty after trimming) scores 0: it is not an answer in the language asked. The golden answer is used only for the language when the row has none.",
		Source: "issue 28; Marchisio et al. 2024, Understanding and Mitigating Language Confusion in LLMs (line-level pass rate)",
		New:    func() Scorer { return &fidelityScorer{} },
	})
	Register(&Metric{
		ID:   LanguageFidelityWord,
		Name: "Language fidelity (words)",
		Rule: "Correct when no word of the response (textnorm.Words) is written in another script than the row's language's: " +
			"a word counts as another script's when more than half of its letters and combining marks are not in the " +
			"language's script; words without letters (numbers), words of the golden answer and punctuation are left aside. The row's language is " +
			"settled as for language_fidelity. The word-level rate beside language_fidelity's line-level one (Marchisio et al. 2024).",
		FalsePositives: "As language_fidelity: a script is not a language (Marathi for Hindi, French for English pass).",
		FalseNegatives: "Any code-mixed word fails the response: a brand or product name, a unit, a chemical formula or an " +
			"English technical term kept in Latin letters inside an Indic answer (often what a human would write).",
		Blank:  "A blank response (empty after trimming) scores 0. The golden answer is used only for the language when the row has none.",
		Source: "issue 28; Marchisio et al. 2024 (word-level rate)",
		New:    func() Scorer { return &fidelityScorer{word: true} },
	})
}

type fidelityScorer struct {
	word   bool
	golden map[string]bool
}

func (s *fidelityScorer) Score(golden, response string) Verdict {
	return s.ScoreLanguage("", golden, response)
}

func (s *fidelityScorer) ScoreLanguage(language, golden, response string) Verdict {
	if textnorm.IsBlank(response) {
		return Verdict{}
	}
	want, ok := textnorm.ScriptOfLanguage(language)
	if !ok {
		want = textnorm.ScriptOf(golden)
	}
	if want == textnorm.NoScript {
		return Verdict{Value: 1}
	}
	if s.golden == nil {
		s.golden = map[string]bool{}
	}
	clear(s.golden)
	for _, w := range textnorm.Words(golden) {
		s.golden[strings.ToLower(w)] = true
	}
	var pass bool
	if s.word {
		pass = s.wordsInScript(response, want)
	} else {
		pass = s.linesInScript(response, want)
	}
	if pass {
		return Verdict{Value: 1}
	}
	return Verdict{}
}

// count adds to in and all the letters and combining marks of the words
// (those of the golden answer aside), and those of them in script want.
// A mark of no listed script (a combining accent) counts with neither.
func (s *fidelityScorer) count(words []string, want textnorm.Script, in, all *int) {
	for _, w := range words {
		if s.golden[strings.ToLower(w)] {
			continue
		}
		for _, r := range w {
			sc := textnorm.ScriptOfRune(r)
			switch {
			case sc == want:
				*in++
				*all++
			case sc != textnorm.NoScript || unicode.IsLetter(r):
				*all++
			}
		}
	}
}

// mostly: more than half of the counted letters are in the script; no
// letters at all is not another script.
func mostly(in, all int) bool { return all == 0 || 2*in > all }

func (s *fidelityScorer) linesInScript(response string, want textnorm.Script) bool {
	judged := false
	for line := range strings.Lines(response) {
		words := textnorm.Words(line)
		if len(words) < FidelityMinWords {
			continue
		}
		judged = true
		in, all := 0, 0
		s.count(words, want, &in, &all)
		if !mostly(in, all) {
			return false
		}
	}
	if judged {
		return true
	}
	in, all := 0, 0
	s.count(textnorm.Words(response), want, &in, &all)
	return mostly(in, all)
}

func (s *fidelityScorer) wordsInScript(response string, want textnorm.Script) bool {
	for _, w := range textnorm.Words(response) {
		in, all := 0, 0
		s.count([]string{w}, want, &in, &all)
		if !mostly(in, all) {
			return false
		}
	}
	return true
}
