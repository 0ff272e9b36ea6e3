package results

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CodeBidiControls is the code of the warning for text holding bidi or
// other invisible control characters (U+202E RIGHT-TO-LEFT OVERRIDE
// and friends), which can reorder or hide what a reader of a report
// sees: "abc\u202Efed" shows as "abcdef".
const CodeBidiControls = "bidi_controls"

// WarnBidiControls is CodeBidiControls' former name.
//
// Deprecated: use CodeBidiControls.
const WarnBidiControls = CodeBidiControls

// IsInvisible reports whether r is a character that changes or hides
// text without showing itself: the bidi embeddings, overrides and
// isolates (U+202A..U+202E, U+2066..U+2069), the marks U+200E, U+200F
// and U+061C, every other format character (Unicode category Cf: zero
// width space, word joiner, U+FEFF, tags), line and paragraph
// separators, and C0/C1 controls other than tab, line feed and carriage
// return. ZERO WIDTH NON-JOINER and ZERO WIDTH JOINER (U+200C, U+200D)
// are not: Devanagari and Bengali need them to spell words.
func IsInvisible(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r' || r == 0x200C || r == 0x200D:
		return false
	case r < 0x20 || (r >= 0x7F && r <= 0x9F), r == 0x2028, r == 0x2029:
		return true
	case r < 0xAD:
		return false
	}
	return unicode.Is(unicode.Cf, r)
}

// CountInvisible returns how many characters of s IsInvisible.
func CountInvisible(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7F || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if IsInvisible(r) {
			n++
		}
		i += size
	}
	return n
}

// HasInvisible reports whether s holds a character that IsInvisible, as
// CountInvisible(s) > 0 does, at the speed of a byte scan: only the
// bytes that can begin such a character (C0 controls, DEL, and the UTF-8
// lead bytes C2, D8, DB, DC, E0 A2/A3, E1, E2, EF, F0, F3, which cover
// C1 controls and every Cf character) are decoded, so Devanagari and
// Bengali text (E0 A4..A7) is stepped over. The scorer calls it on every
// response.
func HasInvisible(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7F {
				return true
			}
			i++
			continue
		}
		if c == 0xE0 && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 && s[i+1] != 0xA2 && s[i+1] != 0xA3 {
			i += 3 // Devanagari, Bengali and the rest of U+0800..U+0FFF but U+0880..U+08FF: no Cf character
			continue
		}
		switch k := maybeInvisible[c]; k {
		case 2, 3:
			if r, _ := utf8.DecodeRuneInString(s[i:]); IsInvisible(r) {
				return true
			}
		case 0:
		default:
			i += tail(s, i, int(k-4)) // the lead byte of a character with no Cf: step over its continuation bytes
		}
		i++
	}
	return false
}

// tail is k when the k bytes after s[i] are continuation bytes, else 0
// (invalid UTF-8 is then stepped through byte by byte, as
// CountInvisible decodes it).
func tail(s string, i, k int) int {
	if i+k >= len(s) {
		return 0
	}
	for j := 1; j <= k; j++ {
		if s[i+j]&0xC0 != 0x80 {
			return 0
		}
	}
	return k
}

// maybeInvisible classes the bytes for HasInvisible: 0 steps on, 1 is
// invisible by itself (C0 controls but tab, LF, CR; DEL), 2 a lead byte
// to decode, 3 E0 (decoded only before A2 or A3, U+0880..U+08FF), and
// 4+k the lead byte of a k-byte tail whose characters are never Cf.
var maybeInvisible = func() (t [256]byte) {
	for c := 0; c < 0x20; c++ {
		t[c] = 1
	}
	t['\t'], t['\n'], t['\r'], t[0x7F] = 0, 0, 0, 1
	for c := 0xC3; c <= 0xDF; c++ {
		t[c] = 4 + 1
	}
	for c := 0xE3; c <= 0xEE; c++ {
		t[c] = 4 + 2
	}
	for _, c := range []int{0xF1, 0xF2, 0xF4} {
		t[c] = 4 + 3
	}
	for _, c := range []byte{0xC2, 0xD8, 0xDB, 0xDC, 0xE1, 0xE2, 0xEF, 0xF0, 0xF3} {
		t[c] = 2
	}
	t[0xE0] = 3
	return t
}()

// ShowInvisible returns s with each invisible character written as a
// visible mark, <U+202E>, for a plain-text context (an SVG label, an
// attribute); the caller escapes the result as usual.
func ShowInvisible(s string) string {
	if CountInvisible(s) == 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if IsInvisible(r) {
			fmt.Fprintf(&b, "<U+%04X>", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// BidiWarning returns the bidi_controls warning for count invisible
// characters found in the rows on lines (the first few), where says
// what held them ("responses", "the page's text").
func BidiWarning(count int, lines []int, where string) Warning {
	return Warning{Code: CodeBidiControls, Count: count, Lines: lines,
		Message: fmt.Sprintf("%s (bidi or invisible controls, such as U+202E RIGHT-TO-LEFT OVERRIDE) in %s: they can reorder or hide what a reader sees; the HTML report shows each as a mark like <U+202E>",
			plural(count, "character", "characters"), where)}
}

// BidiRowsWarning is the bidi_controls warning counted by rows, as a
// reader that notes one line per row holding controls gives it (qa's
// warnLine): rows rows hold them in where ("the response"), lines are
// the first of them.
func BidiRowsWarning(rows int, lines []int, where string) Warning {
	return Warning{Code: CodeBidiControls, Count: rows, Lines: lines,
		Message: fmt.Sprintf("%s bidi or invisible control characters (such as U+202E RIGHT-TO-LEFT OVERRIDE) in %s: they can reorder or hide what a reader sees; the HTML report shows each as a mark like <U+202E>",
			plural(rows, "row holds", "rows hold"), where)}
}
