package mc

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseK reads the k values of recall@k (Options.K) from a comma-separated
// list such as "2,3"; blanks around a value and empty values are skipped.
// A value that is not a positive whole number is an error naming it.
func ParseK(s string) ([]int, error) {
	var ks []int
	for _, v := range strings.Split(s, ",") {
		v = strings.TrimSpace(v)
		if v == "" {
			continue
		}
		k, err := strconv.Atoi(v)
		if err != nil || k < 1 {
			return nil, fmt.Errorf("k wants positive whole numbers, got %q", v)
		}
		ks = append(ks, k)
	}
	return ks, nil
}
