package xlsxreport

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
)

// bigVerdicts writes a verdict file of n rows to a temporary file by
// cycling the sample's 284 verdict rows (ids made unique), and returns
// the file and a copy of the sample result with the row count, pass
// counts, sums and agreement buckets of those n rows (which Write checks;
// the other figures are the sample's and do not matter to the writer).
func bigVerdicts(b *testing.B, n int) (*results.Score, string) {
	b.Helper()
	s, verdicts := sample(b)
	recs, err := csv.NewReader(bytes.NewReader(verdicts)).ReadAll()
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "verdicts.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	cw := csv.NewWriter(bw)
	cw.Write(recs[0])
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i // the last column of a name: the scorer's
	}
	sums := map[string]float64{}
	buckets := make([][4]int, len(s.Agreement))
	for i := range n {
		r := append([]string(nil), recs[1+i%(len(recs)-1)]...)
		r[0] += "-" + strconv.Itoa(i)
		cw.Write(r)
		for _, id := range s.Settings.Metrics {
			x, _ := results.Number(r[col[id]])
			sums[id] += x
		}
		for p, a := range s.Agreement {
			f, g := r[col[a.First]] == "1", r[col[a.Second]] == "1"
			switch {
			case f && g:
				buckets[p][0]++
			case !f && !g:
				buckets[p][1]++
			case f:
				buckets[p][2]++
			default:
				buckets[p][3]++
			}
		}
	}
	for id, x := range sums {
		m := s.Combined.Metrics[id]
		m.Correct = x
		s.Combined.Metrics[id] = m
	}
	for p := range s.Agreement {
		a := &s.Agreement[p]
		a.Both, a.Neither, a.OnlyFirst, a.OnlySecond = buckets[p][0], buckets[p][1], buckets[p][2], buckets[p][3]
	}
	cw.Flush()
	if err := bw.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	s.Combined.N = n
	return s, path
}

// BenchmarkWriteMillion renders a workbook with 1,000,000 verdict rows
// (about 150,000 disagreement rows) to io.Discard. Peak memory is best
// measured on the command (see the package tests' README notes):
//
//	go test -run='^$' -bench=WriteMillion -benchtime=1x ./pkg/xlsxreport
func BenchmarkWriteMillion(b *testing.B) {
	s, path := bigVerdicts(b, 1_000_000)
	b.ResetTimer()
	for range b.N {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		info, err := Write(io.Discard, s, Options{Verdicts: f, VerdictsName: path})
		f.Close()
		if err != nil {
			b.Fatal(err)
		}
		if info.VerdictRows != 1_000_000 {
			b.Fatalf("wrote %d rows", info.VerdictRows)
		}
	}
}
