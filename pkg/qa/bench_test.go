package qa

import (
	"bytes"
	"context"
	"io"
	"os"
	"testing"
)

// BenchmarkScoreCSV scores the file named by $EVALBOOK_BENCH_CSV (e.g. the
// million-row file that scripts/bench-score.sh generates) with the two seed
// metrics and writes the verdict file to io.Discard. Without the variable it
// scores the embedded sample repeated to about 20 MB.
func BenchmarkScoreCSV(b *testing.B) {
	data := benchData(b)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, err := Score(context.Background(), bytes.NewReader(data), "bench.csv", Options{Verdicts: io.Discard})
		if err != nil {
			b.Fatal(err)
		}
	}
}

func benchData(b *testing.B) []byte {
	if p := os.Getenv("EVALBOOK_BENCH_CSV"); p != "" {
		d, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	sample, err := os.ReadFile("../../datasets/responses.csv")
	if err != nil {
		b.Fatal(err)
	}
	nl := bytes.IndexByte(sample, '\n')
	var buf bytes.Buffer
	buf.Write(sample[:nl+1])
	for buf.Len() < 20<<20 {
		buf.Write(sample[nl+1:])
	}
	return buf.Bytes()
}

// BenchmarkScoreRows scores the same data as BenchmarkScoreCSV and hands
// every scored row to Options.Rows (which only counts them) instead of
// writing the verdict file: the cost of rows as values.
func BenchmarkScoreRows(b *testing.B) {
	data := benchData(b)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := 0
		_, err := Score(context.Background(), bytes.NewReader(data), "bench.csv", Options{Rows: func(*Row) error { n++; return nil }})
		if err != nil {
			b.Fatal(err)
		}
	}
}
