package results

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// WarnBidiControls is the code of the warning for text holding bidi or
// other invisible control characters (U+202E RIGHT-TO-LEFT OVERRIDE
// and friends), which can reorder or hide what a reader of a report
// sees: "abc\u202Efed" shows as "abcdef".
const WarnBidiControls = "bidi_controls"

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
	return Warning{Code: WarnBidiControls, Count: count, Lines: lines,
		Message: fmt.Sprintf("%s (bidi or invisible controls, such as U+202E RIGHT-TO-LEFT OVERRIDE) in %s: they can reorder or hide what a reader sees; the HTML report shows each as a mark like <U+202E>",
			plural(count, "character", "characters"), where)}
}

// BidiRowsWarning is the bidi_controls warning counted by rows, as a
// reader that notes one line per row holding controls gives it (qa's
// warnLine): rows rows hold them in where ("the response"), lines are
// the first of them.
func BidiRowsWarning(rows int, lines []int, where string) Warning {
	return Warning{Code: WarnBidiControls, Count: rows, Lines: lines,
		Message: fmt.Sprintf("%s bidi or invisible control characters (such as U+202E RIGHT-TO-LEFT OVERRIDE) in %s: they can reorder or hide what a reader sees; the HTML report shows each as a mark like <U+202E>",
			plural(rows, "row holds", "rows hold"), where)}
}
