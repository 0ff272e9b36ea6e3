package compare

import (
	"errors"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// A huge value in an error is quoted to its first 200 characters and
// its length (finding 6: an id echoed whole was 50 MB of standard
// error). 12 MB stays under the reader's 16 MiB record limit, which
// refuses a 50 MB id before any message could echo it (checked last).
func TestLongValuesInErrors(t *testing.T) {
	big := strings.Repeat("x", 12<<20)
	cut := `"` + strings.Repeat("x", 200) + `"… (12582912 bytes)`
	for _, tc := range []struct{ name, old, new string }{
		{"only in one file", "id,correct\n" + big + ",1\nb,0\n", "id,correct\nc,1\nb,0\n"},
		{"duplicate id", "id,correct\n" + big + ",1\n" + big + ",0\n", "id,correct\nb,1\n"},
		{"not 0 or 1", "id,correct\na," + big + "\nb,0\n", "id,correct\na,1\nb,0\n"},
	} {
		_, err := Read(strings.NewReader(tc.old), "old.csv", strings.NewReader(tc.new), "new.csv", Options{Metric: "correct"})
		if err == nil {
			t.Fatalf("%s: no error", tc.name)
		}
		if msg := err.Error(); len(msg) > 1000 || !strings.Contains(msg, cut) {
			t.Errorf("%s: error of %d bytes: %.300s", tc.name, len(msg), msg)
		}
	}
	// A 50 MB id is within the 64 MiB default: read, and quoted short.
	huge := strings.Repeat("x", 50<<20)
	_, err := Read(strings.NewReader("id,correct\n"+huge+",1\n"), "old.csv", strings.NewReader("id,correct\nb,1\n"), "new.csv", Options{})
	if err == nil || len(err.Error()) > 1000 || !strings.Contains(err.Error(), "(52428800 bytes)") {
		t.Errorf("50 MB id: %.300v", err)
	}
	// Under a 16 MiB limit (--max-field-mib 16) it is refused, naming the flag.
	defer func(l tabular.Limits) { tabular.Limit = l }(tabular.Limit)
	tabular.Limit.MaxRecord = 16 << 20
	_, err = Read(strings.NewReader("id,correct\n"+huge+",1\n"), "old.csv", strings.NewReader("id,correct\nb,1\n"), "new.csv", Options{})
	if !errors.Is(err, tabular.ErrTooLong) || len(err.Error()) > 1000 || !strings.Contains(err.Error(), "--max-field-mib") || !strings.Contains(err.Error(), "old.csv:2") {
		t.Errorf("50 MB id, 16 MiB limit: %.300v", err)
	}
}
