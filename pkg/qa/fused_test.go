package qa

import (
	"math/rand/v2"
	"testing"
	"unicode"

	"github.com/evalbook/evalbook/internal/fasttext"
	"github.com/evalbook/evalbook/pkg/results"
)

// TestInvisibleDefinitionsAgree holds fasttext.IsInvisible, which the
// scoring loop's fused pass uses, to results.IsInvisible, the definition
// the reports use, on every code point.
func TestInvisibleDefinitionsAgree(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if fasttext.IsInvisible(r) != results.IsInvisible(r) {
			t.Fatalf("U+%04X: fasttext.IsInvisible %v, results.IsInvisible %v", r, fasttext.IsInvisible(r), results.IsInvisible(r))
		}
	}
}

// TestLowerScanMatchesHasInvisible checks the invisible result of
// fasttext.AppendLowerScan against results.HasInvisible (the check the
// scoring loop ran as a pass of its own before) on strings built from
// ASCII, Devanagari, Bengali, U+0880..U+08FF, bidi controls, C0 and C1
// controls, Latin-1 letters and invalid bytes, in random order.
func TestLowerScanMatchesHasInvisible(t *testing.T) {
	parts := []string{"a", "QUICK", "brown fox ", "\t", "\n", "\r", "\x01", "\x7f", "\x1f", "हिन्दी", "বাংলা", "\u0890", "\u08e2", "\u08a0",
		"\u202e", "\u2066", "\u200b", "\u200c", "\u200d", "\ufeff", "\u00ad", "\u0085", "\u2028", "É", "ß", "Σ", "\xff", "\xe0\xa2", "\xed\xa0\x80", "\U000E0041", "12345678"}
	rng := rand.New(rand.NewPCG(29, 6))
	var buf []byte
	for range 200000 {
		s := ""
		for range 1 + rng.IntN(8) {
			s += parts[rng.IntN(len(parts))]
		}
		var inv bool
		buf, _, _, inv = fasttext.AppendLowerScan(buf[:0], s)
		if want := results.HasInvisible(s); inv != want {
			t.Fatalf("AppendLowerScan(%+q) says invisible %v, results.HasInvisible says %v", s, inv, want)
		}
	}
}
