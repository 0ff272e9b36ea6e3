package results

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
)

func TestInvisible(t *testing.T) {
	// "abc", RLO, "fed", PDF: a reader sees "abcdef". Two controls.
	s := "abc\u202Efed\u202C"
	if n := CountInvisible(s); n != 2 {
		t.Errorf("count %d, want 2", n)
	}
	if got := ShowInvisible(s); got != "abc<U+202E>fed<U+202C>" {
		t.Errorf("shown %q", got)
	}
	// One of each kind named in the code: LRE..RLO (5), LRI..PDI (4),
	// LRM, RLM, ALM, ZWSP, BOM, a C0 and a C1 control: 16.
	all := "\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C\u200B\uFEFF\x07\u0085"
	if n := CountInvisible(all); n != 16 {
		t.Errorf("count %d, want 16", n)
	}
	// Hindi with ZWJ/ZWNJ, tab and line breaks, and a soft hyphen's
	// neighbour é: none of it is a control.
	if n := CountInvisible("क्\u200Dष\u200Cज\tतेरा\r\né"); n != 0 {
		t.Errorf("Indic text counted %d", n)
	}
	w := BidiRowsWarning(2, []int{3, 9}, "the response")
	if w.Code != "bidi_controls" || w.Count != 2 || w.Message[:42] != "2 rows hold bidi or invisible control char" {
		t.Errorf("rows warning %+v", w)
	}
}

// HasInvisible agrees with CountInvisible on every code point, alone and
// between Latin and Devanagari text, and on invalid UTF-8.
func TestHasInvisibleEveryRune(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		for _, s := range []string{string(r), "a" + string(r) + "क"} {
			if got, want := HasInvisible(s), CountInvisible(s) > 0; got != want {
				t.Fatalf("U+%04X in %q: HasInvisible %v, CountInvisible>0 %v", r, s, got, want)
			}
		}
	}
	for _, s := range []string{"\xff", "ab\xe0", "\xe2\x80", "ভারত \u202e", "\xe5\x00", "\xe0\x00\x01", "\xe0\xa4\x00", "\xc3\x07", "\xf1\x80\x80\x00", "क\xe0\xa4"} {
		if got, want := HasInvisible(s), CountInvisible(s) > 0; got != want {
			t.Errorf("%q: HasInvisible %v, CountInvisible>0 %v", s, got, want)
		}
	}
}

// HasInvisible agrees with CountInvisible on random byte strings drawn
// from the bytes it treats specially (seeded, so the same strings each
// run).
func TestHasInvisibleRandomBytes(t *testing.T) {
	alphabet := []byte{0x00, 0x07, '\t', 'a', 0x7F, 0x80, 0x9C, 0xA2, 0xA3, 0xA4, 0xAD, 0xBF, 0xC2, 0xC3, 0xD8, 0xDB, 0xE0, 0xE2, 0xE5, 0xEF, 0xF0, 0xF1, 0xF3, 0xFF}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 200000; n++ {
		b := make([]byte, rng.IntN(10))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if got, want := HasInvisible(string(b)), CountInvisible(string(b)) > 0; got != want {
			t.Fatalf("%q: HasInvisible %v, CountInvisible>0 %v", b, got, want)
		}
	}
}

// HasInvisible agrees with CountInvisible on longer text: every
// code point at eight offsets between Devanagari
// and Latin text, and random
// strings of up to 40 bytes from the special bytes.
func TestHasInvisibleWords(t *testing.T) {
	pads := []string{"", "a", "ab", "क", "कa", "abcde", "कक", "abcdefg"}
	for r := rune(0); r <= 0x10000; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		for _, p := range pads {
			s := p + string(r) + "कखग abc घ"
			if got, want := HasInvisible(s), CountInvisible(s) > 0; got != want {
				t.Fatalf("U+%04X in %q: HasInvisible %v, CountInvisible>0 %v", r, s, got, want)
			}
		}
	}
	alphabet := []byte{0x00, '\t', '\n', 'a', ' ', 0x7F, 0x80, 0x90, 0xA2, 0xA3, 0xA4, 0xAD, 0xBF, 0xC2, 0xC3, 0xD8, 0xE0, 0xE2, 0xE5, 0xEF, 0xF0, 0xF3, 0xFF}
	rng := rand.New(rand.NewPCG(7, 8))
	for n := 0; n < 200000; n++ {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
			if rng.IntN(3) > 0 {
				b[i] = "aकख "[rng.IntN(len("aकख "))] // mostly quiet bytes, so that whole words pass
			}
		}
		if got, want := HasInvisible(string(b)), CountInvisible(string(b)) > 0; got != want {
			t.Fatalf("%q: HasInvisible %v, CountInvisible>0 %v", b, got, want)
		}
	}
}

// BenchmarkHasInvisible scans English, Hindi and Bengali text with no
// invisible character (the common case).
func BenchmarkHasInvisible(b *testing.B) {
	s := strings.Repeat("The capital of France is Paris, said the model. भारत की राजधानी नई दिल्ली है। বাংলাদেশের রাজধানী ঢাকা। ", 20)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if HasInvisible(s) {
			b.Fatal("invisible")
		}
	}
}
