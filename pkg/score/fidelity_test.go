package score

import "testing"

// language_fidelity and language_fidelity_word by hand (issue 28 item 7;
// the line rule is the Language Confusion Benchmark's line-level pass,
// Marchisio et al. 2024, with the script in place of a language
// identifier).
func TestLanguageFidelity(t *testing.T) {
	line, word := &fidelityScorer{}, &fidelityScorer{word: true}
	hiLong := "भारत की राजधानी नई दिल्ली है और यह एक बड़ा शहर है" // 12 Devanagari words
	enLong := "The capital of India is New Delhi, a large city"   // 10 Latin words
	for _, c := range []struct {
		name, lang, golden, response string
		line, word                   float64
	}{
		// One long Hindi line: all its letters Devanagari.
		{"hindi line", "hi", "दिल्ली", hiLong, 1, 1},
		// A long English line in a Hindi row: the line is Latin.
		{"english line in a hindi row", "hi", "दिल्ली", enLong, 0, 0},
		// Two long lines, the second English: every long line must pass.
		{"second line switches", "hindi", "दिल्ली", hiLong + "\n" + enLong, 0, 0},
		// A long Hindi line with one Latin word ("Delhi", 5 of the line's
		// letters against the Devanagari ones): the line passes by majority,
		// the word rule fails on the Latin word.
		{"one latin word", "hi", "दिल्ली", "भारत की राजधानी Delhi है और यह बड़ा शहर है", 1, 0},
		// Short lines only (under 5 words each): judged on all letters
		// together. "नई दिल्ली" (Devanagari, 8 letters and marks) and "New
		// Delhi" (Latin, 8 letters): 8 of 16 is not more than half.
		{"short lines tie", "hi", "दिल्ली", "नई दिल्ली\nNew Delhi", 0, 0},
		// A short English line under a long Hindi one: the long line is
		// judged, the short one is not (a known false positive), the word
		// rule sees "OK".
		{"short english line", "hi", "दिल्ली", hiLong + "\nOK thanks", 1, 0},
		// Numbers and punctuation are aside.
		{"digits", "hi", "दिल्ली", "1947 — 15/08", 1, 1},
		{"digits with hindi", "hi", "1947", "सन् 1947 में", 1, 1},
		// No language column: the golden answer's script settles it.
		{"golden bengali", "", "ঢাকা", "বাংলাদেশের রাজধানী ঢাকা", 1, 1},
		{"golden bengali, hindi answer", "", "ঢাকা", "राजधानी ढाका है", 0, 0},
		// A language evalbook does not know falls back to the golden answer.
		{"unknown language", "fr", "Paris", "La capitale est Paris", 1, 1},
		// Tamil and Telugu.
		{"tamil", "ta", "சென்னை", "தமிழ்நாட்டின் தலைநகரம் சென்னை", 1, 1},
		{"telugu asked, tamil given", "te", "హైదరాబాద్", "தமிழ்நாட்டின் தலைநகரம் சென்னை", 0, 0},
		// English asked, Hindi given.
		{"english asked", "en", "Delhi", "दिल्ली", 0, 0},
		// Nothing says which script: passes (documented).
		{"unknown script", "", "42", "सन् 1947", 1, 1},
		// The golden answer's own words are aside: "H2O" answers a Hindi
		// row whose golden answer is "H2O"; a Latin word beside it is not.
		{"golden words aside", "hi", "H2O", "H2O", 1, 1},
		{"golden words aside, english beside", "hi", "H2O", "water is H2O", 0, 0},
		// Blank: 0.
		{"blank", "hi", "दिल्ली", "  \n ", 0, 0},
	} {
		if got := line.ScoreLanguage(c.lang, c.golden, c.response).Value; got != c.line {
			t.Errorf("%s: language_fidelity = %v, want %v", c.name, got, c.line)
		}
		if got := word.ScoreLanguage(c.lang, c.golden, c.response).Value; got != c.word {
			t.Errorf("%s: language_fidelity_word = %v, want %v", c.name, got, c.word)
		}
	}
	// Score without a language is ScoreLanguage("", ...).
	if line.Score("ঢাকা", "राजधानी ढाका है").Value != 0 || line.Score("ঢাকা", "রাজধানী ঢাকা").Value != 1 {
		t.Error("Score does not read the golden answer's script")
	}
	for _, id := range []string{LanguageFidelity, LanguageFidelityWord} {
		m, err := Lookup(id)
		if err != nil || m.Graded {
			t.Fatalf("%s: %v %+v", id, err, m)
		}
		if _, ok := m.New().(LanguageScorer); !ok {
			t.Errorf("%s: the scorer does not take the row's language", id)
		}
	}
}
