package tabular

import (
	"strings"
	"testing"
)

// After a 15 MB record the reader lets its grown buffer go instead
// of holding 15 MB (and more, from growth) for the rest of the file;
// before, cap(window) stayed at about 20 MB, and a window of raw bytes beside.
func TestWindowReleasedAfterLongRecord(t *testing.T) {
	big := strings.Repeat("x", 15<<20)
	in := "id,v\n" + big + ",1\n" + strings.Repeat("b,0\n", 3)
	s, err := newCSV(strings.NewReader(in), "x.csv", Options{MaxRecord: DefaultMaxRecord})
	if err != nil {
		t.Fatal(err)
	}
	var rec Record
	for range 3 {
		if err := s.next(&rec); err != nil {
			t.Fatal(err)
		}
	}
	if c := cap(s.buf); c > 1<<20 {
		t.Errorf("window keeps %d bytes after the long record", c)
	}
}
