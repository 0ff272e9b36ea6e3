package qa

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

// longTricky is tricky with long fields: each response repeats a piece
// (quotes, commas, line breaks, CRLF, Devanagari) up to 60 times, so that
// many records are far longer than the tiny longRecord of the tests.
func longTricky(rng *rand.Rand, rows int, crlf bool) []byte {
	pieces := []string{"Delhi ", "नई दिल्ली। ", "a,b ", `say "hi" `, "line\nbreak ", "cr\r\nlf ", "Narmada valley "}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.UseCRLF = crlf
	w.Write([]string{"id", "question", "answer", "Domain", "response"})
	for i := 0; i < rows; i++ {
		resp := strings.Repeat(pieces[rng.IntN(len(pieces))], rng.IntN(60))
		w.Write([]string{fmt.Sprint(i), "q", strings.TrimSpace(pieces[rng.IntN(len(pieces))]), []string{"A", "B"}[rng.IntN(2)], resp})
	}
	w.Flush()
	return b.Bytes()
}

// withLong sets blockSize and longRecord for the test, so that records
// longer than long bytes take splitter.long and the writes and examples
// of outsized blocks.
func withLong(t *testing.T, block, long int) {
	oldB, oldL := blockSize, longRecord
	t.Cleanup(func() { blockSize, longRecord = oldB, oldL })
	blockSize, longRecord = block, long
}

// A record read in pieces (splitter.long) scores as encoding/csv reads
// it: the verdict rows (a huge record's text is written straight out)
// and the per-group counts match the oracle for every block and
// threshold, with LF and CRLF.
func TestLongRecordsMatchOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct{ block, long int }{{7, 20}, {16, 16}, {64, 100}, {1000, 200}} {
		for _, crlf := range []bool{false, true} {
			data := longTricky(rng, 200, crlf)
			t.Run(fmt.Sprintf("block%d/long%d/crlf=%v", c.block, c.long, crlf), func(t *testing.T) {
				withLong(t, c.block, c.long)
				compareWithOracle(t, data, textnorm.None)
			})
		}
	}
}

// The examples of the report are the same whether the long records'
// blocks were read in pieces and kept as they are (keep) or read the
// usual way and copied.
func TestLongRecordExamples(t *testing.T) {
	data := longTricky(rand.New(rand.NewPCG(5, 6)), 300, false)
	opt := Options{Examples: 50, Workers: 2}
	want, _ := runScore(t, data, opt)
	withLong(t, 16, 32)
	got, v := runScore(t, data, opt)
	if len(v) != 301 {
		t.Fatalf("%d verdict rows, want 301", len(v))
	}
	if !reflect.DeepEqual(got.Agreement, want.Agreement) {
		t.Errorf("agreement and examples differ when long records are read in pieces:\n got %+v\nwant %+v", got.Agreement, want.Agreement)
	}
	n, long := 0, 0
	for _, a := range got.Agreement {
		for _, ex := range a.Examples {
			n += len(ex)
			for _, e := range ex {
				if len(e.Response) > 32 {
					long++
				}
			}
		}
	}
	if n == 0 || long == 0 {
		t.Errorf("%d examples, %d of them long: the test compares nothing", n, long)
	}
}

// A record over the limit is refused on the long path too, on its line.
func TestLongRecordLimit(t *testing.T) {
	withLong(t, 64, 128)
	long := strings.Repeat("word ", 2000)
	in := "question,answer,Domain,response\nq1,a,geo,a\nq2,needle,geo,\"" + long + "needle\"\nq3,b,geo,b\n"
	old := tabular.Limit
	defer func() { tabular.Limit = old }()
	tabular.Limit = tabular.Limits{MaxRecord: 4000}
	_, err := Score(context.Background(), strings.NewReader(in), "big.csv", Options{})
	var pe *ParseError
	if !errors.Is(err, tabular.ErrTooLong) || !errors.As(err, &pe) || pe.Line != 3 {
		t.Fatalf("a 10 kB record under a 4000-byte limit: %v", err)
	}
	tabular.Limit = tabular.Limits{MaxRecord: 20000}
	res, err := Score(context.Background(), strings.NewReader(in), "big.csv", Options{})
	if err != nil || res.Combined.N != 3 {
		t.Fatalf("under a 20000-byte limit: %v", err)
	}
	if m := res.Combined.Metrics["exact_substring"]; m.Correct != 3 {
		t.Errorf("exact_substring correct = %v, want 3 (a, needle, b all found)", m.Correct)
	}
}

// writeCSV writes, for fields of longRecord bytes or more, the bytes
// appendCSV appends: quotes doubled, fields quoted where encoding/csv
// quotes them.
func TestWriteCSVAsAppendCSV(t *testing.T) {
	withLong(t, 16, 8)
	rng := rand.New(rand.NewPCG(9, 10))
	parts := []string{"a", `"`, ",", "\n", "\r\n", " ", "\t", "नई", "bb"}
	for range 2000 {
		fields := make([]string, 1+rng.IntN(4))
		for i := range fields {
			var b strings.Builder
			for range rng.IntN(20) {
				b.WriteString(parts[rng.IntN(len(parts))])
			}
			fields[i] = b.String()
		}
		var got bytes.Buffer
		if err := writeCSV(&got, fields); err != nil {
			t.Fatal(err)
		}
		if want := appendCSV(nil, fields); got.String() != string(want) {
			t.Fatalf("%q: writeCSV wrote %q, appendCSV %q", fields, got.String(), want)
		}
	}
}

// A JSONL row with a long response writes its verdict row through
// writeCSV: the verdict file reads back with the response as given.
func TestLongJSONLVerdict(t *testing.T) {
	withLong(t, 1<<10, 64)
	resp := strings.Repeat(`say "hi", then `, 20)
	in := `{"question":"q","answer":"hi","Domain":"D","response":"` + strings.ReplaceAll(resp, `"`, `\"`) + `"}` + "\n"
	var out bytes.Buffer
	if _, err := Score(context.Background(), strings.NewReader(in), "t.jsonl", Options{Verdicts: &out}); err != nil {
		t.Fatal(err)
	}
	v, err := csv.NewReader(&out).ReadAll()
	if err != nil || len(v) != 2 || v[1][3] != resp {
		t.Fatalf("verdict file %q, err %v; want the response back", v, err)
	}
}

// A JSONL row's long response is kept in its example as read (the
// reader's own string, not copied): the example shows it whole.
func TestLongJSONLExample(t *testing.T) {
	withLong(t, 1<<10, 64)
	resp := strings.Repeat("the answer is hi ", 20)
	in := `{"question":"q","answer":"hi","Domain":"D","response":"` + resp + `"}` + "\n"
	res, err := Score(context.Background(), strings.NewReader(in), "t.jsonl", Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range res.Agreement {
		for _, ex := range a.Examples {
			for _, e := range ex {
				n++
				if e.Response != resp {
					t.Errorf("example response %q, want %q", e.Response, resp)
				}
			}
		}
	}
	if n == 0 {
		t.Error("no example: the test compares nothing")
	}
}
