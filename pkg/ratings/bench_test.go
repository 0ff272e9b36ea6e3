package ratings

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// benchVerdicts: 20 models with log-strengths spread over [−1, 1], 10,000
// verdicts on 2,000 items, 10% ties.
func benchVerdicts() []Verdict {
	r := rand.New(rand.NewPCG(1, 2))
	const k = 20
	vs := make([]Verdict, 0, 10000)
	for n := range 10000 {
		a, b := r.IntN(k), r.IntN(k-1)
		if b >= a {
			b++
		}
		ta, tb := -1+2*float64(a)/(k-1), -1+2*float64(b)/(k-1)
		w := WinnerB
		switch u := r.Float64(); {
		case u < 0.1:
			w = WinnerTie
		case u < 0.1+0.9/(1+math.Exp(tb-ta)):
			w = WinnerA
		}
		vs = append(vs, Verdict{ModelA: fmt.Sprintf("m%02d", a), ModelB: fmt.Sprintf("m%02d", b), Winner: w, Item: fmt.Sprintf("q%d", n%2000)})
	}
	return vs
}

// BenchmarkAnalyze: 20 models × 10,000 verdicts × 1,000 replicates.
func BenchmarkAnalyze(b *testing.B) {
	vs := benchVerdicts()
	for b.Loop() {
		if _, err := Analyze(vs, "bench", Options{Resamples: 1000, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// millionVerdicts: 20 models as benchVerdicts, 1,000,000 verdicts, on
// 100,000 items (10 verdicts each) when items is true, else without item
// ids (every verdict its own resampling unit).
func millionVerdicts(items bool) []Verdict {
	r := rand.New(rand.NewPCG(3, 4))
	const k = 20
	names := make([]string, k)
	for i := range names {
		names[i] = fmt.Sprintf("m%02d", i)
	}
	vs := make([]Verdict, 0, 1000000)
	for n := range 1000000 {
		a, b := r.IntN(k), r.IntN(k-1)
		if b >= a {
			b++
		}
		ta, tb := -1+2*float64(a)/(k-1), -1+2*float64(b)/(k-1)
		w := WinnerB
		switch u := r.Float64(); {
		case u < 0.1:
			w = WinnerTie
		case u < 0.1+0.9/(1+math.Exp(tb-ta)):
			w = WinnerA
		}
		v := Verdict{ModelA: names[a], ModelB: names[b], Winner: w}
		if items {
			v.Item = fmt.Sprintf("q%d", n%100000)
		}
		vs = append(vs, v)
	}
	return vs
}

// BenchmarkMillion: the point fit (no intervals) and the default interval
// (DefaultResamples replicates) on 1,000,000 verdicts, with item ids and
// without. The issue 28 target: the interval costs at most 5x the point fit.
//
//	go test -run '^$' -bench Million -benchtime 3x ./pkg/ratings
func BenchmarkMillion(b *testing.B) {
	for _, items := range []bool{false, true} {
		vs := millionVerdicts(items)
		for _, c := range []struct {
			name      string
			resamples int
		}{{"point", -1}, {"interval", 0}} {
			b.Run(fmt.Sprintf("items=%v/%s", items, c.name), func(b *testing.B) {
				for b.Loop() {
					if _, err := Analyze(vs, "bench", Options{Resamples: c.resamples, Seed: 1}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
