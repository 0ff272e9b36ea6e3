package mc

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Option letters. Translated benchmarks label their options in the
// script of the language: Hindi papers use क ख ग घ or अ ब स द, Bengali
// ক খ গ ঘ, Tamil அ ஆ இ ஈ, Malayalam എ ബി സി ഡി, and so on. LetterIndex
// maps every label in letterSeries to its position, so that a Bengali
// gold label ক and a predicted letter A both mean the first option.
//
// The series were chosen so that no label means two positions. One
// common scheme is left out for that reason: Marathi papers often use
// अ ब क ड, where क is the third option, while in the क ख ग घ series it is
// the first; LetterIndex reads क as the first option (A).
var letterSeries = [][]string{
	// Devanagari: consonants, vowels, and the Hindi अ ब स द (A B C D).
	{"क", "ख", "ग", "घ", "ङ"},
	{"अ", "आ", "इ", "ई", "उ"},
	{"अ", "ब", "स", "द"},
	// Bengali (Bangla and Assamese): consonants and vowels.
	{"ক", "খ", "গ", "ঘ", "ঙ"},
	{"অ", "আ", "ই", "ঈ", "উ"},
	// Gurmukhi: the first letters of the alphabet (ੳ ਅ ੲ ਸ ਹ), and consonants.
	{"ੳ", "ਅ", "ੲ", "ਸ", "ਹ"},
	{"ਕ", "ਖ", "ਗ", "ਘ", "ਙ"},
	// Gujarati, Odia, Telugu, Kannada: consonants and vowels.
	{"ક", "ખ", "ગ", "ઘ", "ઙ"},
	{"અ", "આ", "ઇ", "ઈ", "ઉ"},
	{"କ", "ଖ", "ଗ", "ଘ", "ଙ"},
	{"ଅ", "ଆ", "ଇ", "ଈ", "ଉ"},
	{"క", "ఖ", "గ", "ఘ", "ఙ"},
	{"అ", "ఆ", "ఇ", "ఈ", "ఉ"},
	{"ಕ", "ಖ", "ಗ", "ಘ", "ಙ"},
	{"ಅ", "ಆ", "ಇ", "ಈ", "ಉ"},
	// Tamil: vowels (the usual labels).
	{"அ", "ஆ", "இ", "ஈ", "உ"},
	// Malayalam: consonants, vowels, and A B C D spelled out.
	{"ക", "ഖ", "ഗ", "ഘ", "ങ"},
	{"അ", "ആ", "ഇ", "ഈ", "ഉ"},
	{"എ", "ബി", "സി", "ഡി"},
}

var letterIndex = func() map[string]int {
	m := map[string]int{}
	for _, s := range letterSeries {
		for i, l := range s {
			l = norm.NFC.String(l)
			if j, dup := m[l]; dup && j != i {
				panic("mc: option letter " + l + " means two positions")
			}
			m[l] = i
		}
	}
	return m
}()

// labelPrefixes are words that may precede the letter in a prediction
// ("Answer: B", "Option C", "उत्तर: ख", "উত্তর: গ").
var labelPrefixes = []string{"answer", "option", "उत्तर", "विकल्प", "উত্তর", "বিকল্প"}

// LetterIndex returns the 0-based position an option label names: a
// Latin letter (A or a is 0, up to Z), an ASCII or Indic digit (1 is 0,
// up to 9), or an option letter of an Indic script (क, ক, অ, அ, എ, ...;
// see letterSeries). Surrounding whitespace and punctuation are ignored,
// as is a leading "Answer", "Option", उत्तर or উত্তর ("(B)", "B.", "Answer:
// B" and "উত্তর: খ" all work). It reports false for anything else,
// including a whole sentence.
func LetterIndex(label string) (int, bool) {
	s := trimLabel(label)
	low := strings.ToLower(s)
	for _, p := range labelPrefixes {
		if strings.HasPrefix(low, p) && len(s) > len(p) {
			rest := trimLabel(s[len(p):])
			if rest != "" && rest != s {
				s = rest
				break
			}
		}
	}
	if s == "" {
		return 0, false
	}
	r, n := utf8.DecodeRuneInString(s)
	if n == len(s) {
		switch {
		case 'a' <= r && r <= 'z':
			return int(r - 'a'), true
		case 'A' <= r && r <= 'Z':
			return int(r - 'A'), true
		case digitValue(r) >= 1:
			return digitValue(r) - 1, true
		}
	}
	i, ok := letterIndex[norm.NFC.String(s)]
	return i, ok
}

// digitZeros are the code points of the digit zero in ASCII and the
// Indic scripts.
var digitZeros = [...]rune{'0', 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6, 0x0D66}

// digitValue returns the value of an ASCII or Indic decimal digit, or −1.
func digitValue(r rune) int {
	for _, z := range digitZeros {
		if r >= z && r <= z+9 {
			return int(r - z)
		}
	}
	return -1
}

// trimLabel removes whitespace, punctuation and symbols at both ends.
func trimLabel(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsSymbol(r)
	})
}

// Letter returns the Latin letter of position i (0 is "A"), or the
// number i+1 past Z.
func Letter(i int) string {
	if i >= 0 && i < 26 {
		return string(rune('A' + i))
	}
	return strconv.Itoa(i + 1)
}
