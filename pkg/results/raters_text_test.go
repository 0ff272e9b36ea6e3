package results

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TextCell keeps a cell of up to MaxTextCell characters whole and shows
// the first MaxTextCell-1 characters of a longer one and "…", counting
// characters (code points), not bytes.
func TestTextCell(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"", ""},
		{"tie", "tie"},
		{strings.Repeat("a", 200), strings.Repeat("a", 200)},
		{strings.Repeat("a", 201), strings.Repeat("a", 199) + "…"},
		{strings.Repeat("ক", 200), strings.Repeat("ক", 200)}, // 600 bytes, 200 characters
		{strings.Repeat("ক", 201), strings.Repeat("ক", 199) + "…"},
		{strings.Repeat("x", 199) + "ক্ষ", strings.Repeat("x", 199) + "…"}, // a conjunct is three code points
	} {
		got := TextCell(tc.in)
		if got != tc.want {
			t.Errorf("TextCell(%d runes) = %d runes %q…, want %d runes", utf8.RuneCountInString(tc.in), utf8.RuneCountInString(got), got[:min(len(got), 12)], utf8.RuneCountInString(tc.want))
		}
		if n := utf8.RuneCountInString(got); n > MaxTextCell {
			t.Errorf("TextCell gave %d characters", n)
		}
	}
}
