package fasttext

import (
	"unicode"
	"unicode/utf8"
)

// WordSpans appends to dst the [start, end) byte offsets of the words of
// s, as textnorm.Words defines them, and returns the extended slice: the
// maximal runs of IsWordRune characters, with a zero-width joiner or
// non-joiner (U+200D, U+200C) kept inside a word only when a word
// character follows it. It allocates only when dst lacks capacity.
func WordSpans(s string, dst [][2]int) [][2]int {
	start := -1
	for i := 0; i < len(s); {
		c := s[i]
		var r rune
		n := 1
		if c < utf8.RuneSelf {
			r = rune(c)
		} else {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		if IsWordRune(r) {
			if start < 0 {
				start = i
			}
		} else if (r == 0x200C || r == 0x200D) && start >= 0 && i+n < len(s) {
			// A joiner stays inside the word only if a word character follows.
			if r2, _ := utf8.DecodeRuneInString(s[i+n:]); !IsWordRune(r2) {
				dst = append(dst, [2]int{start, i})
				start = -1
			}
		} else if start >= 0 {
			dst = append(dst, [2]int{start, i})
			start = -1
		}
		i += n
	}
	if start >= 0 {
		end := len(s)
		// A trailing joiner is not part of the word.
		for end > start {
			r, n := utf8.DecodeLastRuneInString(s[start:end])
			if r != 0x200C && r != 0x200D {
				break
			}
			end -= n
		}
		dst = append(dst, [2]int{start, end})
	}
	return dst
}

// IsWordRune reports whether r is a letter, a combining mark or a number:
// the characters textnorm.Words keeps together.
func IsWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r|0x20 && r|0x20 <= 'z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r)
}
