package fasttext

import (
	"encoding/binary"
	"unicode/utf8"
	"unsafe"
)

// ValidUTF8 reports whether s is valid UTF-8, as utf8.ValidString does,
// faster on Indic text: runes from U+0800 to U+0FFF (every Indic script)
// are checked three bytes at a time without decoding, and ASCII eight
// bytes at a time. Anything else is decoded by the standard library.
func ValidUTF8(s string) bool {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			for i+8 <= len(s) {
				w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
					uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
				if w&0x8080808080808080 != 0 {
					break
				}
				i += 8
			}
			for i < len(s) && s[i] < utf8.RuneSelf {
				i++
			}
			continue
		}
		if c == 0xE0 && i+3 <= len(s) && s[i+1]&0xE0 == 0xA0 && s[i+2]&0xC0 == 0x80 {
			// E0, then A0 to BF, then a continuation byte: U+0800 to
			// U+0FFF. Indic text is runs of these with single spaces
			// between words: skipIndic takes both.
			i = skipIndic(s, i)
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return false
		}
		i += n
	}
	return true
}

// skipIndic returns the end of the run of runes from U+0800 to U+0FFF,
// each with or without a space after it, that starts at s[i], for
// ValidUTF8. It tests up to two runes per eight bytes it reads (the
// masks of indic.go); whether a space follows a rune is a branch
// (indicStep), which the processor predicts, so that it reads on.
func skipIndic(s string, i int) int {
	p := unsafe.Pointer(unsafe.StringData(s))
	for i+8 <= len(s) {
		w := binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, i))[:])
		if w&indicMask != indicBits {
			return i
		}
		n := indicStep(w)
		if w2 := w >> (8 * uint(n)); w2&indicMask == indicBits {
			n += indicStep(w2)
		}
		i += n
	}
	for i+3 <= len(s) && s[i] == 0xE0 && s[i+1]&0xE0 == 0xA0 && s[i+2]&0xC0 == 0x80 {
		i += 3
		if i < len(s) && s[i] == ' ' {
			i++
		}
	}
	return i
}
