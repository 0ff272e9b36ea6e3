package score

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/textnorm"
)

// TestIsBlankBytesEveryCodePoint holds isBlankBytes to textnorm.IsBlank
// on every code point alone, after a space and before a letter, and on
// every single byte (most of them invalid UTF-8) alone and after a space.
func TestIsBlankBytesEveryCodePoint(t *testing.T) {
	check := func(s string) {
		if got, want := isBlankBytes([]byte(s)), textnorm.IsBlank(s); got != want {
			t.Fatalf("isBlankBytes(%+q) = %v, textnorm.IsBlank says %v", s, got, want)
		}
	}
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		c := string(r)
		check(c)
		check(" " + c)
		check(c + "a")
	}
	for b := range 256 {
		check(string([]byte{byte(b)}))
		check(" " + string([]byte{byte(b)}))
	}
}

// wordsRef is words as it was before it stepped over Indic runes three
// bytes at a time: byte by byte, each byte that may start whitespace
// decoded.
func wordsRef(buf []byte) []span {
	var sp []span
	i := 0
	for i < len(buf) {
		sp1, n := spaceAt(buf, i)
		if sp1 {
			i += n
			continue
		}
		j := i
		for j < len(buf) {
			if byteClass[buf[j]] == 0 {
				j++
				continue
			}
			isSp, n := spaceAt(buf, j)
			if isSp {
				break
			}
			j += n
		}
		a, b := i, j
		for a < b && textnorm.IsASCIIPunct(buf[a]) {
			a++
		}
		for b > a && textnorm.IsASCIIPunct(buf[b-1]) {
			b--
		}
		sp = append(sp, span{int32(a), int32(b)})
		i = j
	}
	return sp
}

// TestWordsMatchesByteByByte holds words to wordsRef on texts of every
// length up to 40 bytes built from Indic and Latin words, every kind of
// whitespace (ASCII, U+0085, U+00A0, U+1680, U+2003, U+200A, U+2028,
// U+3000), characters with the same lead bytes that are not whitespace
// (U+00E9, U+1681, U+200B, U+3001), controls, punctuation and stray or
// truncated bytes (an E0 before a space, E0 with one continuation byte).
func TestWordsMatchesByteByByte(t *testing.T) {
	parts := []string{"नदी", "গঙ্গা", "a", "delhi", "x", " ", "  ", "\t", "\n", "\x1c", "\x01", "\u0085", "\u00a0", "\u1680", "\u2003",
		"\u200a", "\u2028", "\u3000", "\u00e9", "\u1681", "\u200b", "\u3001", ",", "(", ")", "-", "।", "\xe0", "\xe0\xa4", "\xe0 ",
		"\xe0\x80\x80", "\xc2", "\xe1\x9a", "\xff"}
	rng := rand.New(rand.NewPCG(29, 8))
	var sp []span
	for n := range 41 {
		for range 3000 {
			var b []byte
			for len(b) < n {
				b = append(b, parts[rng.IntN(len(parts))]...)
			}
			b = b[:n]
			sp = words(b, sp)
			if want := wordsRef(b); !slices.Equal(sp, want) {
				t.Fatalf("words(%q) = %v, byte by byte %v", b, sp, want)
			}
		}
	}
}
