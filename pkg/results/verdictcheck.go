package results

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// A VerdictMismatch says why a verdict file is not the one of a result:
// the reason is a sentence such as "exact_substring passes 190 rows in
// the verdict file, the result says 187".
type VerdictMismatch struct{ Reason string }

func (m *VerdictMismatch) Error() string { return m.Reason }

// CheckVerdicts reads the verdict file r (named name in errors) to its
// end and checks that it belongs to s, beyond its number of rows: every
// metric of s has a column and the metric columns are the scorer's block,
// in the order of s; no other metric column follows them (isMetric, if
// not nil, tells metric ids from other column names); each metric's
// column sums to the result's Correct: the number of 1s for a binary
// metric (an empty cell, as a judge's invalid reply, counts 0), the sum
// of the values for a graded one (to 10⁻⁶ per row, for rounding); and
// for each agreement pair of s, the rows both metrics pass, both fail,
// and only one passes are as many as s says. A mismatch is a
// *VerdictMismatch; a file that cannot be read is another error naming
// it.
func CheckVerdicts(r io.Reader, name string, s *Score, isMetric func(string) bool) error {
	mismatch := func(format string, a ...any) error { return &VerdictMismatch{fmt.Sprintf(format, a...)} }
	v, err := NewVerdictReader(r, name, s)
	if err != nil {
		return err // a missing metric column is a *VerdictMismatch
	}
	for i := 1; i < len(v.MetricCol); i++ {
		if v.MetricCol[i] != v.MetricCol[i-1]+1 {
			return mismatch("the verdict file's metric columns are not %s in that order: the column after %q is %q",
				strings.Join(s.Settings.Metrics, ", "), s.Settings.Metrics[i-1], v.Header[v.MetricCol[i-1]+1])
		}
	}
	if isMetric != nil && len(v.MetricCol) > 0 {
		for _, h := range v.Header[v.MetricCol[0]:] {
			if isMetric(h) && !slices.Contains(s.Settings.Metrics, h) {
				return mismatch("the verdict file has a column for metric %q, which the result does not score (its metrics: %s)", h, strings.Join(s.Settings.Metrics, ", "))
			}
		}
	}
	// The reader tallies every row and compares at the end.
	for {
		_, err := v.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func fmtSum(x float64) string { return fmt.Sprintf("%.4g", x) }
