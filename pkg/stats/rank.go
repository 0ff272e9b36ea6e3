package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
)

// DefaultRankResamples is the number of replicates RankBootstrap draws
// when RankOptions.Resamples is 0.
const DefaultRankResamples = 1000

// RankTieRule states how RankBootstrap ranks tied scores: a model's rank
// is 1 plus the number of models scoring strictly higher ("1224"
// competition ranking), so tied models share the better rank. A score
// that is NaN (a model with no item in a replicate) ranks below every
// number.
const RankTieRule = "competition (1 + number of models scoring strictly higher; ties share the better rank)"

// RankOptions configures RankBootstrap. The zero value draws
// DefaultRankResamples replicates for 95% intervals with seed 0.
type RankOptions struct {
	Resamples  int     // replicates; 0 means DefaultRankResamples
	Confidence float64 // 0 means 0.95
	Seed       uint64
	// Multiplicity, when set (one entry per item), says that item i
	// stands for Multiplicity[i] items on which every model scores alike
	// (the items grouped by their values across models): a replicate then
	// draws the groups' counts from the multinomial law of resampling all
	// Σ Multiplicity items, which is the same bootstrap in law at a cost
	// per replicate of the number of groups rather than of items.
	Multiplicity []int
}

// ModelRank is one model's rank on the point scores, the percentile
// interval of its rank over the replicates, and the bootstrap standard
// deviation of its score.
type ModelRank struct {
	Rank int // on the point scores, by RankTieRule
	// Lo and Hi are the (1−c)/2 and (1+c)/2 quantiles of the replicate
	// ranks (the inverse of their empirical distribution: the smallest
	// rank r whose share of replicates at or better than r reaches p).
	Lo, Hi int
	// SE is the standard deviation (n−1) of the model's score over the
	// replicates that gave it one: the noise of that score.
	SE float64
}

// RankResult is what RankBootstrap returns: one ModelRank per model, in
// the order of the point scores given, and the warnings.
type RankResult struct {
	Ranks     []ModelRank
	Resamples int
	Warnings  []Warning
}

// ItemScorer returns model m's score on a replicate that holds item i
// w[i] times (the multinomial weights of one resample of the items), or
// NaN when the model has no item in it. It is called from several
// goroutines at once and must only read shared data.
type ItemScorer func(m int, w []int32) float64

// RankBootstrap gives every model a rank interval from a bootstrap over
// items that is paired across models: each replicate resamples the
// nItems item indices once (with replacement), every model is scored on
// those same items (score), and the models are ranked within the
// replicate by RankTieRule. A model's interval is the percentile
// interval of its replicate ranks at opt.Confidence. point holds the
// models' scores on all items (their rank is ModelRank.Rank).
//
// Replicate b draws from the PCG stream (seed, b+1) whichever goroutine
// computes it, so the result does not depend on GOMAXPROCS. It warns
// (CodeFewResampled) below MinBootstrapN items and panics on misuse (no
// models, no items, a confidence outside (0, 1), negative resamples).
func RankBootstrap(point []float64, nItems int, score ItemScorer, opt RankOptions) RankResult {
	nm := len(point)
	if nm == 0 || nItems <= 0 {
		panic(fmt.Sprintf("stats: RankBootstrap over %d models and %d items", nm, nItems))
	}
	if opt.Resamples < 0 {
		panic(fmt.Sprintf("stats: RankBootstrap with %d resamples", opt.Resamples))
	}
	if opt.Resamples == 0 {
		opt.Resamples = DefaultRankResamples
	}
	if opt.Confidence == 0 {
		opt.Confidence = 0.95
	}
	checkConfidence(opt.Confidence)
	R := opt.Resamples
	total := nItems
	if opt.Multiplicity != nil {
		if len(opt.Multiplicity) != nItems {
			panic(fmt.Sprintf("stats: RankBootstrap: %d multiplicities for %d items", len(opt.Multiplicity), nItems))
		}
		total = 0
		for _, c := range opt.Multiplicity {
			if c < 1 {
				panic(fmt.Sprintf("stats: RankBootstrap: multiplicity %d", c))
			}
			total += c
		}
	}
	scores := make([]float64, R*nm)
	workers := min(runtime.GOMAXPROCS(0), R)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			var p pcg
			w := make([]int32, nItems)
			for {
				b := next.Add(1) - 1
				if b >= int64(R) {
					return
				}
				if opt.Multiplicity != nil {
					drawGroups(newRand(opt.Seed, uint64(b)+1), opt.Multiplicity, total, w)
				} else {
					p.seed(opt.Seed, uint64(b)+1)
					drawCounts(&p, w)
				}
				row := scores[int(b)*nm : int(b+1)*nm]
				for m := range row {
					row[m] = score(m, w)
				}
			}
		})
	}
	wg.Wait()

	// hist[m*nm + r-1] counts the replicates where model m ranked r.
	hist := make([]int, nm*nm)
	sum := make([]float64, nm)
	sumsq := make([]float64, nm)
	cnt := make([]int, nm)
	ranks := make([]int, nm)
	for b := range R {
		row := scores[b*nm : (b+1)*nm]
		competitionRanks(row, ranks)
		for m, r := range ranks {
			hist[m*nm+r-1]++
		}
		for m, s := range row {
			if !math.IsNaN(s) {
				cnt[m]++
				sum[m] += s
				sumsq[m] += s * s
			}
		}
	}
	out := RankResult{Ranks: make([]ModelRank, nm), Resamples: R}
	competitionRanks(point, ranks)
	a := (1 - opt.Confidence) / 2
	for m := range nm {
		h := hist[m*nm : (m+1)*nm]
		mr := ModelRank{Rank: ranks[m], Lo: rankQuantile(h, R, a), Hi: rankQuantile(h, R, 1-a)}
		if cnt[m] > 1 {
			mean := sum[m] / float64(cnt[m])
			v := (sumsq[m] - float64(cnt[m])*mean*mean) / float64(cnt[m]-1)
			mr.SE = math.Sqrt(max(v, 0))
		}
		out.Ranks[m] = mr
	}
	if total < MinBootstrapN {
		out.Warnings = append(out.Warnings, warning(CodeFewResampled, "the rank bootstrap resamples %d items (fewer than %d): "+
			"the replicate ranks take few values and the rank intervals are rough", total, MinBootstrapN))
	}
	return out
}

// RankMeans is RankBootstrap for scores that are means over items:
// values[m][i] is model m's value on item i, NaN when the model has none.
// A model's score on a replicate is the weighted mean of its values.
// Items with the same values for every model are grouped
// (RankOptions.Multiplicity) when that at least halves their number, as
// for pass/fail verdicts of a few models.
func RankMeans(values [][]float64, opt RankOptions) RankResult {
	if len(values) == 0 {
		panic("stats: RankMeans over no models")
	}
	if opt.Multiplicity == nil {
		if g, mult, ok := groupItems(values); ok {
			opt.Multiplicity = mult
			values = g
		}
	}
	n := len(values[0])
	point := make([]float64, len(values))
	complete := make([]bool, len(values))
	for m, v := range values {
		if len(v) != n {
			panic(fmt.Sprintf("stats: RankMeans: model %d has %d items, model 0 has %d", m, len(v), n))
		}
		complete[m] = true
		s, c := 0.0, 0
		for _, x := range v {
			if math.IsNaN(x) {
				complete[m] = false
				continue
			}
			s += x
			c++
		}
		point[m] = s / float64(c) // NaN when c == 0
	}
	// ones[m] lists the items of a complete pass/fail model that it
	// passes: its replicate score is then a sum of integer weights.
	ones := make([][]int32, len(values))
	for m, v := range values {
		if !complete[m] || n >= 1<<31 {
			continue
		}
		var idx []int32
		binary := true
		for i, x := range v {
			switch x {
			case 1:
				idx = append(idx, int32(i))
			case 0:
			default:
				binary = false
			}
			if !binary {
				break
			}
		}
		if binary {
			ones[m] = idx
			if idx == nil {
				ones[m] = []int32{}
			}
		}
	}
	score := func(m int, w []int32) float64 {
		v := values[m]
		if ones[m] != nil {
			var s int64
			for _, i := range ones[m] {
				s += int64(w[i])
			}
			return float64(s) / float64(n)
		}
		if complete[m] {
			s := 0.0
			for i, x := range v {
				s += float64(w[i]) * x
			}
			return s / float64(n)
		}
		s, c := 0.0, 0.0
		for i, x := range v {
			if w[i] != 0 && !math.IsNaN(x) {
				s += float64(w[i]) * x
				c += float64(w[i])
			}
		}
		return s / c
	}
	if opt.Multiplicity != nil {
		total := 0
		for _, c := range opt.Multiplicity {
			total += c
		}
		// Grouped items: the point scores and the complete models' means
		// weigh each group by its size.
		for m, v := range values {
			s, c := 0.0, 0.0
			for i, x := range v {
				if !math.IsNaN(x) {
					s += float64(opt.Multiplicity[i]) * x
					c += float64(opt.Multiplicity[i])
				}
			}
			point[m] = s / c
		}
		score = func(m int, w []int32) float64 {
			s, c := 0.0, 0.0
			for i, x := range values[m] {
				if w[i] != 0 && !math.IsNaN(x) {
					s += float64(w[i]) * x
					c += float64(w[i])
				}
			}
			return s / c
		}
	}
	return RankBootstrap(point, n, score, opt)
}

// groupItems groups the items (columns of values) that have the same
// value for every model, when that at least halves their number: it
// returns one column per group, in order of first appearance, and the
// group sizes.
func groupItems(values [][]float64) ([][]float64, []int, bool) {
	n := len(values[0])
	for _, v := range values {
		if len(v) != n {
			return nil, nil, false // RankMeans reports the mismatch
		}
	}
	idx := map[string]int{}
	var first, mult []int
	key := make([]byte, 0, 8*len(values))
	for i := range n {
		key = key[:0]
		for _, v := range values {
			b := math.Float64bits(v[i])
			if math.IsNaN(v[i]) {
				b = 0x7ff8000000000001 // one NaN
			}
			key = append(key, byte(b), byte(b>>8), byte(b>>16), byte(b>>24), byte(b>>32), byte(b>>40), byte(b>>48), byte(b>>56))
		}
		g, ok := idx[string(key)]
		if !ok {
			if len(first) >= n/2 {
				return nil, nil, false
			}
			g = len(first)
			idx[string(key)] = g
			first = append(first, i)
			mult = append(mult, 0)
		}
		mult[g]++
	}
	out := make([][]float64, len(values))
	for m, v := range values {
		out[m] = make([]float64, len(first))
		for g, i := range first {
			out[m][g] = v[i]
		}
	}
	return out, mult, true
}

// drawCounts fills w with the multinomial counts of len(w) draws of an
// index in [0, len(w)) with replacement.
func drawCounts(p *pcg, w []int32) {
	clear(w)
	n := uint64(len(w))
	if n >= 1<<32 {
		for range n {
			w[uintN(p, n)]++
		}
		return
	}
	// Lemire with rejection on 32-bit halves, as resampledMean.
	thresh := uint32(-uint32(n)) % uint32(n)
	q := *p
	for i := uint64(0); i < n; {
		r := q.Uint64()
		if m0 := (r & 0xffffffff) * n; uint32(m0) >= thresh {
			w[m0>>32]++
			i++
		}
		if m1 := (r >> 32) * n; uint32(m1) >= thresh && i < n {
			w[m1>>32]++
			i++
		}
	}
	*p = q
}

// drawGroups fills w with Multinomial(total, mult/total) counts, drawn
// as w_j ~ Binomial(total − Σ_{i<j} w_i, mult_j / Σ_{i≥j} mult_i).
func drawGroups(r *rand.Rand, mult []int, total int, w []int32) {
	left, leftMult := total, total
	for j, c := range mult {
		switch {
		case left == 0:
			w[j] = 0
		case j == len(mult)-1 || c == leftMult:
			w[j] = int32(left)
			left = 0
		default:
			g := makeBinomial(left, float64(c)/float64(leftMult))
			k := g.draw(r)
			w[j] = int32(k)
			left -= k
		}
		leftMult -= c
	}
}

// competitionRanks writes into ranks the rank of each score by
// RankTieRule.
func competitionRanks(s []float64, ranks []int) {
	for m, x := range s {
		r := 1
		for k, y := range s {
			if k == m {
				continue
			}
			if y > x || (math.IsNaN(x) && !math.IsNaN(y)) {
				r++
			}
		}
		ranks[m] = r
	}
}

// rankQuantile is the smallest rank r (1-based) whose cumulative count in
// h reaches p·total. A p·total within a relative 1e-9 of an integer is
// that integer: (1 − 0.95)/2 is 0.025000000000000022 in floating point,
// and 25 of 1,000 replicates must reach it.
func rankQuantile(h []int, total int, p float64) int {
	need := p * float64(total)
	if r := math.Round(need); math.Abs(need-r) <= 1e-9*math.Max(1, r) {
		need = r
	}
	c := 0
	for r, k := range h {
		c += k
		if float64(c) >= need && c > 0 {
			return r + 1
		}
	}
	return len(h)
}
