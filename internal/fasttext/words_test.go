package fasttext

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

var wordsRE = regexp.MustCompile(`[\p{L}\p{M}\p{N}]+`)

// FuzzWordSpans checks WordSpans (under textnorm.Words) against the
// regular expression it implements, on text without joiners (where the
// two differ by design), and that it appends to dst.
func FuzzWordSpans(f *testing.F) {
	for _, s := range []string{"हिन्दी", "नई दिल्ली।", "Delhi's 1947", "১৯৪৭ সালে", "a\u200cb", "", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pre := [2]int{-1, -1}
		got := WordSpans(s, [][2]int{pre})
		if len(got) == 0 || got[0] != pre {
			t.Fatalf("WordSpans(%q, dst) dropped what dst held: %v", s, got)
		}
		got = got[1:]
		if strings.ContainsAny(s, "\u200c\u200d") {
			for _, sp := range got {
				if sp[0] >= sp[1] {
					t.Fatalf("WordSpans(%q) has an empty word at %v", s, sp)
				}
			}
			return
		}
		var want [][2]int
		for _, m := range wordsRE.FindAllStringIndex(s, -1) {
			want = append(want, [2]int{m[0], m[1]})
		}
		if !slices.Equal(got, want) {
			t.Fatalf("WordSpans(%q) = %v, regexp gives %v", s, got, want)
		}
	})
}
