package fasttext

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkBlock holds ValidUTF8Block to utf8.ValidString on s.
func checkBlock(t *testing.T, s string) {
	t.Helper()
	if got, want := ValidUTF8Block(s), utf8.ValidString(s); got != want {
		t.Fatalf("ValidUTF8Block(%q) = %v, utf8.ValidString %v", s, got, want)
	}
}

// Every sequence of one to four bytes that matters to UTF-8 (each byte
// from a set of edge values of every class: ASCII, continuations at the
// ends of their ranges, every lead byte's edges, the bytes that are
// never valid), valid or not, is put at every offset from 0 to 70 of a
// 96-byte string of ASCII or of Indic text, so that it meets both
// 32-byte block boundaries and the tail, and the string is checked
// against utf8.ValidString.
func TestValidUTF8BlockSequences(t *testing.T) {
	if !hasAVX2 {
		t.Log("no AVX2 here: ValidUTF8Block is ValidUTF8, tested against utf8 as such")
	}
	edges := []byte{0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
		0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF7, 0xF8, 0xFF}
	fills := []string{strings.Repeat("a", 96), strings.Repeat("অ", 32), strings.Repeat("क ", 24)}
	var seqs [][]byte
	for _, a := range edges {
		seqs = append(seqs, []byte{a})
		for _, b := range edges {
			seqs = append(seqs, []byte{a, b})
			if a < 0xC0 {
				continue // a third and fourth byte matter after a lead byte only
			}
			for _, c := range edges {
				seqs = append(seqs, []byte{a, b, c})
				if a >= 0xF0 {
					for _, d := range []byte{0x41, 0x80, 0xBF, 0xC2} {
						seqs = append(seqs, []byte{a, b, c, d})
					}
				}
			}
		}
	}
	n := 0
	for _, fill := range fills {
		for _, q := range seqs {
			for off := 0; off+len(q) <= 96 && off <= 70; off++ {
				b := []byte(fill[:96])
				copy(b[off:], q)
				checkBlock(t, string(b))
				n++
			}
		}
	}
	t.Logf("%d strings", n)
}

// Random text of every script class with random bytes changed, at
// lengths around the block sizes, against utf8.ValidString.
func TestValidUTF8BlockRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	runes := []rune{'a', ' ', ',', 'é', 'অ', 'ক', '্', 'ा', '\u0964', '€', '\u200d', '😀', '\U0010FFFF', '\uFFFD'}
	for range 20000 {
		var sb strings.Builder
		for sb.Len() < 32+rng.IntN(200) {
			sb.WriteRune(runes[rng.IntN(len(runes))])
		}
		b := []byte(sb.String())
		checkBlock(t, string(b))
		for range 1 + rng.IntN(3) {
			b[rng.IntN(len(b))] = byte(rng.Uint32())
		}
		checkBlock(t, string(b))
		checkBlock(t, string(b[:len(b)-1-rng.IntN(3)])) // a sequence cut short at the end
	}
}

func BenchmarkValidUTF8Block(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 256<<10 {
		sb.WriteString("q0000001,\"কোন ভাষা শাসন মুদ্রা পশ্চিম বড় যে,?\",থর,Technology,থর। কম্পিউটার শ্রেণী,bn,heron-13b\n")
	}
	s := sb.String()
	b.SetBytes(int64(len(s)))
	b.Run("block", func(b *testing.B) {
		for b.Loop() {
			if !ValidUTF8Block(s) {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("scalar", func(b *testing.B) {
		for b.Loop() {
			if !ValidUTF8(s) {
				b.Fatal("invalid")
			}
		}
	})
}
