package textnorm

import (
	"fmt"
	"regexp"
	"slices"
	"testing"
)

// The expected scripts follow from the Unicode Scripts property of the
// letters (Unicode 15, as in Go's unicode package): each test string is a
// city name written in the script named.
func TestScriptOf(t *testing.T) {
	cases := []struct {
		name, in string
		want     Script
	}{
		{"devanagari", "नई दिल्ली।", Devanagari},
		{"bengali", "কলকাতা", Bengali},
		{"gurmukhi", "ਅੰਮ੍ਰਿਤਸਰ", Gurmukhi},
		{"gujarati", "અમદાવાદ", Gujarati},
		{"odia", "ଭୁବନେଶ୍ୱର", Odia},
		{"tamil", "சென்னை", Tamil},
		{"telugu", "హైదరాబాద్", Telugu},
		{"kannada", "ಬೆಂಗಳೂರು", Kannada},
		{"malayalam", "തിരുവനന്തപുരം", Malayalam},
		{"latin", "New Delhi", Latin},
		{"latin with diacritics", "Mysuru São Tomé", Latin},
		// Digits and the danda are not letters: no script.
		{"devanagari digits only", "१९४७", NoScript},
		{"danda only", "।॥", NoScript},
		{"empty", "", NoScript},
		{"cyrillic is not recognised", "Москва", NoScript},
		// Majority of letters: 10 Latin letters against 4 Devanagari (ग ं ग ा).
		{"mostly latin", "The answer: गंगा", Latin},
		// 5 Latin letters against 7 Devanagari (ग ं ग ा न द ी).
		{"mostly devanagari", "Ganga गंगा नदी", Devanagari},
		// 2 against 2: the tie goes to Latin, listed first in Scripts.
		{"tie", "ab कख", Latin},
		// Matras count with their script: क + ि + ि ... all Devanagari.
		{"marks count", "कि", Devanagari},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ScriptOf(c.in); got != c.want {
				t.Errorf("ScriptOf(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestLanguageFromFileName(t *testing.T) {
	cases := []struct {
		in, model, lang string
		ok              bool
	}{
		{"kestrel-7b_hindi.csv", "kestrel-7b", "hindi", true},
		{"results/run1/kestrel-7b_Bengali.jsonl", "kestrel-7b", "bengali", true},
		{"llama_3_8b_tamil.csv", "llama_3_8b", "tamil", true},
		{"m_hi.csv", "m", "hindi", true},
		{"m_bangla.csv", "m", "bengali", true},
		{"m_oriya.csv", "m", "odia", true},
		{"m_english", "m", "english", true}, // no extension
		{"model.csv", "", "", false},
		{"model_french.csv", "", "", false},
		{"_hindi.csv", "", "", false},
		{"model_.csv", "", "", false},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			m, l, ok := LanguageFromFileName(c.in)
			if m != c.model || l != c.lang || ok != c.ok {
				t.Errorf("LanguageFromFileName(%q) = %q, %q, %v; want %q, %q, %v", c.in, m, l, ok, c.model, c.lang, c.ok)
			}
		})
	}
}

func TestParseLanguage(t *testing.T) {
	check := func(in, want string, ok bool) {
		t.Helper()
		got, gotOK := ParseLanguage(in)
		if got != want || gotOK != ok {
			t.Errorf("ParseLanguage(%q) = %q, %v; want %q, %v", in, got, gotOK, want, ok)
		}
	}
	check("Hindi", "hindi", true)
	check(" hi ", "hindi", true)
	check("hin", "hindi", true)
	check("BN", "bengali", true)
	check("Bangla", "bengali", true)
	check("or", "odia", true)
	check("klingon", "", false)
	check("", "", false)
}

func TestLanguageOfScript(t *testing.T) {
	cases := []struct {
		sc        Script
		lang      string
		ambiguous bool
	}{
		{Devanagari, "hindi", true},
		{Bengali, "bengali", true},
		{Latin, "english", true},
		{Tamil, "tamil", false},
		{Telugu, "telugu", false},
		{Gurmukhi, "punjabi", false},
		{Odia, "odia", false},
		{NoScript, "", true},
	}
	for _, c := range cases {
		t.Run(string(c.sc), func(t *testing.T) {
			l, a := LanguageOfScript(c.sc)
			if l != c.lang || a != c.ambiguous {
				t.Errorf("LanguageOfScript(%q) = %q, %v; want %q, %v", c.sc, l, a, c.lang, c.ambiguous)
			}
		})
	}
}

// SPEC.md section 5: matras and the virama stay inside words; the danda
// separates; Go's \w finds nothing in हिन्दी.
func TestWords(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string
	}{
		{"hindi matras and virama", "हिन्दी", []string{"हिन्दी"}},
		{"hindi danda", "नई दिल्ली।", []string{"नई", "दिल्ली"}},
		{"hindi double danda", "सत्यमेव जयते॥", []string{"सत्यमेव", "जयते"}},
		{"bengali danda", "নতুন দিল্লি।", []string{"নতুন", "দিল্লি"}},
		{"tamil punctuation", "வணக்கம், உலகம்!", []string{"வணக்கம்", "உலகம்"}},
		{"telugu", "తెలుగు భాష.", []string{"తెలుగు", "భాష"}},
		{"english apostrophe", "Delhi's 1947", []string{"Delhi", "s", "1947"}},
		{"indic digits are numbers", "१९४७ में", []string{"१९४७", "में"}},
		{"bengali digits", "১৯৪৭ সালে", []string{"১৯৪৭", "সালে"}},
		{"zwnj inside a word", "ক্\u200cষ", []string{"ক্\u200cষ"}},
		{"zwj inside a word", "क्\u200dष", []string{"क्\u200dष"}},
		{"zwnj before space separates", "a\u200c b", []string{"a", "b"}},
		{"leading zwnj", "\u200cक", []string{"क"}},
		{"trailing zwnj", "क\u200c", []string{"क"}},
		{"empty", "", nil},
		{"only punctuation", "।, !", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Words(c.in); !slices.Equal(got, c.want) {
				t.Errorf("Words(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
	if w := regexp.MustCompile(`\w+`).FindAllString("हिन्दी", -1); w != nil {
		t.Errorf("Go's \\w+ found %q in हिन्दी; SPEC.md section 5 says it finds nothing", w)
	}
}

// The code points are from the Unicode Character Database: U+0958..U+095F,
// U+09DC, U+09DD, U+09DF, U+0A33, U+0A36, U+0A59..U+0A5B, U+0A5E, U+0B5C,
// U+0B5D are composition exclusions (CompositionExclusions.txt), so NFC
// decomposes them; U+0929, U+0931, U+0934 are not, so NFC composes them.
func TestUnifyNukta(t *testing.T) {
	cases := []struct {
		name, precomposed, decomposed, want string
	}{
		{"devanagari qa", "\u0958", "\u0915\u093C", "\u0915\u093C"},
		{"devanagari za", "\u095B", "\u091C\u093C", "\u091C\u093C"},
		{"devanagari dddha", "\u095C", "\u0921\u093C", "\u0921\u093C"},
		{"devanagari nnna composes", "\u0929", "\u0928\u093C", "\u0929"},
		{"devanagari rra composes", "\u0931", "\u0930\u093C", "\u0931"},
		{"bengali rra", "\u09DC", "\u09A1\u09BC", "\u09A1\u09BC"},
		{"bengali yya", "\u09DF", "\u09AF\u09BC", "\u09AF\u09BC"},
		{"gurmukhi sha", "\u0A36", "\u0A38\u0A3C", "\u0A38\u0A3C"},
		{"odia rra", "\u0B5C", "\u0B21\u0B3C", "\u0B21\u0B3C"},
		{"word", "\u095Bरूर", "\u091C\u093Cरूर", "\u091C\u093Cरूर"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := UnifyNukta(c.precomposed), UnifyNukta(c.decomposed)
			if a != c.want || b != c.want {
				t.Errorf("UnifyNukta: %+q -> %+q and %+q -> %+q, want both %+q", c.precomposed, a, c.decomposed, b, c.want)
			}
			if c.precomposed == c.decomposed {
				t.Fatal("test inputs must differ before unification")
			}
		})
	}
	if got := UnifyNukta("Delhi"); got != "Delhi" {
		t.Errorf("UnifyNukta changed ASCII: %q", got)
	}
}

func TestFoldNukta(t *testing.T) {
	cases := []struct{ in, want string }{
		{"\u095Bरूर", "जरूर"},
		{"\u091C\u093Cरूर", "जरूर"},
		{"\u0929", "\u0928"},
		{"বড\u09BC", "বড"},
		{"\u09DF", "\u09AF"},
		{"जल", "जल"},
		{"Delhi", "Delhi"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			if got := FoldNukta(c.in); got != c.want {
				t.Errorf("FoldNukta(%+q) = %+q, want %+q", c.in, got, c.want)
			}
		})
	}
}

func ExampleScriptOf() {
	for _, s := range []string{"नई दिल्ली।", "কলকাতা", "சென்னை", "New Delhi", "१९४७"} {
		fmt.Printf("%q\n", ScriptOf(s))
	}
	// Output:
	// "Devanagari"
	// "Bengali"
	// "Tamil"
	// "Latin"
	// ""
}

func ExampleWords() {
	fmt.Printf("%q\n", Words("नई दिल्ली। हिन्दी, 1947"))
	// Output: ["नई" "दिल्ली" "हिन्दी" "1947"]
}

func ExampleLanguageFromFileName() {
	model, language, ok := LanguageFromFileName("results/llama_3_8b_hindi.csv")
	fmt.Println(model, language, ok)
	// Output: llama_3_8b hindi true
}
