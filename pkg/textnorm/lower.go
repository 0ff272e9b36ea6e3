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

	"github.com/evalbook/evalbook/internal/fasttext"
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
	return fasttext.AppendLower(dst, s)
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
		if !fasttext.MaybeSpaceLead(c) {
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
	} else if fasttext.MaybeSpaceLead(c) {
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
