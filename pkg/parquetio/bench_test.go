package parquetio

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
)

// benchRows yields n verdict rows as pkg/qa hands them out: one Row value
// reused, its fields new strings each row (about 150 bytes of text), three
// models and four languages, two binary metrics with word counts.
func benchRows(n int) func(func(*results.Row, error) bool) {
	s := results.NewRowSchema([]string{"id", "question", "answer", "Domain", "response", "model", "language"},
		[]string{"exact_substring", "word_overlap"}, []bool{false, false}, true, []string{"Domain"})
	models := []string{"gpt-4o-mini", "llama-3-8b", "sarvam-1"}
	langs := []string{"hi", "bn", "en", "ta"}
	domains := []string{"geography", "history", "science", "civics"}
	return func(yield func(*results.Row, error) bool) {
		r := &results.Row{Schema: s, Fields: make([]string, 7), Values: make([]float64, 2), Groups: make([]string, 1)}
		for i := 0; i < n; i++ {
			r.Line = i + 2
			r.Fields[0] = strconv.Itoa(i)
			r.Fields[1] = "What is the capital of the state numbered " + strconv.Itoa(i%977) + "?"
			r.Fields[2] = "City " + strconv.Itoa(i%977)
			r.Fields[3] = domains[i%4]
			r.Fields[4] = "The capital is City " + strconv.Itoa((i*7)%977) + ", as far as I know."
			r.Fields[5] = models[i%3]
			r.Fields[6] = langs[(i/3)%4]
			v := float64((i * 7 % 977) / 976)
			if i%977 == (i*7)%977 {
				v = 1
			}
			r.Values[0], r.Values[1] = v, v
			r.Matching, r.TotalGolden = int(v)*2, 2
			r.Blank = i%101 == 0
			r.Groups[0] = r.Fields[3]
			if !yield(r, nil) {
				return
			}
		}
	}
}

// peakHeap samples the heap in use while f runs (at every 16384th row of
// the sequence) and returns the largest sample in MB.
func peakHeap(seq func(func(*results.Row, error) bool)) (func(func(*results.Row, error) bool), func() float64) {
	var peak uint64
	var ms runtime.MemStats
	sample := func() {
		runtime.ReadMemStats(&ms)
		peak = max(peak, ms.HeapInuse)
	}
	wrapped := func(yield func(*results.Row, error) bool) {
		k := 0
		for r, err := range seq {
			if k++; k%16384 == 0 {
				sample()
			}
			if !yield(r, err) {
				return
			}
		}
		sample()
	}
	return wrapped, func() float64 { return float64(peak) / (1 << 20) }
}

// BenchmarkWrite1M writes 1M verdict rows to one Parquet file on disk
// (`score --out verdicts.parquet`). Issue 13's target: at most 2 s and
// 200 MB.
func BenchmarkWrite1M(b *testing.B) {
	path := filepath.Join(b.TempDir(), "verdicts.parquet")
	var peak float64
	for b.Loop() {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		seq, pk := peakHeap(benchRows(1_000_000))
		if _, err := WriteRows(f, seq, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
		if err := f.Close(); err != nil {
			b.Fatal(err)
		}
		peak = max(peak, pk())
	}
	st, _ := os.Stat(path)
	b.ReportMetric(peak, "heap-peak-MB")
	b.ReportMetric(float64(st.Size())/(1<<20), "file-MB")
}

// BenchmarkWriteDir1M writes 1M verdict rows to a folder partitioned by
// model and language (12 partitions).
func BenchmarkWriteDir1M(b *testing.B) {
	base := b.TempDir()
	var peak float64
	k := 0
	for b.Loop() {
		k++
		seq, pk := peakHeap(benchRows(1_000_000))
		res, err := WriteDir(filepath.Join(base, fmt.Sprint(k)), seq, DirOptions{By: []string{"model", "language"}})
		if err != nil {
			b.Fatal(err)
		}
		if res.Partitions != 12 {
			b.Fatalf("%d partitions", res.Partitions)
		}
		peak = max(peak, pk())
	}
	b.ReportMetric(peak, "heap-peak-MB")
}

// BenchmarkRead1M reads back 1M rows with the qa reader (Source).
func BenchmarkRead1M(b *testing.B) {
	path := filepath.Join(b.TempDir(), "verdicts.parquet")
	f, _ := os.Create(path)
	if _, err := WriteRows(f, benchRows(1_000_000), WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	f.Close()
	for b.Loop() {
		f, _ := os.Open(path)
		src, err := Open(f, path)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for {
			_, _, err := src.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		f.Close()
		if n != 1_000_000 {
			b.Fatalf("%d rows", n)
		}
	}
}

// BenchmarkGenerate1M is the cost of the benchmarks' input alone (making
// 1M rows' strings), to subtract from the writing figures.
func BenchmarkGenerate1M(b *testing.B) {
	for b.Loop() {
		n := 0
		for r := range benchRows(1_000_000) {
			n += len(r.Fields[1])
		}
		if n == 0 {
			b.Fatal("no rows")
		}
	}
}

// BenchmarkDictLabels adds 65,536 labels in random order to a dictionary
// column of a few values (strCol.add, each row's model, language or
// subject): eight subjects of 6-10 bytes, three languages of 2.
func BenchmarkDictLabels(b *testing.B) {
	sets := map[string][]string{
		"subjects":  {"Economics", "Geography", "Health", "History", "Literature", "Science", "Sports", "Technology"},
		"languages": {"bn", "en", "hi"},
	}
	for _, name := range []string{"subjects", "languages"} {
		labels := sets[name]
		vals := make([]string, 65536)
		for i, x := range xorshift32(len(vals)) {
			vals[i] = labels[int(x%uint32(len(labels)))]
		}
		b.Run(name, func(b *testing.B) {
			var c strCol
			for b.Loop() {
				c.reset(true, false)
				for _, v := range vals {
					c.add(v)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(vals)), "ns/label")
		})
	}
}

// BenchmarkBitPacked packs a page's worth of dictionary indices (65,536)
// as numChunk does: width 1 (a binary metric), 4 (a word count) and 14
// (golden answers, past the eight-bit fast path).
func BenchmarkBitPacked(b *testing.B) {
	for _, w := range []int{1, 4, 14} {
		v := make([]int32, 65536)
		for i, x := range xorshift32(len(v)) {
			v[i] = int32(x & (1<<w - 1))
		}
		b.Run(fmt.Sprintf("width%d", w), func(b *testing.B) {
			var dst []byte
			for b.Loop() {
				dst = appendBitPacked(dst[:0], v, w)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(v)), "ns/value")
		})
	}
}

// xorshift32 returns n pseudo-random numbers of Marsaglia's 32-bit
// xorshift (13, 17, 5) from the seed 1, the same on every run.
func xorshift32(n int) []uint32 {
	out := make([]uint32, n)
	x := uint32(1)
	for i := range out {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		out[i] = x
	}
	return out
}
