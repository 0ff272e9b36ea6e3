package agree

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strconv"
	"testing"
)

// benchTable writes a label table of n rows as internal/tools/genlabels
// does (a true label of five; each of the raters gives it with
// probability p, else a uniform label; a rating left out with
// probability missing), with an id column.
func benchTable(n, raters int, p, missing float64) []byte {
	r := rand.New(rand.NewPCG(1, 0x67656e6c6162656c))
	var b bytes.Buffer
	b.WriteString("id")
	for j := range raters {
		b.WriteString(",r" + strconv.Itoa(j+1))
	}
	b.WriteByte('\n')
	var buf []byte
	for i := range n {
		buf = append(buf[:0], "item"...)
		buf = strconv.AppendInt(buf, int64(i+1), 10)
		truth := r.IntN(5)
		for range raters {
			buf = append(buf, ',')
			if missing > 0 && r.Float64() < missing {
				continue
			}
			l := truth
			if r.Float64() >= p {
				l = r.IntN(5)
			}
			buf = append(buf, 'l')
			buf = strconv.AppendInt(buf, int64(l+1), 10)
		}
		buf = append(buf, '\n')
		b.Write(buf)
	}
	return b.Bytes()
}

func benchAnalyze(b *testing.B, data []byte, raters []string, opt Options) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnalyzeCSV(bytes.NewReader(data), "bench.csv", raters, "id", opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAgreeKappa1M is `evalbook agree` on a million label pairs
// (17 MB, 80% agreement with a true label) with the default interval
// (10,000 resamples): the target is at most 1 s.
func BenchmarkAgreeKappa1M(b *testing.B) {
	benchAnalyze(b, benchTable(1000000, 2, 0.8, 0), []string{"r1", "r2"}, Options{Seed: 1})
}

// BenchmarkAgreeKappa1MPoint is the same with one resample: the reading
// and the point estimate.
func BenchmarkAgreeKappa1MPoint(b *testing.B) {
	benchAnalyze(b, benchTable(1000000, 2, 0.8, 0), []string{"r1", "r2"}, Options{Seed: 1, Resamples: 1})
}

// BenchmarkAgreeAlpha1M is Krippendorff's alpha over a million units of
// three raters (90% agreement, 5% of ratings missing) with the default
// interval: the target is at most 5 s and 200 MB.
func BenchmarkAgreeAlpha1M(b *testing.B) {
	benchAnalyze(b, benchTable(1000000, 3, 0.9, 0.05), []string{"r1", "r2", "r3"}, Options{Seed: 1})
}

// BenchmarkBootstrapKappaTable is the interval alone: 10,000 multinomial
// draws of a 5×5 table of a million items.
func BenchmarkBootstrapKappaTable(b *testing.B) {
	counts := [][]int{{142287, 9000, 9100, 8900, 9050}, {9000, 141000, 9000, 9000, 9000}, {9000, 9000, 143000, 9000, 9000}, {9000, 9000, 9000, 142000, 9000}, {9000, 9000, 9000, 9000, 141000}}
	for b.Loop() {
		if _, err := bootstrapKappaTable(counts, Unweighted, 10000, 0.95, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAgreeKappa1MText is what `evalbook agree` does on a million
// label pairs with the default interval, end to end but for opening the
// file: reading, the analysis and the text (288k disagreements).
func BenchmarkAgreeKappa1MText(b *testing.B) {
	data := benchTable(1000000, 2, 0.8, 0)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := AnalyzeCSV(bytes.NewReader(data), "bench.csv", []string{"r1", "r2"}, "id", Options{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		if err := res.WriteText(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAgreeKappa1MResult is what `evalbook agree` does now on a
// million label pairs with the default interval, but for opening the
// file: AnalyzeCSVResult and its WriteText (288k disagreements), which
// writes the disagreements without building their list.
func BenchmarkAgreeKappa1MResult(b *testing.B) {
	data := benchTable(1000000, 2, 0.8, 0)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := AnalyzeCSVResult(bytes.NewReader(data), "bench.csv", []string{"r1", "r2"}, "id", Options{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		if err := res.WriteText(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}
