package fasttext

import (
	"encoding/csv"
	"os"
	"testing"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/unicode/norm"
)

// Every code point alone, and every pair within the Indic blocks
// (U+0900-U+0DFF), gets the same answer as x/text.
func TestIsNFCExhaustive(t *testing.T) {
	for r := rune(0); r <= 0x10FFFF; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		s := string(r)
		if IsNFC(s) != norm.NFC.IsNormalString(s) {
			t.Fatalf("IsNFC(U+%04X) disagrees with x/text", r)
		}
		if l, nfc, valid := AppendLowerCheck(nil, s); nfc != IsNFC(s) || string(l) != string(AppendLower(nil, s)) || !valid {
			t.Fatalf("AppendLowerCheck(U+%04X) = %q, %v, %v", r, l, nfc, valid)
		}
	}
	if testing.Short() {
		return
	}
	for a := rune(0x0900); a < 0x0E00; a++ {
		for b := rune(0x0900); b < 0x0E00; b++ {
			s := string([]rune{a, b})
			if IsNFC(s) != norm.NFC.IsNormalString(s) {
				t.Fatalf("IsNFC(U+%04X U+%04X) disagrees with x/text", a, b)
			}
		}
	}
}

// Triples exercise blocking: a starter, a mark, then a mark or a
// character that may compose with the starter.
func TestIsNFCTriples(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	check := func(rs ...rune) {
		s := string(rs)
		if IsNFC(s) != norm.NFC.IsNormalString(s) {
			t.Fatalf("IsNFC(%+q) = %v, x/text says %v", s, IsNFC(s), !IsNFC(s))
		}
	}
	for a := rune(0x0980); a < 0x0A00; a++ { // Bengali
		for b := rune(0x0980); b < 0x0A00; b++ {
			for c := rune(0x0980); c < 0x0A00; c++ {
				check(a, b, c)
			}
		}
	}
	marks := []rune{0x0300, 0x0301, 0x0302, 0x0303, 0x0308, 0x030A, 0x030C, 0x0323, 0x0327, 0x0328, 0x0331, 0x0345, 0x093C, 0x094D, 0x0B3C, 0x05B4}
	for _, a := range []rune{'a', 'e', 'o', 'u', 'A', 0x03B1, 0x0915, 0x0B21, 0x1100, 0xAC00} {
		for _, b := range marks {
			for _, c := range marks {
				check(a, b, c)
				check(a, b, c, 0x0301)
			}
		}
	}
}

// FuzzIsNFC holds IsNFC to x/text on valid UTF-8.
func FuzzIsNFC(f *testing.F) {
	for _, s := range []string{"हिन्दी", "\u0958", "e\u0301", "ক\u09c7\u09be", "a\u0301\u0323"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		if IsNFC(s) != norm.NFC.IsNormalString(s) {
			t.Fatalf("IsNFC(%+q) disagrees with x/text", s)
		}
	})
}

// FuzzAppendLowerCheck holds AppendLowerCheck to AppendLower, IsNFC and
// utf8.ValidString, and ValidUTF8 to utf8.ValidString.
func FuzzAppendLowerCheck(f *testing.F) {
	for _, s := range []string{"हिन्दी", "\u0958", "İΣΑΣ e\u0301", "ক\u09c7\u09be", "\xff\u0301", "ΌΣΟΣ'",
		"THE QUICK BROWN FOX\u030A, @[`{ AND HIS ÅNGSTRÖM", "ABCDEFGH\u030A", "\xe0\x9f\xbf\xe0\xa0", "\xed\xa0\x80 \xef\xbf\xbf", "Delhi और ঢাকা: QUESTIONS\u0958\u093c",
		"abc\u202Efed", "ABCDEFGH\x01", "tab\there\nand\r ok", "ABCDEFG\x7f", "\u0890 \u08e2 \u0891", "हिन्दी\u2066", "\xed\xa0\x80\u200b", "\u200c\u200d", "\xc2\x85", "x\U000E0041"} {
		f.Add(s)
	}
	f.Fuzz(checkLowerScan)
}

// checkLowerScan holds AppendLowerCheck, AppendLowerScan and
// LowerScanView on s to AppendLower, IsNFC, utf8.ValidString and
// IsInvisible rune by rune, and ValidUTF8 to utf8.ValidString.
func checkLowerScan(t *testing.T, s string) {
	t.Helper()
	got, nfc, valid := AppendLowerCheck([]byte("x"), s)
	if want := "x" + string(AppendLower(nil, s)); string(got) != want {
		t.Fatalf("AppendLowerCheck(%+q) lowers to %+q, AppendLower gives %+q", s, got, want)
	}
	if nfc != IsNFC(s) {
		t.Fatalf("AppendLowerCheck(%+q) says NFC %v, IsNFC says %v", s, nfc, !nfc)
	}
	if valid != utf8.ValidString(s) {
		t.Fatalf("AppendLowerCheck(%+q) says valid %v", s, valid)
	}
	// Without a prefix in dst the fast path starts at offset 0.
	if l, nfc0, valid0 := AppendLowerCheck(nil, s); string(l) != string(got[1:]) || nfc0 != nfc || valid0 != valid {
		t.Fatalf("AppendLowerCheck(nil, %+q) = %+q, %v, %v; with a prefix %+q, %v, %v", s, l, nfc0, valid0, got[1:], nfc, valid)
	}
	// AppendLowerScan adds the invisible check to the same pass.
	l, nfc1, valid1, inv := AppendLowerScan([]byte("x"), s)
	if string(l) != string(got) || nfc1 != nfc || valid1 != valid {
		t.Fatalf("AppendLowerScan(%+q) = %+q, %v, %v; AppendLowerCheck gives %+q, %v, %v", s, l, nfc1, valid1, got, nfc, valid)
	}
	if want := hasInvisibleRef(s); inv != want {
		t.Fatalf("AppendLowerScan(%+q) says invisible %v, decoding every rune says %v", s, inv, want)
	}
	// LowerScanView gives the same answers, and s itself only when
	// lowering changes nothing; a buffer it did not use is untouched.
	buf := []byte("unused")
	v, view, nfc2, valid2, inv2 := LowerScanView(buf, s)
	if string(v) != string(got[1:]) || nfc2 != nfc || valid2 != valid || inv2 != inv {
		t.Fatalf("LowerScanView(%+q) = %+q, %v, %v, %v; AppendLowerScan gives %+q, %v, %v, %v", s, v, nfc2, valid2, inv2, got[1:], nfc, valid, inv)
	}
	if view && (len(s) == 0 || &v[0] != unsafe.StringData(s) || string(buf) != "unused") {
		t.Fatalf("LowerScanView(%+q) says view but returns a copy, or wrote its buffer (%q)", s, buf)
	}
	if !view && len(s) > 0 && len(v) > 0 && &v[0] == unsafe.StringData(s) {
		t.Fatalf("LowerScanView(%+q) returns s but says it is not a view", s)
	}
	if view != (len(s) > 0 && string(got[1:]) == s && viewRef(s)) {
		t.Fatalf("LowerScanView(%+q) view = %v", s, view)
	}
	if ValidUTF8(s) != utf8.ValidString(s) {
		t.Fatalf("ValidUTF8(%+q) = %v, utf8.ValidString disagrees", s, !utf8.ValidString(s))
	}
}

// TestLowerScanIndicOffsets puts Indic text that takes each branch of
// scanIndic and ValidUTF8's Indic loop (plain runes, a space or another
// ASCII byte after a rune, runes that need the full NFC step, that
// compose with the rune before, that are invisible, invalid bytes) at
// every offset from an eight-byte boundary, before and after other
// text, and at the end of the string, where the last eight bytes are
// read shifted, or fewer than eight exist: checkLowerScan on each.
func TestLowerScanIndicOffsets(t *testing.T) {
	snippets := []string{
		"हिन्दी", "उत्तर है", "উত্তর হল", "क ", "ক\u09c7\u09be", "ক \u09be", "\u09c7 \u09be", "\u0915\u093c", "\u0958",
		"\u0890", "क\u0890", "\u08e2 ", "\u094d\u093c", "\u093c\u094d", "क\u094d\u094d", "।", "उत्तर, यदि", "उत्तर.", "क  ख",
		"ক\u09c7\u09be\u09c7\u09be", "\xe0\xa4", "\xe0\xa4\x15", "\xe0\x9f\xbf", "क\u0301", "क\u09be", "ক\u09c7 \u09be",
		"क\u094d \u093c", "\u0890 \u09be", "क\xffक", "क\xe0\xa4 क", "क\xe0\xa4\xe0\xa4\x95", "a\xffa", "क\x85a", "\xc2a",
		"क\u094d\u094d\u093c", "ক\u09bc\u09cd", "ক\u09cd\u09bc", "\u09c7\u09bc\u09be", "\u09c7\u09bc \u09be", "ক\u09cd \u09cdক", "\u094dक", "e\u094d", "\u0dd9\u09bc\u0dca", "\u0dd9 \u09bc\u0dca", "\u0c15\u0c56\u08f0",
	}
	fillers := []string{"", "क", "कख", "a", "ab क", "A"}
	suffixes := []string{"", " ", "x", "X", "é", "\u0301", "\u09be", "\x01", "क"}
	n := 0
	for pad := range 8 {
		prefix := "abcdefgh"[:pad]
		for _, a := range snippets {
			for _, f := range fillers {
				for _, suf := range suffixes {
					for _, s := range []string{prefix + a + suf, prefix + f + a + suf, prefix + a + f + a + suf, a + f + prefix + a + suf} {
						checkLowerScan(t, s)
						n++
					}
				}
			}
		}
	}
	if n != 8*45*6*9*4 {
		t.Fatalf("checked %d strings", n)
	}
}

func BenchmarkIsNFC(b *testing.B) {
	s := "भारत का संविधान २६ जनवरी १९५० को लागू हुआ; বাংলা ভাষায় লেখা উত্তর।"
	b.SetBytes(int64(len(s)))
	for i := 0; i < b.N; i++ {
		IsNFC(s)
	}
}

func BenchmarkIsNormalStringXText(b *testing.B) {
	s := "भारत का संविधान २६ जनवरी १९५० को लागू हुआ; বাংলা ভাষায় লেখা উত্তর।"
	b.SetBytes(int64(len(s)))
	for i := 0; i < b.N; i++ {
		norm.NFC.IsNormalString(s)
	}
}

// BenchmarkAppendLowerCheck lowers every golden answer and response of the
// embedded sample (English, Hindi and Bengali), or of the first 100,000
// rows of the file named by $EVALBOOK_BENCH_CSV (the generated file of
// scripts/bench-score.sh), as the scoring loop does.
func BenchmarkAppendLowerCheck(b *testing.B) {
	texts, n := benchColumns(b, "answer", "response")
	b.SetBytes(int64(n))
	var buf []byte
	for b.Loop() {
		for _, s := range texts {
			buf, _, _ = AppendLowerCheck(buf[:0], s)
		}
	}
}

// BenchmarkAppendLowerScan is BenchmarkAppendLowerCheck with the
// invisible-character check, as the scoring loop lowers a response.
func BenchmarkAppendLowerScan(b *testing.B) {
	texts, n := benchColumns(b, "answer", "response")
	b.SetBytes(int64(n))
	var buf []byte
	for b.Loop() {
		for _, s := range texts {
			buf, _, _, _ = AppendLowerScan(buf[:0], s)
		}
	}
}

// benchColumns reads the named columns of the embedded sample, or of the
// first 100,000 rows of $EVALBOOK_BENCH_CSV, and returns their values and
// their total length in bytes.
func benchColumns(b *testing.B, names ...string) ([]string, int) {
	path := os.Getenv("EVALBOOK_BENCH_CSV")
	if path == "" {
		path = "../../datasets/responses.csv"
	}
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		b.Fatal(err)
	}
	var texts []string
	n := 0
	for rows := 0; rows < 100000; rows++ {
		rec, err := r.Read()
		if err != nil {
			break
		}
		for i, h := range header {
			for _, name := range names {
				if h == name {
					texts = append(texts, rec[i])
					n += len(rec[i])
				}
			}
		}
	}
	return texts, n
}

// viewRef says when LowerScanView returns s itself: s is not empty, and
// every character is ASCII other than a capital, or from U+0800 to
// U+0FFF (the fast path, which leaves those as they are).
func viewRef(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf && (r < 'A' || r > 'Z'):
		case r >= 0x0800 && r <= 0x0FFF:
		default:
			return false
		}
	}
	return true
}

// hasInvisibleRef is the plain reference for AppendLowerScan's invisible
// result: decode every rune (an invalid byte is U+FFFD, which is not
// invisible) and ask IsInvisible.
func hasInvisibleRef(s string) bool {
	for _, r := range s {
		if IsInvisible(r) {
			return true
		}
	}
	return false
}

// TestAppendLowerScanInvisibleEveryCodePoint puts every code point inside
// ASCII and inside Devanagari (the two fast paths) and at the end of a
// Latin-1 word (the general loop), and checks the invisible result
// against IsInvisible.
func TestAppendLowerScanInvisibleEveryCodePoint(t *testing.T) {
	var buf []byte
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		c := string(r)
		for _, s := range []string{"ABCDEFGH" + c + "ijklmnop", "हिन्दी" + c + "हिन्दी", "Ångström " + c, c} {
			var inv bool
			buf, _, _, inv = AppendLowerScan(buf[:0], s)
			if want := IsInvisible(r); inv != want {
				t.Fatalf("AppendLowerScan(%+q) says invisible %v, IsInvisible(U+%04X) = %v", s, inv, r, want)
			}
		}
	}
}

// BenchmarkValidUTF8 validates the question column of the sample set
// (English, Hindi and Bengali), or of $EVALBOOK_BENCH_CSV (see
// benchColumns): the unscored text the scoring loop checks.
func BenchmarkValidUTF8(b *testing.B) {
	qs, n := benchColumns(b, "question")
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, q := range qs {
			if !ValidUTF8(q) {
				b.Fatal("invalid")
			}
		}
	}
}

// indicTexts are Hindi and Bengali golden answers and responses of the
// shapes of issue 29's 1M-row file, with no ASCII but spaces and a comma.
var indicTexts = []string{"प्रश्न के अनुसार उत्तर क्रिकेट पश्चिम होगा। उद्यान", "তামা সম্ভবত সঠিক উত্তর, যদিও কিছু সূত্র ভিন্নমত পোষণ করে। শরীর",
	"क्रिकेट तत्व", "থর", "उद्यान कारण प्रश्न के अनुसार उत्तर कंचनजंगा होगा। दक्षिण उपन्यास"}

// BenchmarkIndicTexts lowers (AppendLowerScan) and validates (ValidUTF8)
// indicTexts: all-Indic text, where a loop whose next read depends on
// the bytes just read (a step of 3 or 4 bytes) lost to the rune-by-rune
// loop whose step the processor predicts; ns/op is for the five texts.
func BenchmarkIndicTexts(b *testing.B) {
	b.Run("lower", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			for _, s := range indicTexts {
				buf, _, _, _ = AppendLowerScan(buf[:0], s)
			}
		}
	})
	b.Run("valid", func(b *testing.B) {
		for b.Loop() {
			for _, s := range indicTexts {
				if !ValidUTF8(s) {
					b.Fatal("invalid")
				}
			}
		}
	})
}
