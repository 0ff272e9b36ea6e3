package textnorm

import (
	"fmt"
	"testing"
)

// Each expected stem is the hand application of the documented rule:
// strip the longest listed suffix that leaves at least MinStemRunes code
// points (for Bengali, then a final ে on the same condition).
func TestStemHindi(t *testing.T) {
	cases := []struct{ in, want string }{
		// Noun, masculine: direct singular, plural/oblique, oblique plural.
		{"लड़का", "लड़क"}, {"लड़के", "लड़क"}, {"लड़कों", "लड़क"},
		// Noun, feminine: singular, plural, oblique plural.
		{"लड़की", "लड़क"}, {"लड़कियाँ", "लड़क"}, {"लड़कियों", "लड़क"},
		{"किताब", "किताब"}, {"किताबें", "किताब"}, {"किताबों", "किताब"},
		// Verbs: participle, future after a vowel, conjunctive participle.
		{"पढ़ता", "पढ़"}, {"पढ़ती", "पढ़"}, {"जाएगा", "जा"}, {"जाएंगे", "जा"}, {"खाकर", "खा"},
		// Too short to strip: the stem would keep one code point.
		{"का", "का"}, {"ने", "ने"}, {"घर", "घर"},
		// No listed suffix.
		{"भारत", "भारत"},
		// The precomposed nukta letter ड़ (U+095C) is unified first (NFC).
		{"ल\u095Cकों", "लड़क"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			if got := StemHindi(c.in); got != c.want {
				t.Errorf("StemHindi(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestStemBengali(t *testing.T) {
	cases := []struct{ in, want string }{
		// The e-final noun and its inflections share one stem.
		{"ছেলে", "ছেল"}, {"ছেলেটি", "ছেল"}, {"ছেলের", "ছেল"}, {"ছেলেরা", "ছেল"}, {"ছেলেদের", "ছেল"}, {"ছেলেকে", "ছেল"},
		// Consonant-final noun: genitive ের and locative ে.
		{"ভারত", "ভারত"}, {"ভারতের", "ভারত"}, {"ভারতে", "ভারত"},
		// Classifier plural and the genitive after a vowel (য় is য + nukta in NFC).
		{"বইগুলো", "বই"}, {"বইয়ের", "বই"}, {"বই", "বই"},
		{"বাড়িতে", "বাড়ি"}, {"নদীতে", "নদী"},
		// Nouns ending in র or য় are not cut: bare র and য় are not listed.
		{"শহর", "শহর"}, {"সময়", "সময়"},
		// Verbs are not stemmed.
		{"করলাম", "করলাম"},
		// The precomposed য় (U+09DF) is unified first.
		{"বই\u09DFের", "বই"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			if got := StemBengali(c.in); got != c.want {
				t.Errorf("StemBengali(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestStemWords(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"hindi sentence keeps danda and spaces", "लड़कों ने किताबें पढ़ीं।", "लड़क ने किताब पढ़।"},
		{"bengali", "ছেলেরা বইগুলো পড়ে।", "ছেল বই পড়।"},
		{"english untouched", "The boys read books.", "The boys read books."},
		{"tamil untouched", "புத்தகங்கள்", "புத்தகங்கள்"},
		{"mixed", "Ganga नदियाँ", "Ganga नद"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := StemWords(c.in); got != c.want {
				t.Errorf("StemWords(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func ExampleStemHindi() {
	for _, w := range []string{"लड़का", "लड़के", "लड़कों", "लड़कियाँ"} {
		fmt.Println(w, "->", StemHindi(w))
	}
	// Output:
	// लड़का -> लड़क
	// लड़के -> लड़क
	// लड़कों -> लड़क
	// लड़कियाँ -> लड़क
}

func ExampleStemBengali() {
	for _, w := range []string{"ছেলে", "ছেলেটি", "ছেলেদের", "বইগুলো"} {
		fmt.Println(w, "->", StemBengali(w))
	}
	// Output:
	// ছেলে -> ছেল
	// ছেলেটি -> ছেল
	// ছেলেদের -> ছেল
	// বইগুলো -> বই
}
