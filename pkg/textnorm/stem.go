package textnorm

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/evalbook/evalbook/internal/fasttext"
	"golang.org/x/text/unicode/norm"
)

// Light stemming for Hindi and Bengali: strip one inflectional suffix.
//
// Exact and word-overlap metrics miss answers that differ only by an
// inflection (the seed's amalak / Amalaka class: लड़का / लड़के / लड़कों,
// ছেলে / ছেলেরা / ছেলেদের). A light stemmer removes the longest suffix
// from a fixed list, provided the remaining stem keeps at least
// MinStemRunes code points. It is deliberately crude, in the manner of
// Ramanathan and Rao (2003), "A Lightweight Stemmer for Hindi": no
// dictionary, no derivational morphology, at most one suffix, and it both
// conflates some unrelated words and misses irregular forms. It is never
// applied unless asked for.

// MinStemRunes is the fewest code points a stem keeps after stripping.
const MinStemRunes = 2

// hindiSuffixes are Hindi inflectional endings, written after a consonant
// (vowel signs) or after a vowel (independent vowels, as in जाएगा).
var hindiSuffixes = []string{
	// Nouns and adjectives: gender, number and the oblique case.
	"ा", "े", "ी", "ें", "ों", "ीं", "ियाँ", "ियां", "ियों", "ाएँ", "ाएं", "ाओं", "ुएँ", "ुओं",
	// Verbs: infinitive and its oblique forms.
	"ना", "ने", "नी", "ाना", "ाने", "ानी",
	// Verbs: imperfective participle.
	"ता", "ते", "ती", "तीं", "ाता", "ाते", "ाती", "ातीं",
	// Verbs: perfective after a vowel (गया, गये, गयी).
	"या", "ये", "यी", "यीं",
	// Verbs: future.
	"ूँगा", "ूंगा", "ूँगी", "ूंगी", "ेगा", "ेगी", "ेंगे", "ेंगी", "ोगे", "ोगी",
	"ऊँगा", "ऊंगा", "ऊँगी", "ऊंगी", "एगा", "एगी", "एँगे", "एंगे", "एँगी", "एंगी", "ओगे", "ओगी",
	// Verbs: imperative and polite forms.
	"ो", "िए", "िये", "इए", "इये", "ओ",
	// Verbs: conjunctive participle.
	"कर", "ाकर",
}

// bengaliSuffixes are Bengali nominal inflections. Verb endings are left
// out: the short ones (লে, ছে) end too many nouns (ছেলে, গাছে). So are the
// endings that are also the last letter of many stems: bare র (শহর, খবর;
// the genitive of a consonant-final noun is ের, which is listed), bare য়
// (সময়, বিষয়) and the emphatic particles ই and ও (বই).
var bengaliSuffixes = []string{
	// Classifiers (the definite article), alone and with case endings.
	"টি", "টা", "টো", "খানা", "খানি", "গুলো", "গুলি", "গুলা",
	"টির", "টার", "টিকে", "টাকে", "টিতে", "টাতে", "গুলোর", "গুলির", "গুলোকে", "গুলিকে", "গুলোতে", "গুলিতে",
	// Plural and case endings.
	// A leading ~ marks an ending taken only after a vowel: the locative তে
	// follows vowel-final stems (বাড়িতে), while ভারতে is ভারত + ে.
	"রা", "েরা", "দের", "েদের", "কে", "েকে", "ের", "য়ের", "~তে", "েতে", "ে",
}

type suffix struct {
	s          string // NFC
	n          int    // code points
	afterVowel bool   // only after a vowel sign or independent vowel
}

type suffixList struct {
	sfx []suffix // longest first
}

func newSuffixList(list []string) suffixList {
	s := make([]suffix, len(list))
	for i, x := range list {
		after := strings.HasPrefix(x, "~")
		x = norm.NFC.String(strings.TrimPrefix(x, "~"))
		s[i] = suffix{s: x, n: utf8.RuneCountInString(x), afterVowel: after}
	}
	sort.SliceStable(s, func(i, j int) bool { return s[i].n > s[j].n })
	return suffixList{s}
}

// isIndicVowel reports whether r is a dependent vowel sign (matra) or an
// independent vowel of a Brahmic script block (U+0900 to U+0D7F): the
// offsets 0x05..0x14 and 0x3E..0x4C within each 128-code-point block.
func isIndicVowel(r rune) bool {
	if r < 0x0900 || r >= 0x0D80 {
		return false
	}
	o := r & 0x7F
	return o >= 0x05 && o <= 0x14 || o >= 0x3E && o <= 0x4C
}

var (
	hindiList   = newSuffixList(hindiSuffixes)
	bengaliList = newSuffixList(bengaliSuffixes)
)

func (l suffixList) strip(word string) string {
	n := utf8.RuneCountInString(word)
	for _, s := range l.sfx {
		if !strings.HasSuffix(word, s.s) || n-s.n < MinStemRunes {
			continue
		}
		stem := word[:len(word)-len(s.s)]
		if s.afterVowel {
			if r, _ := utf8.DecodeLastRuneInString(stem); !isIndicVowel(r) {
				continue
			}
		}
		return stem
	}
	return word
}

// StemHindi returns the light stem of one Hindi word: the word in NFC
// (UnifyNukta) with its longest listed inflectional suffix removed, if at
// least MinStemRunes code points remain. The suffixes are the gender,
// number and oblique endings of nouns and adjectives (ा े ी ें ों ियाँ ...)
// and the common verb endings (ना ने नी, ता ते ती, या ये, the future
// ूँगा ेगा ेंगे ..., कर). लड़का, लड़के, लड़कों, लड़की and लड़कियाँ all give लड़क;
// किताबें and किताबों give किताब. Words of other scripts come back in NFC.
func StemHindi(word string) string {
	return hindiList.strip(UnifyNukta(word))
}

// StemBengali returns the light stem of one Bengali word: the word in NFC
// with its longest listed nominal suffix removed, if at least MinStemRunes
// code points remain, and then a final vowel sign ে removed on the same
// condition. The suffixes are the classifiers (টি টা খানা গুলো গুলি and
// their case forms) and the plural and case endings (রা েরা দের কে ের
// য়ের তে ে). ছেলে, ছেলেটি, ছেলের, ছেলেরা and ছেলেদের all give ছেল;
// ভারত, ভারতে and ভারতের give ভারত; বইগুলো and বইয়ের give বই. Verbs
// are not stemmed.
func StemBengali(word string) string {
	return stemBengali(UnifyNukta(word))
}

// stemBengali strips one listed suffix and then a final vowel sign ে, so
// that the e-final citation form (ছেলে) and its inflections (ছেলেটি,
// ছেলের, ছেলেরা) share one stem (ছেল) however the ে is split between
// stem and ending.
func stemBengali(w string) string {
	w = bengaliList.strip(w)
	const e = "\u09C7"
	if strings.HasSuffix(w, e) && utf8.RuneCountInString(w)-1 >= MinStemRunes {
		w = w[:len(w)-len(e)]
	}
	return w
}

// StemWords returns s in NFC with each word (as Words defines it) in
// Devanagari replaced by StemHindi of it and each word in Bengali script
// by StemBengali of it; other words and everything between words are
// kept as they are.
func StemWords(s string) string {
	s = UnifyNukta(s)
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, sp := range fasttext.WordSpans(s, nil) {
		b.WriteString(s[last:sp[0]])
		w := s[sp[0]:sp[1]]
		switch ScriptOf(w) {
		case Devanagari:
			w = hindiList.strip(w)
		case Bengali:
			w = stemBengali(w)
		}
		b.WriteString(w)
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}
