package compare

import (
	"errors"
	"strings"
	"testing"
)

// A long value of a column compare only tells apart (a verdict file's
// response) is kept as a stand-in: the metric is still the one 0/1
// column, a long value that is 0 (0.000…) still counts as 0/1, and the
// key hint of a duplicate id still finds the column whose long values
// differ.
func TestStandInForLongValues(t *testing.T) {
	a := `"` + strings.Repeat("the answer is 42, ok ", 100) + `"` // 2,100 bytes, over standIn
	b := `"` + strings.Repeat("no answer here at all, ", 100) + `"`
	tbl := "id,response,exact_match\n1," + a + ",1\n2," + b + ",0\n3," + a + ",1\n"
	res, err := Read(strings.NewReader(tbl), "old.csv", strings.NewReader(tbl), "new.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Metric != "exact_match" || res.N != 3 || res.OldPass != 2 {
		t.Errorf("metric %q, n %d, old pass %d; want exact_match, 3, 2", res.Metric, res.N, res.OldPass)
	}

	// A long zero ("0." and 2,000 zeros) is a 0/1 value: two candidates.
	zero := "0." + strings.Repeat("0", 2000)
	tbl2 := "id,z,exact_match\n1," + zero + ",1\n2,1,0\n"
	_, err = Read(strings.NewReader(tbl2), "old.csv", strings.NewReader(tbl2), "new.csv", Options{})
	if !errors.Is(err, ErrSeveralMetrics) || !strings.Contains(err.Error(), "z, exact_match") {
		t.Errorf("a long 0 in z: %v, want several metrics z and exact_match", err)
	}

	// Rows 1 and 1 differ only in their long responses: the hint names
	// response (equal stand-ins would have left no column to suggest).
	dup := "id,model,response,exact_match\n1,m," + a + ",1\n1,m," + b + ",0\n"
	_, err = Read(strings.NewReader(dup), "old.csv", strings.NewReader(tbl), "new.csv", Options{Metric: "exact_match"})
	if !errors.Is(err, ErrDuplicateKey) || !strings.Contains(err.Error(), "pass --key id,response") {
		t.Errorf("duplicate id told apart by response: %v", err)
	}
	// The same long response twice is no way to tell them apart.
	dup2 := "id,model,response,exact_match\n1,m," + a + ",1\n1,m," + a + ",0\n"
	_, err = Read(strings.NewReader(dup2), "old.csv", strings.NewReader(tbl), "new.csv", Options{Metric: "exact_match"})
	if !errors.Is(err, ErrDuplicateKey) || !strings.Contains(err.Error(), "name them all") {
		t.Errorf("duplicate id, equal responses: %v", err)
	}
}
