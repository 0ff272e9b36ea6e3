package textnorm

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// A Profile is a normalisation applied to both the golden answer and the
// response before any metric sees them. The zero value, None, changes
// nothing, which reproduces the seed protocols exactly.
type Profile int

const (
	// None leaves text unchanged.
	None Profile = iota
	// NFC applies Unicode canonical composition (NFC), so that the same
	// word typed as precomposed or decomposed code points compares equal.
	// For the nukta letters that Unicode excludes from composition (क़
	// U+0958, য় U+09DF, ড় U+09DC and their kin) NFC yields the decomposed
	// base + nukta form, so both spellings still meet in one form.
	NFC
	// Indic applies NFC, then removes zero-width joiner and non-joiner
	// (U+200D, U+200C), folds the decimal digits of the Indic scripts
	// (Devanagari, Bengali, Gurmukhi, Gujarati, Odia, Tamil, Telugu,
	// Kannada, Malayalam) to ASCII 0-9, and strips Unicode punctuation
	// (general category P, which includes the danda । and double danda ॥)
	// from both ends of every whitespace-separated token. Whitespace and
	// combining marks (matras, virama) are never touched.
	Indic
	// IndicStem applies Indic, then strips common Hindi and Bengali
	// inflectional suffixes from each word (StemWords: a light, documented
	// stripper, not a morphological analyser). It catches the seed's
	// amalak/Amalaka class of misses in those languages, and can merge
	// words that differ in meaning; use it as a second opinion.
	IndicStem
)

// Profiles lists the profile names in the order they are documented.
var Profiles = []string{"none", "nfc", "indic", "indic_stem"}

func (p Profile) String() string {
	if p >= 0 && int(p) < len(Profiles) {
		return Profiles[p]
	}
	return fmt.Sprintf("Profile(%d)", int(p))
}

// ParseProfile returns the profile with the given name (none, nfc, indic).
func ParseProfile(name string) (Profile, error) {
	for i, n := range Profiles {
		if strings.EqualFold(name, n) {
			return Profile(i), nil
		}
	}
	return None, fmt.Errorf("unknown normalisation profile %q (want one of %s)", name, strings.Join(Profiles, ", "))
}

// Apply returns s normalised under p.
func (p Profile) Apply(s string) string {
	switch p {
	case None:
		return s
	case NFC:
		if isASCII(s) {
			return s
		}
		return norm.NFC.String(s)
	}
	if p == IndicStem {
		return StemWords(string(Indic.AppendApply(nil, s)))
	}
	return string(p.AppendApply(nil, s))
}

// AppendApply appends Apply(s) to dst, reusing dst's capacity.
func (p Profile) AppendApply(dst []byte, s string) []byte {
	switch p {
	case None:
		return append(dst, s...)
	case NFC:
		if isASCII(s) {
			return append(dst, s...)
		}
		return norm.NFC.AppendString(dst, s)
	}
	if p == IndicStem {
		return append(dst, StemWords(string(Indic.AppendApply(nil, s)))...)
	}
	start := len(dst)
	if isASCII(s) {
		dst = append(dst, s...)
	} else {
		dst = norm.NFC.AppendString(dst, s)
	}
	// Remove ZWJ/ZWNJ and fold digits in place: both only shrink or keep length.
	w := start
	for r := start; r < len(dst); {
		c := dst[r]
		if c < utf8.RuneSelf {
			dst[w] = c
			w++
			r++
			continue
		}
		ru, n := utf8.DecodeRune(dst[r:])
		switch {
		case ru == 0x200C || ru == 0x200D:
			// dropped
		case indicDigit(ru) >= 0:
			dst[w] = byte('0' + indicDigit(ru))
			w++
		default:
			copy(dst[w:], dst[r:r+n])
			w += n
		}
		r += n
	}
	dst = dst[:w]
	return stripTokenPunct(dst, start)
}

// indicDigitZeros are the code points of digit zero in the Indic scripts.
var indicDigitZeros = [...]rune{0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6, 0x0D66}

// indicDigit returns the value of an Indic-script decimal digit, or -1.
func indicDigit(r rune) int {
	if r < 0x0966 || r > 0x0D6F {
		return -1
	}
	for _, z := range indicDigitZeros {
		if r >= z && r <= z+9 {
			return int(r - z)
		}
	}
	return -1
}

// FoldDigits returns s with Indic-script decimal digits replaced by ASCII
// digits, so that १९४७ and ১৯৪৭ both read 1947.
func FoldDigits(s string) string {
	var b []byte
	for i, r := range s {
		if d := indicDigit(r); d >= 0 {
			if b == nil {
				b = append(make([]byte, 0, len(s)), s[:i]...)
			}
			b = append(b, byte('0'+d))
		} else if b != nil {
			b = utf8.AppendRune(b, r)
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// stripTokenPunct removes Unicode punctuation at both ends of each
// whitespace-separated token in buf[start:], in place.
func stripTokenPunct(buf []byte, start int) []byte {
	w := start
	i := start
	for i < len(buf) {
		r, n := utf8.DecodeRune(buf[i:])
		if IsSpace(r) {
			copy(buf[w:], buf[i:i+n])
			w += n
			i += n
			continue
		}
		// A token: find its end.
		j := i
		for j < len(buf) {
			r2, n2 := utf8.DecodeRune(buf[j:])
			if IsSpace(r2) {
				break
			}
			j += n2
		}
		a, b := i, j
		for a < b {
			r2, n2 := utf8.DecodeRune(buf[a:b])
			if !unicode.IsPunct(r2) {
				break
			}
			a += n2
		}
		for b > a {
			r2, n2 := utf8.DecodeLastRune(buf[a:b])
			if !unicode.IsPunct(r2) {
				break
			}
			b -= n2
		}
		w += copy(buf[w:], buf[a:b])
		i = j
	}
	return buf[:w]
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
