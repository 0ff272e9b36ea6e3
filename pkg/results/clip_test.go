package results

import (
	"strconv"
	"strings"
	"testing"
)

// clip cuts without converting the whole string to runes; what it shows
// is what string([]rune(s)[:n-1]) + "…" showed, invalid UTF-8 (U+FFFD)
// included.
func TestClipAsRunes(t *testing.T) {
	old := func(s string, n int) string {
		r := []rune(s)
		if len(r) > n {
			s = string(r[:n-1]) + "…"
		}
		return strconv.Quote(s)
	}
	for _, s := range []string{"", "short", strings.Repeat("नई दिल्ली ", 20), "ab\xffcd" + strings.Repeat("x", 80), strings.Repeat("\xfe", 75), strings.Repeat("y", 70), strings.Repeat("y", 71)} {
		for _, n := range []int{1, 40, 70} {
			if got, want := clip(s, n), old(s, n); got != want {
				t.Errorf("clip(%q, %d) = %s, want %s", s, n, got, want)
			}
		}
	}
}
