package fasttext

import "unicode/utf8"

// MaybeSpaceLead reports whether a UTF-8 sequence starting with byte b
// can encode a Python whitespace character (textnorm.IsSpace). Only ASCII
// bytes and the lead bytes 0xC2 (U+0085, U+00A0), 0xE1 (U+1680), 0xE2
// (U+2000 to U+205F) and 0xE3 (U+3000) can; tokenisers use it to step over
// Indic text without decoding it.
func MaybeSpaceLead(b byte) bool {
	return b < utf8.RuneSelf || b == 0xC2 || b == 0xE1 || b == 0xE2 || b == 0xE3
}
