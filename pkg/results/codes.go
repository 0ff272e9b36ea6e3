package results

// Warning codes that more than one package produces, declared once here
// so that each producer refers to the same constant (issue 26: one
// warning code style). A code used by one package is declared beside its
// producer as CodeXxx.
const (
	// CodeNoInterval: an interval could not be given (a corpus-level
	// metric under a Wilson interval in pkg/qa, no resamples in
	// pkg/leaderboard, a statistic undefined in every resample in
	// pkg/agree); the figure stands without one.
	CodeNoInterval = "no_interval"
	// CodeFewFlips: too few rows changed between two paired versions for
	// the normal approximation of McNemar's test or the paired z-test
	// (pkg/compare, pkg/store's diff and gate).
	CodeFewFlips = "few_flips"
)
