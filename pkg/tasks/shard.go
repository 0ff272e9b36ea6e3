package tasks

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseShard reads a shard "i/n" (0 <= i < n): a run of shard i of n
// takes the items whose index modulo n is i. "" is the whole run, 0/1.
func ParseShard(s string) (i, n int, err error) {
	if s == "" {
		return 0, 1, nil
	}
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("shard %q: want i/n with 0 <= i < n, e.g. 0/4 to 3/4", s)
	}
	return i, n, nil
}
