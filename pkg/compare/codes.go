package compare

import "github.com/evalbook/evalbook/pkg/results"

// Codes of the warnings a Comparison carries.
const (
	// CodeFewFlips: fewer than stats.McNemarMinFlips cases changed, so
	// McNemar's chi-square is rough (Count: the flips).
	CodeFewFlips = results.CodeFewFlips
	// CodeManyGroups: more than one group is compared, so some will
	// differ by chance (Count: the groups).
	CodeManyGroups = "many_groups"
)
