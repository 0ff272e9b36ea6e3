package fasttext

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestLowerEveryCodePoint compares AppendLower (under textnorm.Lower) on
// each code point alone with the table written by scripts/pyref_textnorm.py
// (Python 3.11.7, Unicode 14). Code points Python's Unicode 14 does not
// know, but Go's newer tables do, are reported only if Go lowers an
// assigned letter differently.
func TestLowerEveryCodePoint(t *testing.T) {
	want := map[rune]string{}
	readHexTable(t, "testdata/python_lower.txt", func(f []string) {
		var b strings.Builder
		for _, h := range f[1:] {
			b.WriteRune(parseHex(t, h))
		}
		want[parseHex(t, f[0])] = b.String()
	})
	bad := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		s := string(r)
		w, ok := want[r]
		if !ok {
			w = s
		}
		if r == 'Σ' {
			w = "σ" // alone, no cased letter before it: not final
		}
		if got := string(AppendLower(nil, s)); got != w {
			if !ok && !unicode.In(r, unicode.L) {
				continue
			}
			if bad++; bad < 20 {
				t.Errorf("AppendLower(U+%04X) = %q, Python gives %q", r, got, w)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d code points differ from Python", bad)
	}
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
