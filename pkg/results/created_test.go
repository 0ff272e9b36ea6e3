package results

import (
	"testing"
	"time"
)

func TestNowHonoursSourceDateEpoch(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000") // 2023-11-14T22:13:20Z, by date -u -d @1700000000
	if got := Now(); !got.Equal(time.Date(2023, 11, 14, 22, 13, 20, 0, time.UTC)) {
		t.Errorf("Now() = %v", got)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "yesterday") // not an integer: the clock
	before := time.Now().UTC().Add(-time.Second)
	if got := Now(); got.Before(before) || got.Location() != time.UTC || got.Nanosecond() != 0 {
		t.Errorf("Now() without a usable SOURCE_DATE_EPOCH = %v", got)
	}
}
