package qa

import (
	"reflect"
	"strings"
	"sync"
	"testing"
)

// Rows 2 and 5 share id a, rows 3, 6 and 7 id b (the header is line 1);
// line 4 has no id. Added out of order from two goroutines, as the
// scoring workers would, the warning reads as in file order: 3 rows
// repeat an earlier id (5, 6, 7).
func TestDuplicateIDs(t *testing.T) {
	d := newDupIDs()
	rows := []struct {
		id   string
		line int
	}{{"b", 7}, {"a", 5}, {"b", 3}, {"", 4}, {"a", 2}, {"b", 6}, {"c", 8}}
	var wg sync.WaitGroup
	for half := range 2 {
		wg.Go(func() {
			for i := half; i < len(rows); i += 2 {
				d.add(rows[i].id, rows[i].line)
			}
		})
	}
	wg.Wait()
	w := d.warning()
	if w == nil {
		t.Fatal("no warning")
	}
	if w.Code != "duplicate_ids" || w.Count != 3 || !reflect.DeepEqual(w.Lines, []int{5, 6, 7}) {
		t.Errorf("warning %+v", w)
	}
	if want := `id "a" on lines 2, 5; id "b" on lines 3, 6, 7`; !strings.Contains(w.Message, want) {
		t.Errorf("message %q lacks %q", w.Message, want)
	}
	if newDupIDs().warning() != nil {
		t.Error("warning without rows")
	}
	var none *dupIDs // no id column
	none.add("a", 2)
	if none.warning() != nil {
		t.Error("warning from a nil tracker")
	}
}

// A 50 MB id repeated is found (kept as its hash) and quoted short.
func TestDuplicateLongID(t *testing.T) {
	d := newDupIDs()
	big := strings.Repeat("x", 50<<20)
	d.add(big, 2)
	d.add(strings.Clone(big), 9)
	d.add(big[:len(big)-1], 10)
	w := d.warning()
	if w == nil || w.Count != 1 || !reflect.DeepEqual(w.Lines, []int{9}) || len(w.Message) > 600 ||
		!strings.Contains(w.Message, "… (52428800 bytes) on lines 2, 9") {
		t.Errorf("warning %.400v", w)
	}
}
