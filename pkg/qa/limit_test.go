package qa

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// The fast CSV path holds a record of at most tabular.Limit.MaxRecord
// bytes: a longer one (here 3 MiB under a 1 MiB limit, on line 3) is an
// error naming the file, the line, the limit and the flag; under the
// limit the same field scores.
func TestCSVRecordLimit(t *testing.T) {
	long := strings.Repeat("word ", 3<<20/5)
	in := "question,answer,Domain,response\nq1,a,geo,a\nq2,needle,geo,\"" + long + "needle\"\nq3,b,geo,b\n"
	old := tabular.Limit
	defer func() { tabular.Limit = old }()

	tabular.Limit = tabular.Limits{MaxRecord: 1 << 20}
	_, err := Score(context.Background(), strings.NewReader(in), "big.csv", Options{})
	var pe *ParseError
	if !errors.Is(err, tabular.ErrTooLong) || !errors.As(err, &pe) || pe.Line != 3 ||
		!strings.Contains(err.Error(), "big.csv") || !strings.Contains(err.Error(), "1 MiB") || !strings.Contains(err.Error(), "--max-field-mib") {
		t.Fatalf("under a 1 MiB limit: %v", err)
	}

	tabular.Limit = tabular.Limits{MaxRecord: 4 << 20}
	res, err := Score(context.Background(), strings.NewReader(in), "big.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Combined.N != 3 {
		t.Errorf("scored %d rows, want 3", res.Combined.N)
	}
}
