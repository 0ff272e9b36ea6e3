// Package textnorm holds the text handling every metric relies on:
// lower-casing and whitespace splitting that behave exactly like Python's
// str.lower and str.split (so that the seed scripts' verdicts reproduce),
// punctuation stripping, and opt-in Unicode normalisation profiles for
// Indic text.
//
// Nothing here normalises unless asked: the default profile (None) leaves
// text byte-for-byte as it came, which is what the seed protocols do.
// Lower-casing is not normalisation: it changes nothing in Devanagari or
// Bengali, and it does not unify NFC and NFD forms.
package textnorm

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Lower returns s lower-cased exactly as Python 3's str.lower does.
//
// It differs from strings.ToLower in two places, both from Unicode's full
// case mapping: U+0130 (İ) becomes "i" followed by U+0307 COMBINING DOT
// ABOVE, and a capital sigma at the end of a word becomes final sigma ς
// (U+03C2) instead of σ. ASCII-only input takes a fast path.
func Lower(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return string(AppendLower(nil, s))
		}
		if 'A' <= c && c <= 'Z' {
			return string(AppendLower(make([]byte, 0, len(s)), s))
		}
	}
	return s
}

// AppendLower appends Lower(s) to dst and returns the extended buffer.
// It allocates only when dst lacks capacity, so a caller scoring many rows
// can reuse one buffer.
func AppendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		if c == 0xE0 && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80 {
			// U+0800 to U+0FFF (every Indic script): no case at all.
			dst = append(dst, c, s[i+1], s[i+2])
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		dst = appendLowerRune(dst, s, i, r, size)
		i += size
	}
	return dst
}

// appendLowerRune appends the lower case of the non-ASCII rune r, which
// is s[i:i+size].
func appendLowerRune(dst []byte, s string, i int, r rune, size int) []byte {
	switch {
	case r >= caselessLo && r < caselessHi:
		return append(dst, s[i:i+size]...)
	case r == utf8.RuneError && size == 1:
		// Keep invalid bytes as they are; callers validate UTF-8 earlier.
		return append(dst, s[i])
	case r == 'İ':
		return append(dst, 'i', 0xCC, 0x87) // i + U+0307
	case r == 'Σ':
		if finalSigma(s, i, size) {
			return utf8.AppendRune(dst, 'ς')
		}
		return utf8.AppendRune(dst, 'σ')
	}
	return utf8.AppendRune(dst, unicode.ToLower(r))
}

// Code points from Hebrew to Myanmar (U+0590 to U+109F), which include
// every Indic script, have no case mappings at all; AppendLower copies
// them without a table lookup. TestLowerEveryCodePoint checks this
// against Python for every code point.
const caselessLo, caselessHi = 0x0590, 0x10A0

// finalSigma reports whether the capital sigma at s[i:i+size] is in
// Unicode's Final_Sigma context, the rule Python applies:
//
//	\p{Cased} \p{Case_Ignorable}* Σ  not followed by  \p{Case_Ignorable}* \p{Cased}
func finalSigma(s string, i, size int) bool {
	before := false
	for j := i; j > 0; {
		r, n := utf8.DecodeLastRuneInString(s[:j])
		j -= n
		if caseIgnorable(r) {
			continue
		}
		before = cased(r)
		break
	}
	if !before {
		return false
	}
	for j := i + size; j < len(s); {
		r, n := utf8.DecodeRuneInString(s[j:])
		j += n
		if caseIgnorable(r) {
			continue
		}
		return !cased(r)
	}
	return true
}

// cased is Unicode's Cased property: Lowercase, Uppercase or Lt.
func cased(r rune) bool {
	return unicode.IsLower(r) || unicode.IsUpper(r) || unicode.IsTitle(r) ||
		unicode.Is(unicode.Other_Lowercase, r) || unicode.Is(unicode.Other_Uppercase, r)
}

// caseIgnorable approximates Unicode's Case_Ignorable property: the
// general categories Mn, Me, Cf, Lm and Sk, plus the Word_Break classes
// MidLetter, MidNumLet and Single_Quote, listed here by code point because
// Go's unicode package has no Word_Break tables.
func caseIgnorable(r rune) bool {
	switch r {
	case '\'', '.', ':', '^', '`', 0x00B7, 0x0387, 0x055F, 0x05F4, 0x2018, 0x2019,
		0x2024, 0x2027, 0xFE13, 0xFE52, 0xFE55, 0xFF07, 0xFF0E, 0xFF1A:
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk)
}

// IsSpace reports whether Python's str.isspace is true for r, which is the
// set str.split() splits on. It is unicode.IsSpace plus the four ASCII
// information separators U+001C to U+001F, which Python counts as
// whitespace and Go does not.
func IsSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiSpace[r]
	}
	if r > 0xA0 && r < 0x1680 {
		// No white space between NO-BREAK SPACE and OGHAM SPACE MARK:
		// every Indic script answers here without a table search.
		return false
	}
	return unicode.IsSpace(r)
}

var asciiSpace = [utf8.RuneSelf]bool{
	'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true,
	0x1c: true, 0x1d: true, 0x1e: true, 0x1f: true,
}

// MaybeSpaceLead reports whether a UTF-8 sequence starting with byte b
// can encode a Python whitespace character. Only ASCII bytes and the lead
// bytes 0xC2 (U+0085, U+00A0), 0xE1 (U+1680), 0xE2 (U+2000 to U+205F) and
// 0xE3 (U+3000) can; tokenisers use it to step over Indic text without
// decoding it.
func MaybeSpaceLead(b byte) bool {
	return b < utf8.RuneSelf || b == 0xC2 || b == 0xE1 || b == 0xE2 || b == 0xE3
}

// Fields splits s around runs of Python whitespace, exactly as Python's
// str.split() with no arguments: no empty strings, leading and trailing
// whitespace ignored.
func Fields(s string) []string {
	return strings.FieldsFunc(s, IsSpace)
}

// Strip removes leading and trailing Python whitespace, like str.strip().
func Strip(s string) string {
	return strings.TrimFunc(s, IsSpace)
}

// IsBlank reports whether s is empty after Strip.
func IsBlank(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if !asciiSpace[c] {
				return false
			}
			i++
			continue
		}
		if !MaybeSpaceLead(c) {
			return false // e.g. any Indic letter: no need to decode it
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !IsSpace(r) {
			return false
		}
		i += n
	}
	return true
}

// HasOuterSpace reports whether Strip(s) != s, that is whether s starts
// or ends with Python whitespace, without building the stripped string:
// the scoring loop asks it of every golden answer.
func HasOuterSpace(s string) bool {
	if s == "" {
		return false
	}
	if c := s[0]; c < utf8.RuneSelf {
		if asciiSpace[c] {
			return true
		}
	} else if MaybeSpaceLead(c) {
		if r, _ := utf8.DecodeRuneInString(s); IsSpace(r) {
			return true
		}
	}
	if c := s[len(s)-1]; c < utf8.RuneSelf {
		return asciiSpace[c]
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return IsSpace(r)
}

// ASCIIPunctuation is Python's string.punctuation: the 32 ASCII
// punctuation and symbol characters.
const ASCIIPunctuation = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

var isASCIIPunct = func() (t [256]bool) {
	for i := 0; i < len(ASCIIPunctuation); i++ {
		t[ASCIIPunctuation[i]] = true
	}
	return t
}()

// IsASCIIPunct reports whether b is one of ASCIIPunctuation.
func IsASCIIPunct(b byte) bool { return isASCIIPunct[b] }

// StripASCIIPunct removes leading and trailing characters of
// ASCIIPunctuation, like Python's s.strip(string.punctuation). The danda
// and other non-ASCII punctuation are kept: that is the seed protocol.
func StripASCIIPunct(s string) string {
	i, j := 0, len(s)
	for i < j && isASCIIPunct[s[i]] {
		i++
	}
	for j > i && isASCIIPunct[s[j-1]] {
		j--
	}
	return s[i:j]
}
