package stats

import (
	"math/rand/v2"
	"testing"
)

// The budget: 10,000 resamples over 1,000,000 0/1 outcomes in at
// most 50 ms.
func BenchmarkBootstrapProportion1M(b *testing.B) {
	for b.Loop() {
		BootstrapProportion(700000, 1000000, 10000, 0.95, 1)
	}
}

// The budget: 10,000 resamples over 100,000 graded scores in at
// most 2 s on 2 cores. The scores are all distinct, so this is the
// index-resampling path, not the multinomial shortcut.
func BenchmarkBootstrapMean100k(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 100000)
	for i := range x {
		x[i] = r.Float64()
	}
	for b.Loop() {
		BootstrapMean(x, 10000, 0.95, 1)
	}
}

func BenchmarkPairedBootstrapDiff100k(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	old := make([]float64, 100000)
	new := make([]float64, 100000)
	for i := range old {
		old[i] = float64(r.IntN(2))
		new[i] = float64(r.IntN(2))
	}
	for b.Loop() {
		PairedBootstrapDiff(old, new, 10000, 0.95, 1)
	}
}

func BenchmarkClusterBootstrap(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 100000)
	c := make([]string, len(x))
	names := make([]string, 5000)
	for i := range names {
		names[i] = "passage" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
	}
	for i := range x {
		x[i] = float64(r.IntN(2))
		c[i] = names[i/20]
	}
	for b.Loop() {
		ClusterBootstrap(x, c, 10000, 0.95, 1)
	}
}

func BenchmarkSignTest(b *testing.B) {
	for b.Loop() {
		SignTest(400000, 410000)
	}
}
