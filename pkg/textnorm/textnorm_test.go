package textnorm

import (
	"bufio"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/evalbook/evalbook/internal/fasttext"
)

// Expected values below were printed by Python 3.11.7 (str.lower,
// str.split), the reference the seed scripts ran on.
func TestLowerMatchesPython(t *testing.T) {
	cases := []struct{ in, want string }{
		{"İstanbul", "i\u0307stanbul"},
		{"ΟΔΟΣ", "\u03bf\u03b4\u03bf\u03c2"}, // ends in final sigma
		{"ΣΑΣ ΣΑΣ.", "σας σας."},
		{"Σ", "σ"},
		{"AΣ", "aς"},
		{"AΣb", "aσb"},
		{"AΣ.", "aς."},
		{"ΌΣΟΣ'", "όσος'"},
		{"KΣ\u0301", "kς\u0301"},
		{"ǅ", "ǆ"},
		{"ẞ", "ß"},
		{"ﬃ", "ﬃ"},
		{"हिन्दी", "हिन्दी"},
		{"Straße", "straße"},
		{"RURU JATAKA", "ruru jataka"},
		{"", ""},
	}
	for _, c := range cases {
		if got := Lower(c.in); got != c.want {
			t.Errorf("Lower(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := string(AppendLower([]byte("x"), c.in)); got != "x"+c.want {
			t.Errorf("AppendLower(x, %q) = %q", c.in, got)
		}
	}
}

func TestIsSpaceMatchesPython(t *testing.T) {
	want := map[rune]bool{}
	readHexTable(t, "testdata/python_space.txt", func(f []string) { want[parseHex(t, f[0])] = true })
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if IsSpace(r) != want[r] {
			t.Errorf("IsSpace(U+%04X) = %v, Python str.isspace gives %v", r, IsSpace(r), want[r])
		}
	}
}

func TestFieldsMatchesPython(t *testing.T) {
	// Python: 'a\x1cb\x1dc\x1ed\x1fe\x85f\xa0g\u2028h\u3000i\u200bj\u180ek'.split()
	in := "a\x1cb\x1dc\x1ed\x1fe\u0085f\u00a0g\u2028h\u3000i\u200bj\u180ek"
	want := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i\u200bj\u180ek"}
	if got := Fields(in); !slices.Equal(got, want) {
		t.Errorf("Fields = %q, want %q", got, want)
	}
	if got := Fields("  \t "); len(got) != 0 {
		t.Errorf("Fields(blank) = %q, want none", got)
	}
}

func TestStripASCIIPunct(t *testing.T) {
	check := func(in, want string) {
		t.Helper()
		if got := StripASCIIPunct(in); got != want {
			t.Errorf("StripASCIIPunct(%q) = %q, want %q", in, got, want)
		}
	}
	check("delhi.", "delhi")         // the seed's example
	check("**no**", "no")            // markdown emphasis
	check("(1947),", "1947")         // brackets and comma
	check("u.s.a.", "u.s.a")         // inner punctuation stays
	check("दिल्ली।", "दिल्ली।")      // the danda is not ASCII: Python keeps it
	check("---", "")                 // all punctuation: empty
	check("«Delhi»", "«Delhi»")      // guillemets are not in string.punctuation
	check("'tis", "tis")             // apostrophe is
	if len(ASCIIPunctuation) != 32 { // len(string.punctuation) == 32 in Python
		t.Errorf("ASCIIPunctuation has %d characters, want 32", len(ASCIIPunctuation))
	}
}

func TestProfiles(t *testing.T) {
	cases := []struct {
		name    string
		p       Profile
		in, out string
	}{
		{"none keeps NFD", None, "\u0915\u093c", "\u0915\u093c"},
		{"nfc unifies nukta qa", NFC, "\u0958", "\u0915\u093c"}, // U+0958 is a composition exclusion
		{"nfc unifies bengali yya", NFC, "\u09df", "\u09af\u09bc"},
		{"nfc composes bengali o", NFC, "\u0995\u09c7\u09be", "\u0995\u09cb"}, // ে + া -> ো
		{"nfc leaves danda", NFC, "नई दिल्ली।", "नई दिल्ली।"},
		{"indic strips danda", Indic, "नई दिल्ली।", "नई दिल्ली"},
		{"indic strips double danda", Indic, "॥ধন্যবাদ॥", "ধন্যবাদ"},
		{"indic folds devanagari digits", Indic, "१९४७ में", "1947 में"},
		{"indic folds bengali digits", Indic, "১৯৪৭ সালে", "1947 সালে"},
		{"indic folds tamil digits", Indic, "௧௯௪௭", "1947"},
		{"indic drops zwj and zwnj", Indic, "क्\u200dष र\u200cवि", "क्ष रवि"},
		{"indic keeps matras and virama", Indic, "हिन्दी", "हिन्दी"},
		{"indic keeps inner punctuation", Indic, "U.S.A. ok", "U.S.A ok"},
		{"indic keeps whitespace layout", Indic, " a ,  b ", " a   b "},
		{"indic nfc first", Indic, "\u0958!", "\u0915\u093c"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.p.Apply(c.in); got != c.out {
				t.Errorf("%v.Apply(%q) = %q (%+q), want %q", c.p, c.in, got, got, c.out)
			}
			if got := string(c.p.AppendApply([]byte("pre"), c.in)); got != "pre"+c.out {
				t.Errorf("AppendApply = %q", got)
			}
		})
	}
}

// indic_stem unifies inflected forms on both sides; the stems themselves
// come from StemHindi and StemBengali (tested in stem_test.go).
func TestIndicStemProfile(t *testing.T) {
	pairs := [][2]string{
		{"पुस्तकों में", "पुस्तक में"},    // Hindi oblique plural
		{"लड़कियाँ", "लड़की"},             // Hindi feminine plural
		{"পোড়ামাটির ইট", "পোড়ামাটি ইট"}, // Bengali genitive
		{"नई दिल्ली।", "नई दिल्ली"},       // the indic steps still apply
	}
	for _, p := range pairs {
		a, b := IndicStem.Apply(p[0]), IndicStem.Apply(p[1])
		if a != b {
			t.Errorf("indic_stem: %q -> %q but %q -> %q", p[0], a, p[1], b)
		}
		if Indic.Apply(p[0]) == Indic.Apply(p[1]) && p[0] != "नई दिल्ली।" {
			t.Errorf("%q and %q are equal without stemming: not a stemming test", p[0], p[1])
		}
		if got := string(IndicStem.AppendApply([]byte("x"), p[0])); got != "x"+a {
			t.Errorf("AppendApply = %q, Apply = %q", got, a)
		}
	}
	if got := IndicStem.Apply("Amalaka"); got != "Amalaka" {
		t.Errorf("indic_stem changed Latin text: %q", got)
	}
}

func TestParseProfile(t *testing.T) {
	for i, n := range Profiles {
		p, err := ParseProfile(n)
		if err != nil || int(p) != i || p.String() != n {
			t.Errorf("ParseProfile(%q) = %v, %v", n, p, err)
		}
	}
	if _, err := ParseProfile("nfkc"); err == nil || !strings.Contains(err.Error(), "none, nfc, indic, indic_stem") {
		t.Errorf("ParseProfile(nfkc) error = %v, want a list of profiles", err)
	}
}

func TestFoldDigits(t *testing.T) {
	if got := FoldDigits("সাল ১৯৪৭, year 1947, ੧੯੪੭"); got != "সাল 1947, year 1947, 1947" {
		t.Errorf("FoldDigits = %q", got)
	}
	if s := "no digits"; FoldDigits(s) != s {
		t.Error("FoldDigits changed a string without Indic digits")
	}
}

func FuzzProfiles(f *testing.F) {
	for _, s := range []string{"नई दिल्ली।", "\u0958", "১৯৪৭", "a\u200db", "ΣΑΣ", "İ", "  ,x, ", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		for _, p := range []Profile{None, NFC, Indic} {
			once := p.Apply(s)
			if twice := p.Apply(once); twice != once {
				t.Fatalf("%v not idempotent on %q: %q then %q", p, s, once, twice)
			}
		}
		l := Lower(s)
		if !utf8.ValidString(l) {
			t.Fatalf("Lower(%q) is not valid UTF-8", s)
		}
		if strings.Join(Fields(s), "") != strings.Join(strings.FieldsFunc(s, IsSpace), "") {
			t.Fatal("Fields disagrees with FieldsFunc")
		}
		for _, w := range Fields(s) {
			if w == "" || strings.IndexFunc(w, IsSpace) >= 0 {
				t.Fatalf("Fields(%q) gave token %q", s, w)
			}
		}
	})
}

func readHexTable(t *testing.T, path string, fn func([]string)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fn(strings.Fields(line))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

func parseHex(t *testing.T, h string) rune {
	t.Helper()
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		t.Fatal(err)
	}
	return rune(v)
}

// TestMaybeSpaceLead holds fasttext.MaybeSpaceLead, which IsBlank,
// HasOuterSpace and score's tokenisers trust to skip bytes, to IsSpace
// (itself held to Python by TestIsSpaceMatchesPython). It lives here and
// not in internal/fasttext because its reference is IsSpace, and
// fasttext cannot import textnorm.
func TestMaybeSpaceLead(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF || !IsSpace(r) {
			continue
		}
		b := []byte(string(r))
		if !fasttext.MaybeSpaceLead(b[0]) {
			t.Errorf("U+%04X is whitespace but its lead byte 0x%02X is not accepted", r, b[0])
		}
	}
}

// TestBlankAndOuterSpace holds IsBlank and HasOuterSpace to their
// definitions through Strip, on every code point alone, between letters,
// and at each end of a word; FuzzBlankAndOuterSpace does the same on
// arbitrary strings.
func TestBlankAndOuterSpace(t *testing.T) {
	check := func(s string) {
		t.Helper()
		if got, want := IsBlank(s), Strip(s) == ""; got != want {
			t.Fatalf("IsBlank(%+q) = %v, Strip says %v", s, got, want)
		}
		if got, want := HasOuterSpace(s), Strip(s) != s; got != want {
			t.Fatalf("HasOuterSpace(%+q) = %v, Strip says %v", s, got, want)
		}
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		c := string(r)
		check(c)
		check(c + "ক")
		check("ক" + c)
		check("a" + c + "b")
	}
	for _, s := range []string{"", " ", "\u00a0\u3000", "\xff", "a\xff", "\xff ", " \xff", "\xe2\x80", "ক \u2028"} {
		check(s)
	}
}

func FuzzBlankAndOuterSpace(f *testing.F) {
	for _, s := range []string{"", " x ", "\u0085", "ক\u00a0", "\xe3\x80\x80", "\xff\x1c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if IsBlank(s) != (Strip(s) == "") || HasOuterSpace(s) != (Strip(s) != s) {
			t.Fatalf("%+q: IsBlank %v, HasOuterSpace %v, Strip %+q", s, IsBlank(s), HasOuterSpace(s), Strip(s))
		}
	})
}
