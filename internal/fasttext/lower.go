package fasttext

import (
	"unicode"
	"unicode/utf8"
)

// AppendLower appends s lower-cased exactly as Python 3's str.lower does
// to dst and returns the extended buffer (textnorm.Lower documents the two
// places where this differs from strings.ToLower). It allocates only when
// dst lacks capacity, so a caller scoring many rows can reuse one buffer.
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

// asciiLower maps each ASCII byte to its lower case (and any other byte
// to itself).
var asciiLower = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] += 'a' - 'A'
		}
	}
	return t
}()
