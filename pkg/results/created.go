package results

import (
	"os"
	"strconv"
	"time"
)

// Now is the creation time to put in a result (Score.Created): the
// current time in UTC to the second, or the time SOURCE_DATE_EPOCH gives
// (seconds since 1970) when that variable holds an integer, so that a
// report made twice from the same data is byte-for-byte the same
// (https://reproducible-builds.org/specs/source-date-epoch/).
func Now() *time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if sec, err := strconv.ParseInt(s, 10, 64); err == nil {
			t := time.Unix(sec, 0).UTC()
			return &t
		}
	}
	t := time.Now().UTC().Truncate(time.Second)
	return &t
}
