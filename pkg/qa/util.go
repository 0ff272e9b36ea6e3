package qa

import (
	"fmt"
	"sort"
)

func errorf(format string, a ...any) error { return fmt.Errorf(format, a...) }

func sortStrings(s []string) { sort.Strings(s) }
