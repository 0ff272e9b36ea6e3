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

// The text of a comparison shortens a long key or group as the text of
// an agreement does (a 50 MB group name made every row of the group
// table 50 MB wide and took 20 s to lay out); the result keeps it whole.
func TestComparisonTextCell(t *testing.T) {
	long := strings.Repeat("g", 5000)
	c := &Comparison{Metric: "pass", Key: "id", N: 2, Better: []string{long, "b"}, By: "group",
		Groups: []ComparisonGroup{{Group: long, N: 1}, {Group: "short", N: 1}}}
	var b strings.Builder
	if err := c.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	shown := strings.Repeat("g", 199) + "…"
	if strings.Contains(b.String(), shown[:199]+"g") || strings.Count(b.String(), shown) != 2 || !strings.Contains(b.String(), shown+", b") {
		t.Errorf("text of %d bytes does not shorten the key and the group to %d characters:\n%.600s", b.Len(), MaxTextCell, b.String())
	}
	if c.Better[0] != long || c.Groups[0].Group != long {
		t.Error("WriteText changed the result")
	}
}
