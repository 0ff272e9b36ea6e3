package stats

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Default sample counts of the corpus significance tests, as sacreBLEU's
// --paired-bs (1000 resamples) and --paired-ar (10000 trials), and its
// default seed (SACREBLEU_SEED, 12345).
const (
	DefaultPairedBootstrapResamples = 1000
	DefaultRandomizationTrials      = 10000
	DefaultCorpusSeed               = 12345
)

// CodeIdenticalSystems: the two systems' row statistics are the same, so
// every resampled difference is 0 and, by sacreBLEU's strict rule, the
// p-value is its minimum 1/(samples + 1).
const CodeIdenticalSystems = "identical_systems"

// CorpusTest is a paired significance test of a corpus-level statistic
// (corpus BLEU, chrF, TER) between a baseline A and a system B scored on
// the same n rows.
type CorpusTest struct {
	Method  string  // "paired-bs" or "paired-ar"
	Samples int     // bootstrap resamples or randomization trials
	Seed    uint64  // the PCG seed of the draws
	N       int     // rows
	A, B    float64 // the statistic of each system on all rows
	Diff    float64 // B − A
	// P is (#{resampled statistic > |B − A|} + 1) / (Samples + 1), the
	// estimate sacreBLEU (after multeval) reports.
	P float64
	// For paired-bs: the mean of each system's resampled statistic and the
	// half-width of sacreBLEU's 95% interval around it (the resamples at
	// ⌊R/40⌋ and R − ⌊R/40⌋ − 1 in order), as sacreBLEU prints μ ± ci;
	// ALo/AHi and BLo/BHi are those two resamples. Zero for paired-ar.
	AMean, ACI, BMean, BCI float64
	ALo, AHi, BLo, BHi     float64
	Warnings               []Warning
}

// PairedBootstrapCorpus is sacreBLEU's paired bootstrap resampling test
// (--paired-bs; Koehn 2004, as Moses' bootstrap-hypothesis-difference-
// significance.pl): a and b hold n rows of k sufficient statistics each
// (row i of a and of b are the same item), final turns summed statistics
// into the corpus value. Each of resamples replicates draws n row indices
// with replacement, the same for both systems, and computes
// dᵣ = |final(Σ b) − final(Σ a)| over them; with d̄ their mean,
//
//	p = (#{r : dᵣ − d̄ > |B − A|} + 1) / (resamples + 1),
//
// the share of centred resampled differences beyond the observed one
// (the bootstrap distribution shifted to the null of no difference). The
// counts and the rule are sacreBLEU's (significance.py, _paired_bs_test
// and _compute_p_value); the draws are evalbook's PCG streams (seed,
// r + 1), not numpy's, so p agrees with sacreBLEU's within Monte Carlo
// error, not digit for digit. Like sacreBLEU it counts strictly, so two
// identical systems get p = 1/(resamples + 1) (CodeIdenticalSystems).
// It panics on misuse (different lengths, rows not of k values, a nil
// final, resamples < 1).
func PairedBootstrapCorpus(a, b []float64, k int, final func(sums []float64) float64, resamples int, seed uint64) CorpusTest {
	n := checkCorpusPair(a, b, k, final, resamples)
	t := corpusBase("paired-bs", a, b, k, final, resamples, seed, n)
	if n == 0 {
		return t
	}
	sa := make([]float64, resamples)
	sb := make([]float64, resamples)
	parallelFor(resamples, func(r int, p *pcg) {
		p.seed(seed, uint64(r)+1)
		suma, sumb := make([]float64, k), make([]float64, k)
		un := uint64(n)
		for range n {
			i := int(uintN(p, un)) * k
			for j := range k {
				suma[j] += a[i+j]
				sumb[j] += b[i+j]
			}
		}
		sa[r], sb[r] = final(suma), final(sumb)
	})
	d := make([]float64, resamples)
	mean := 0.0
	for r := range d {
		d[r] = math.Abs(sb[r] - sa[r])
		mean += d[r]
	}
	mean /= float64(resamples)
	obs := math.Abs(t.Diff)
	c := 0
	for _, v := range d {
		if v-mean > obs {
			c++
		}
	}
	t.P = float64(c+1) / float64(resamples+1)
	t.AMean, t.ACI, t.ALo, t.AHi = sacreCI(sa)
	t.BMean, t.BCI, t.BLo, t.BHi = sacreCI(sb)
	return t
}

// ApproximateRandomizationCorpus is sacreBLEU's paired approximate
// randomization test (--paired-ar; Riezler and Maxwell 2005, as multeval's
// StratifiedApproximateRandomizationTest): each of trials trials swaps
// the two systems' rows item by item with probability 1/2 (a fair coin
// per item, from the PCG stream (seed, t + 1)) and computes the absolute
// difference of the two shuffled corpora's values; then
//
//	p = (#{t : |final(Σ shuffled a) − final(Σ shuffled b)| > |B − A|} + 1) / (trials + 1).
//
// The rule, the +1 and the strict count are sacreBLEU's; identical
// systems get p = 1/(trials + 1) (CodeIdenticalSystems). Panics as
// PairedBootstrapCorpus.
func ApproximateRandomizationCorpus(a, b []float64, k int, final func(sums []float64) float64, trials int, seed uint64) CorpusTest {
	n := checkCorpusPair(a, b, k, final, trials)
	t := corpusBase("paired-ar", a, b, k, final, trials, seed, n)
	if n == 0 {
		return t
	}
	obs := math.Abs(t.Diff)
	beyond := make([]bool, trials)
	parallelFor(trials, func(r int, p *pcg) {
		p.seed(seed, uint64(r)+1)
		suma, sumb := make([]float64, k), make([]float64, k)
		var bits uint64
		for i := range n {
			if i%64 == 0 {
				bits = p.Uint64()
			}
			x, y := a[i*k:(i+1)*k], b[i*k:(i+1)*k]
			if bits&1 == 1 {
				x, y = y, x
			}
			bits >>= 1
			for j := range k {
				suma[j] += x[j]
				sumb[j] += y[j]
			}
		}
		beyond[r] = math.Abs(final(suma)-final(sumb)) > obs
	})
	c := 0
	for _, v := range beyond {
		if v {
			c++
		}
	}
	t.P = float64(c+1) / float64(trials+1)
	return t
}

func checkCorpusPair(a, b []float64, k int, final func([]float64) float64, samples int) int {
	if k < 1 || len(a) != len(b) || len(a)%k != 0 || final == nil || samples < 1 {
		panic(fmt.Sprintf("stats: corpus test of %d and %d values in rows of %d with %d samples (or a nil final)", len(a), len(b), k, samples))
	}
	for i := range a {
		if !finite(a[i]) || !finite(b[i]) {
			panic(fmt.Sprintf("stats: corpus test: a non-finite statistic at index %d", i))
		}
	}
	return len(a) / k
}

func corpusBase(method string, a, b []float64, k int, final func([]float64) float64, samples int, seed uint64, n int) CorpusTest {
	t := CorpusTest{Method: method, Samples: samples, Seed: seed, N: n}
	if n == 0 {
		t.Warnings = []Warning{warning(CodeNoData, "no rows: nothing to test")}
		t.P = 1
		return t
	}
	ta, tb := make([]float64, k), make([]float64, k)
	for i := range a {
		ta[i%k] += a[i]
		tb[i%k] += b[i]
	}
	t.A, t.B = final(ta), final(tb)
	t.Diff = t.B - t.A
	if slices.Equal(a, b) {
		t.Warnings = append(t.Warnings, warning(CodeIdenticalSystems,
			"the two systems have the same statistics on every row: by sacreBLEU's strict count the p-value is its minimum, 1/(%d + 1), which says nothing", samples))
	}
	return t
}

// sacreCI is sacreBLEU's estimate_ci: the mean of the resampled values
// and half the distance between the ⌊R/40⌋-th and (R − ⌊R/40⌋ − 1)-th in
// order (0-based).
func sacreCI(v []float64) (mean, half, lo, hi float64) {
	s := slices.Clone(v)
	slices.Sort(s)
	for _, x := range s {
		mean += x
	}
	mean /= float64(len(s))
	li := len(s) / 40
	lo, hi = s[li], s[len(s)-li-1]
	return mean, (hi - lo) / 2, lo, hi
}

// parallelFor calls f(r, p) for r in [0, count) on all cores, each worker
// with its own generator (f seeds it per r, so the result does not depend
// on GOMAXPROCS).
func parallelFor(count int, f func(r int, p *pcg)) {
	workers := min(runtime.GOMAXPROCS(0), count)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var p pcg
			for {
				r := next.Add(1) - 1
				if r >= int64(count) {
					return
				}
				f(int(r), &p)
			}
		})
	}
	wg.Wait()
}
