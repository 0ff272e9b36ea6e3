package tabular

import (
	"bytes"
	"testing"

	"github.com/evalbook/evalbook/internal/rawpos"
)

// TestUnrepairedOffset checks the map from the repaired bytes back to
// the raw ones against bytes.ToValidUTF8 itself: every offset that
// starts a character of the repaired bytes maps to the raw offset of the
// same character (a U+FFFD that replaced a run, to the run's first
// byte).
func TestUnrepairedOffset(t *testing.T) {
	for _, raw := range []string{"abc", "a\xffb", "\xff\xfe", "ক\xffখ\xe0\xa6", "\xe0\xa6\xa6\xa6x", "a\uFFFD\xffb", ""} {
		t.Run(raw, func(t *testing.T) {
			// Walk raw by hand: runs of bad bytes collapse to one U+FFFD.
			var want []int // want[k] = raw offset of the k-th repaired character
			var rep []int  // its offset in the repaired bytes
			o := 0
			for i := 0; i < len(raw); {
				n := len(string([]rune(raw[i:])[0:1]))
				if bad := rawpos.InvalidUTF8String(raw[i:]); bad == 0 {
					want, rep = append(want, i), append(rep, o)
					for i < len(raw) && rawpos.InvalidUTF8String(raw[i:]) == 0 {
						i++
					}
					o += 3
					continue
				}
				want, rep = append(want, i), append(rep, o)
				i, o = i+n, o+n
			}
			if got := len(bytes.ToValidUTF8([]byte(raw), []byte("\uFFFD"))); got != o {
				t.Fatalf("hand walk gives %d repaired bytes, ToValidUTF8 %d", o, got)
			}
			for k := range want {
				if got := unrepairedOffset([]byte(raw), rep[k]); got != want[k] {
					t.Errorf("unrepairedOffset(%q, %d) = %d, want %d", raw, rep[k], got, want[k])
				}
			}
			if got := unrepairedOffset([]byte(raw), o); got != len(raw) {
				t.Errorf("end: unrepairedOffset(%q, %d) = %d, want %d", raw, o, got, len(raw))
			}
		})
	}
}
