package htmlreport

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// BenchmarkWriteMillion renders the report of a 1,000,000-row verdict
// file (the sample's 284 rows cycled, ids made unique) with the default
// cap of 1,000 verdict and 1,000 disagreement rows:
//
//	go test -run='^$' -bench=WriteMillion -benchtime=3x ./pkg/htmlreport
func BenchmarkWriteMillion(b *testing.B) {
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
	const n = 1_000_000
	es, wo := slices.Index(recs[0], "exact_substring"), slices.Index(recs[0], "word_overlap")
	disagree := 0
	for i := range n {
		r := append([]string(nil), recs[1+i%(len(recs)-1)]...)
		r[0] += "-" + strconv.Itoa(i)
		if r[es] != r[wo] {
			disagree++
		}
		cw.Write(r)
	}
	cw.Flush()
	bw.Flush()
	f.Close()
	s.Combined.N = n
	// The writer stops reading once it has the rows it shows, knowing
	// from the agreement how many disagreements there are in all.
	s.Agreement[0].OnlyFirst, s.Agreement[0].OnlySecond = disagree, 0
	b.ResetTimer()
	for range b.N {
		in, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		if err := Write(io.Discard, s, Options{Verdicts: in}); err != nil {
			b.Fatal(err)
		}
		in.Close()
	}
}
