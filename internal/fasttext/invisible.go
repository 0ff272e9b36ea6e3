package fasttext

import "unicode"

// IsInvisible reports whether r is a character that changes or hides
// text without showing itself, exactly as results.IsInvisible does (the
// definition and its reasons are there; a test in pkg/qa holds the two to
// each other on every code point). It lives here too so that
// AppendLowerScan can look for such characters in the pass that lowers
// the text, without fasttext importing pkg/results.
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

// invisibleASCII reports whether the ASCII byte c IsInvisible: a C0
// control other than tab, line feed and carriage return, or DEL.
func invisibleASCII(c byte) bool {
	return c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7F
}

// maybeInvisible8 reports whether one of the eight ASCII bytes packed in
// w (none has its high bit set) may be invisible: a byte below 0x20 or
// DEL. Tab, line feed and carriage return also set it; the caller checks
// the bytes one by one then.
func maybeInvisible8(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below20 := (w - 0x20*ones) &^ w & highs // exact for bytes below 0x80
	d := w ^ 0x7F*ones
	del := (d - ones) &^ d & highs
	return below20|del != 0
}

// invisibleIn reports whether one of the ASCII bytes of b IsInvisible.
func invisibleIn(b []byte) bool {
	for _, c := range b {
		if invisibleASCII(c) {
			return true
		}
	}
	return false
}
