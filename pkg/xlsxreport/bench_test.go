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
// the file and a copy of the sample result whose row count is n. The
// figures are the sample's; only the row count matters for the writer.
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
	for i := range n {
		r := append([]string(nil), recs[1+i%(len(recs)-1)]...)
		r[0] += "-" + strconv.Itoa(i)
		cw.Write(r)
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
