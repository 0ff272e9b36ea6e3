package tabular

import (
	"fmt"
	"strings"
	"testing"
)

func TestQuote(t *testing.T) {
	if got, want := Quote(`a"b`), fmt.Sprintf("%q", `a"b`); got != want {
		t.Errorf("short: %s, want %s as %%q writes it", got, want)
	}
	// 200 characters of Devanagari (600 bytes) are quoted whole.
	k := strings.Repeat("क", 200)
	if got := Quote(k); got != fmt.Sprintf("%q", k) {
		t.Errorf("200 characters cut: %s", got)
	}
	big := strings.Repeat("x", 50<<20)
	want := `"` + strings.Repeat("x", 200) + `"… (52428800 bytes)`
	if got := Quote(big); got != want {
		t.Errorf("50 MB: %d bytes %.60q…", len(got), got)
	}
	// 201 Devanagari characters: 200 kept, the length in bytes (603).
	if got, want := Quote(k+"ख"), fmt.Sprintf("%q… (603 bytes)", k); got != want {
		t.Errorf("201 characters: %s", got)
	}
	names := make([]string, 25)
	for i := range names {
		names[i] = fmt.Sprint(i)
	}
	if got := QuoteList(names); !strings.HasSuffix(got, `"19", and 5 more`) || strings.Count(got, `"`) != 40 {
		t.Errorf("list: %s", got)
	}
	if got := Names([]string{"id", strings.Repeat("h", 300)}); got != "id, "+Quote(strings.Repeat("h", 300)) {
		t.Errorf("names: %s", got)
	}
}
