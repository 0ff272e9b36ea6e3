package qa

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestWorkerEncodingMatchesWriter holds the verdict file that workers
// encode (only Options.Verdicts wants the rows) byte for byte equal to
// the one the verdict writer writes row by row (Options.Rows set too,
// which keeps the rows), and the results equal: on tricky long records
// (quotes, line breaks, CRLF, records over longRecord written in
// place), formula cells (guarded, counted and their lines listed in
// file order, also when a long record has one), with and without
// RawCSV, in CSV and JSONL.
func TestWorkerEncodingMatchesWriter(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	formulas := []string{"=1+1", "+x", "-y", "@z", "ok", "fine", "=A1"}
	var csvIn bytes.Buffer
	csvIn.WriteString("id,question,answer,Domain,response\n")
	var jsonIn bytes.Buffer
	for i := 0; i < 300; i++ {
		q := formulas[rng.IntN(len(formulas))]
		resp := strings.Repeat([]string{"Delhi ", "नई दिल्ली। ", "a,b ", `say "hi" `, "line\nbreak "}[rng.IntN(5)], rng.IntN(40))
		if rng.IntN(4) == 0 {
			resp = formulas[rng.IntN(len(formulas))] + resp
		}
		rec := []string{fmt.Sprint(i), q, "Delhi", []string{"A", "B"}[rng.IntN(2)], resp}
		csvIn.Write(appendCSV(nil, rec))
		csvIn.WriteString("\n")
		b, _ := json.Marshal(map[string]string{"id": rec[0], "question": rec[1], "answer": rec[2], "Domain": rec[3], "response": rec[4]})
		jsonIn.Write(b)
		jsonIn.WriteString("\n")
	}
	for _, c := range []struct{ block, long int }{{16, 16}, {64, 100}, {1000, 200}, {256 << 10, 4 << 20}} {
		for _, raw := range []bool{false, true} {
			for _, in := range []struct {
				name string
				data []byte
			}{{"t.csv", csvIn.Bytes()}, {"t.jsonl", jsonIn.Bytes()}} {
				t.Run(fmt.Sprintf("%s/block%d/long%d/raw=%v", in.name, c.block, c.long, raw), func(t *testing.T) {
					withLong(t, c.block, c.long)
					run := func(rows bool) (string, string) {
						var out bytes.Buffer
						opt := Options{Verdicts: &out, RawCSV: raw, Workers: 2}
						if rows {
							opt.Rows = func(*Row) error { return nil }
						}
						res, err := Score(context.Background(), bytes.NewReader(in.data), in.name, opt)
						if err != nil {
							t.Fatal(err)
						}
						j, _ := json.Marshal(res)
						return out.String(), string(j)
					}
					encoded, encodedJSON := run(false)
					written, writtenJSON := run(true)
					if encoded != written {
						t.Errorf("verdict files differ: encoded by the workers %d bytes, written row by row %d bytes", len(encoded), len(written))
					}
					if encodedJSON != writtenJSON {
						t.Errorf("results differ:\n%s\n%s", encodedJSON, writtenJSON)
					}
					if !raw && !strings.Contains(encodedJSON, CodeFormulaCells) {
						t.Errorf("no %s warning: the test has no guarded cell", CodeFormulaCells)
					}
				})
			}
		}
	}
}

// appendCount writes a word count as strconv.AppendInt does, the one-
// and two-digit counts it writes itself included.
func TestAppendCount(t *testing.T) {
	for _, n := range append([]int{-100, -10, -1, 1000, 123456, math.MaxInt, math.MinInt}, seq(0, 1000)...) {
		if got, want := string(appendCount([]byte("x"), n)), "x"+strconv.Itoa(n); got != want {
			t.Fatalf("appendCount(%d) = %q, want %q", n, got, want)
		}
	}
}

func seq(lo, hi int) []int {
	var s []int
	for n := lo; n < hi; n++ {
		s = append(s, n)
	}
	return s
}
