package stats

import (
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// BootstrapMean returns the percentile bootstrap interval for the mean of
// x (graded scores such as F1 in [0, 1], or any real values), from
// resamples resamples drawn with the given seed:
//
//	x̄*_b = (1/n) Σᵢ x[Jᵢ],  Jᵢ uniform on {0, …, n−1}, b = 1 … B
//	lo, hi = quantiles (1−c)/2 and (1+c)/2 of {x̄*_b}
//
// When x holds at most 32 distinct values (0/1 outcomes, F1 on short
// answers), how often each value is drawn is Multinomial(n, counts/n),
// which is drawn as a chain of exact binomials: the same distribution at
// a cost independent of n. Otherwise each resample draws n indices with
// PCG, two 32-bit indices per 64-bit output (Lemire's multiply-shift with
// rejection, so every index is exactly uniform), and the resamples are
// shared among runtime.GOMAXPROCS(0) goroutines. Resample b always uses
// the PCG stream derived from (seed, b), so the interval depends on the
// seed only, not on the number of cores.
//
// It panics if x contains NaN or an infinity. With no data it returns [0, 0] with a
// warning; see BootstrapMeanInterval.
func BootstrapMean(x []float64, resamples int, confidence float64, seed uint64) (lo, hi float64) {
	iv := BootstrapMeanInterval(x, resamples, confidence, seed)
	return iv.Lo, iv.Hi
}

// BootstrapMeanInterval is BootstrapMean with warnings: no data
// (CodeNoData), fewer than MinBootstrapN values (CodeFewResampled), all
// values equal (a single-point interval, CodePointInterval).
func BootstrapMeanInterval(x []float64, resamples int, confidence float64, seed uint64) Interval {
	iv := bootstrapMean(x, resamples, confidence, seed, "values")
	iv.Method = "bootstrap"
	return iv
}

func bootstrapMean(x []float64, resamples int, confidence float64, seed uint64, what string) Interval {
	checkConfidence(confidence)
	checkResamples(resamples)
	iv := Interval{Confidence: confidence}
	if len(x) == 0 {
		iv.Warnings = []Warning{warning(CodeNoData, "no %s: the interval is [0, 0] and means nothing", what)}
		return iv
	}
	for i, v := range x {
		if !finite(v) {
			panic(fmt.Sprintf("stats: %v at index %d", v, i))
		}
	}
	var means []float64
	if vals, counts, ok := distinct(x, 32); ok {
		means = multinomialMeans(vals, counts, len(x), resamples, seed)
	} else {
		means = resampleAll(resamples, seed, func(p *pcg) float64 { return resampledMean(x, p) })
	}
	slices.Sort(means)
	iv.Lo, iv.Hi = percentileInterval(means, confidence)
	iv.Warnings = bootstrapWarnings(len(x), what)
	if _, _, ok := distinct(x, 1); ok {
		w := warning(CodePointInterval, "all %d %s are equal: the bootstrap interval is a single point", len(x), what)
		if what == "pairs" {
			w = warning(CodePointInterval, "all %d pairs differ by the same amount: the bootstrap interval is a single point", len(x))
		}
		iv.Warnings = append(iv.Warnings, w)
	}
	return iv
}

// distinct returns the distinct values of x in order of first appearance
// and how often each occurs, or ok = false if there are more than limit.
func distinct(x []float64, limit int) (vals []float64, counts []int, ok bool) {
	index := make(map[float64]int, limit+1)
	for _, v := range x {
		i, seen := index[v]
		if !seen {
			if len(vals) == limit {
				return nil, nil, false
			}
			i = len(vals)
			index[v] = i
			vals = append(vals, v)
			counts = append(counts, 0)
		}
		counts[i]++
	}
	return vals, counts, true
}

// multinomialMeans draws resamples resampled means of n values taking
// vals with the given counts: (C₁ … C_k) ~ Multinomial(n, counts/n) drawn
// as C_j ~ Binomial(n − Σ_{i<j} C_i, counts_j / Σ_{i≥j} counts_i).
func multinomialMeans(vals []float64, counts []int, n, resamples int, seed uint64) []float64 {
	r := newRand(seed, 0)
	out := make([]float64, resamples)
	first := makeBinomial(n, float64(counts[0])/float64(n))
	for b := range out {
		left, leftCount := n, n
		sum := 0.0
		for j := range vals {
			var c int
			switch {
			case j == len(vals)-1:
				c = left
			case j == 0:
				c = first.draw(r)
			default:
				g := makeBinomial(left, float64(counts[j])/float64(leftCount))
				c = g.draw(r)
			}
			sum += vals[j] * float64(c)
			left -= c
			leftCount -= counts[j]
			if left == 0 {
				break
			}
		}
		out[b] = sum / float64(n)
	}
	return out
}

// resampleAll computes stat once per resample b = 0 … resamples−1 on
// runtime.GOMAXPROCS(0) goroutines. Resample b gets the PCG stream
// (seed, b+1) whichever goroutine runs it, so the result does not depend
// on scheduling.
func resampleAll(resamples int, seed uint64, stat func(p *pcg) float64) []float64 {
	out := make([]float64, resamples)
	workers := min(runtime.GOMAXPROCS(0), resamples)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var p pcg
			for {
				b := next.Add(1) - 1
				if b >= int64(resamples) {
					return
				}
				p.seed(seed, uint64(b)+1)
				out[b] = stat(&p)
			}
		})
	}
	wg.Wait()
	return out
}

// pcg is math/rand/v2's PCG generator (128-bit LCG state, DXSM output),
// restated so that the hot loops keep its state in registers instead of
// calling through a pointer for every draw. TestPCGMatchesStdlib checks
// that it yields exactly rand.PCG's sequence for the same seed.
type pcg struct{ hi, lo uint64 }

func (p *pcg) seed(seed, stream uint64) {
	p.hi, p.lo = pcgSeeds(seed, stream)
}

func (p *pcg) Uint64() uint64 {
	const (
		mulHi    = 2549297995355413924
		mulLo    = 4865540595714422341
		incHi    = 6364136223846793005
		incLo    = 1442695040888963407
		cheapMul = 0xda942042e4dd58b5
	)
	hi, lo := bits.Mul64(p.lo, mulLo)
	hi += p.hi*mulLo + p.lo*mulHi
	lo, c := bits.Add64(lo, incLo, 0)
	hi, _ = bits.Add64(hi, incHi, c)
	p.lo, p.hi = lo, hi
	hi ^= hi >> 32
	hi *= cheapMul
	hi ^= hi >> 48
	hi *= lo | 1
	return hi
}

// resampledMean is the mean of len(x) values drawn from x with
// replacement.
func resampledMean(x []float64, src *pcg) float64 {
	n := len(x)
	if uint64(n) >= 1<<32 {
		sum := 0.0
		for range n {
			sum += x[uintN(src, uint64(n))]
		}
		return sum / float64(n)
	}
	// Lemire: a 32-bit r maps to ⌊r·n / 2³²⌋; outputs whose low word is
	// below 2³² mod n are rejected so that every index is equally likely.
	// Each 64-bit output gives two 32-bit candidates. The generator is a
	// local copy so that its state stays in registers.
	un := uint64(n)
	thresh := uint32(-uint32(n)) % uint32(n)
	p := *src
	var s0, s1 float64
	for i := 0; i < n; {
		r := p.Uint64()
		m0 := (r & 0xffffffff) * un
		m1 := (r >> 32) * un
		if uint32(m0) >= thresh && uint32(m1) >= thresh && i+2 <= n {
			s0 += x[m0>>32]
			s1 += x[m1>>32]
			i += 2
			continue
		}
		// Rare path: a rejected candidate, or a single index left.
		if uint32(m0) >= thresh {
			s0 += x[m0>>32]
			i++
		}
		if uint32(m1) >= thresh && i < n {
			s1 += x[m1>>32]
			i++
		}
	}
	*src = p
	return (s0 + s1) / float64(n)
}

// uintN returns a uniform integer in [0, n) (Lemire's method with
// rejection on 64-bit words).
func uintN(p *pcg, n uint64) uint64 {
	hi, lo := bits.Mul64(p.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(p.Uint64(), n)
		}
	}
	return hi
}

// PairedBootstrapDiff returns the percentile bootstrap interval for the
// mean difference new − old over paired cases (the same case scored by
// two versions): pairs are resampled together, so the interval reflects
// the pairing.
//
//	dᵢ = new[i] − old[i],  lo, hi = BootstrapMean(d)
//
// For 0/1 outcomes d takes the values −1, 0 and 1, and each resample is
// an exact multinomial draw of (worse, unchanged, better). It panics if
// the slices differ in length or hold NaN or an infinity.
func PairedBootstrapDiff(old, new []float64, resamples int, confidence float64, seed uint64) (lo, hi float64) {
	iv := PairedBootstrapDiffInterval(old, new, resamples, confidence, seed)
	return iv.Lo, iv.Hi
}

// PairedBootstrapDiffInterval is PairedBootstrapDiff with the warnings of
// BootstrapMeanInterval (counted in pairs).
func PairedBootstrapDiffInterval(old, new []float64, resamples int, confidence float64, seed uint64) Interval {
	if len(old) != len(new) {
		panic(fmt.Sprintf("stats: %d old values and %d new ones", len(old), len(new)))
	}
	d := make([]float64, len(old))
	for i := range d {
		d[i] = new[i] - old[i]
	}
	iv := bootstrapMean(d, resamples, confidence, seed, "pairs")
	iv.Method = "paired-bootstrap"
	return iv
}

// BootstrapStatistic returns the percentile bootstrap interval of a
// statistic computed from per-row statistics summed over rows, such as a
// corpus-level chrF, BLEU or TER. rows holds n rows of k statistics each,
// back to back (row i is rows[i·k : (i+1)·k]); final maps the k sums over
// any multiset of rows to the statistic. Each resample draws n rows with
// replacement and applies final to their summed statistics:
//
//	S*_b = Σᵢ row[Jᵢ],  Jᵢ uniform on {0, …, n−1},  θ*_b = final(S*_b),  b = 1 … B
//	lo, hi = quantiles (1−c)/2 and (1+c)/2 of {θ*_b}
//
// Resample b draws from the PCG stream derived from (seed, b) as in
// BootstrapMean, and the resamples are shared among runtime.GOMAXPROCS(0)
// goroutines, so final is called concurrently and must not keep state;
// the interval depends on the seed only.
//
// Warnings: no rows gives [0, 0] with CodeNoData; fewer than
// MinBootstrapN rows gives CodeFewResampled, the threshold of every
// bootstrap in the package (the percentile bootstrap of a smooth function
// of sums is first-order accurate exactly as that of a mean; Efron and
// Tibshirani, "An Introduction to the Bootstrap", 1993, ch. 13); an
// interval that is a single point (every resample gave the same value)
// gives CodePointInterval. These are the statistic's only warnings:
// callers pass them on and add none of their own.
//
// It panics if k < 1, len(rows) is not a multiple of k, rows holds NaN
// or an infinity, or final is nil.
func BootstrapStatistic(rows []float64, k int, final func(sums []float64) float64, resamples int, confidence float64, seed uint64) Interval {
	checkConfidence(confidence)
	checkResamples(resamples)
	if k < 1 || len(rows)%k != 0 || final == nil {
		panic(fmt.Sprintf("stats: BootstrapStatistic of %d values in rows of %d statistics (or a nil final)", len(rows), k))
	}
	for i, v := range rows {
		if !finite(v) {
			panic(fmt.Sprintf("stats: %v at index %d", v, i))
		}
	}
	iv := Interval{Confidence: confidence, Method: "bootstrap"}
	n := len(rows) / k
	if n == 0 {
		iv.Warnings = []Warning{warning(CodeNoData, "no rows: the interval is [0, 0] and means nothing")}
		return iv
	}
	vals := resampleAll(resamples, seed, func(src *pcg) float64 {
		sums := make([]float64, k)
		p := *src // a local copy keeps the state in registers
		un := uint64(n)
		for range n {
			i := int(uintN(&p, un)) * k
			row := rows[i : i+k : i+k]
			for j, v := range row {
				sums[j] += v
			}
		}
		*src = p
		return final(sums)
	})
	slices.Sort(vals)
	iv.Lo, iv.Hi = percentileInterval(vals, confidence)
	iv.Warnings = bootstrapWarnings(n, "rows")
	if iv.Lo == iv.Hi {
		rows := "rows"
		if n == 1 {
			rows = "row"
		}
		iv.Warnings = append(iv.Warnings, warning(CodePointInterval, "every resample of the %d %s gave the same value: the bootstrap interval is a single point", n, rows))
	}
	return iv
}
