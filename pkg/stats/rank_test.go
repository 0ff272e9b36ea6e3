package stats

import (
	"math"
	"reflect"
	"runtime"
	"testing"
)

// AdjustP against a hand computation. p = (0.01, 0.04, 0.03, 0.005),
// sorted 0.005, 0.01, 0.03, 0.04 (m = 4):
//
//	Holm: 4·0.005 = 0.02, 3·0.01 = 0.03, 2·0.03 = 0.06, max(0.06, 1·0.04) = 0.06
//	BH:   from the top: 0.04·4/4 = 0.04, min(0.04, 0.03·4/3 = 0.04) = 0.04,
//	      0.01·4/2 = 0.02, min(0.02, 0.005·4/1 = 0.02) = 0.02
func TestAdjustPHand(t *testing.T) {
	p := []float64{0.01, 0.04, 0.03, 0.005}
	for _, tc := range []struct {
		method string
		want   []float64
	}{
		{CorrectionHolm, []float64{0.03, 0.06, 0.06, 0.02}},
		{CorrectionBH, []float64{0.02, 0.04, 0.04, 0.02}},
	} {
		got := AdjustP(p, tc.method)
		for i := range got {
			if math.Abs(got[i]-tc.want[i]) > 1e-15 {
				t.Errorf("%s: adjusted %v, want %v", tc.method, got, tc.want)
				break
			}
		}
	}
	// Holm caps at 1 and keeps order monotone.
	if got := AdjustP([]float64{0.5, 0.6}, CorrectionHolm); got[0] != 1 || got[1] != 1 {
		t.Errorf("Holm of (0.5, 0.6) = %v, want (1, 1)", got)
	}
}

// Tiers with a stub test: model 0 is best; against it 1 has p 0.30 and 2
// and 3 have p 0.001 and 0.004. Holm over three tests: 0.001·3 = 0.003,
// 0.004·2 = 0.008, 0.30·1 = 0.30, so 2 and 3 are separable, 1 is not:
// tier 1 = {0, 1}. Round 2: best of {2, 3} is 2 (score 0.6); 3 against 2
// has p 0.2: one test, not separable, tier 2 = {2, 3}.
func TestTiersHand(t *testing.T) {
	scores := []float64{0.9, 0.85, 0.6, 0.5}
	p := map[[2]int]float64{{0, 1}: 0.30, {0, 2}: 0.001, {0, 3}: 0.004, {2, 3}: 0.2}
	test := func(b, o int) (float64, bool) {
		v, ok := p[[2]int{b, o}]
		if !ok {
			t.Fatalf("unexpected test %d vs %d", b, o)
		}
		return v, true
	}
	tier, tests := Tiers(scores, test, 0.05, CorrectionHolm)
	if want := []int{1, 1, 2, 2}; !reflect.DeepEqual(tier, want) {
		t.Errorf("tiers %v, want %v", tier, want)
	}
	if len(tests) != 4 || math.Abs(tests[1].PAdjusted-0.003) > 1e-15 || !tests[1].Separable || tests[0].Separable || tests[3].Tier != 2 {
		t.Errorf("tests %+v", tests)
	}
	// A model the best is not ahead of is never separable, however small p.
	tier, _ = Tiers([]float64{0.9, 0.8}, func(int, int) (float64, bool) { return 1e-9, false }, 0.05, CorrectionBH)
	if !reflect.DeepEqual(tier, []int{1, 1}) {
		t.Errorf("best not ahead: tiers %v", tier)
	}
}

func TestCompetitionRanks(t *testing.T) {
	r := make([]int, 5)
	competitionRanks([]float64{0.5, 0.7, 0.5, math.NaN(), 0.1}, r)
	if want := []int{2, 1, 2, 5, 4}; !reflect.DeepEqual(r, want) {
		t.Errorf("ranks %v, want %v", r, want)
	}
	// rankQuantile: 10 replicates, ranks 1 ×2, 2 ×5, 3 ×3: the 0.025
	// quantile is 1 (2 ≥ 0.25), the 0.5 quantile 2 (7 ≥ 5), the 0.975
	// quantile 3 (10 ≥ 9.75).
	h := []int{2, 5, 3}
	if lo, med, hi := rankQuantile(h, 10, 0.025), rankQuantile(h, 10, 0.5), rankQuantile(h, 10, 0.975); lo != 1 || med != 2 || hi != 3 {
		t.Errorf("quantiles %d %d %d, want 1 2 3", lo, med, hi)
	}
}

// The bootstrap is paired: two models with the same values on every item
// tie in every replicate and both get [1, 1]; a model ahead on every item
// is [1, 1] and the other [2, 2]. Resampling each model on its own draws
// would give the identical pair straddling intervals.
func TestRankMeansPaired(t *testing.T) {
	a := make([]float64, 200)
	for i := range a {
		a[i] = float64(i % 2)
	}
	b := append([]float64(nil), a...)
	c := make([]float64, len(a))
	for i := range c {
		c[i] = a[i] - 0.5 // below a and b on every item
	}
	res := RankMeans([][]float64{a, b, c}, RankOptions{Resamples: 500, Seed: 3})
	want := []ModelRank{{Rank: 1, Lo: 1, Hi: 1}, {Rank: 1, Lo: 1, Hi: 1}, {Rank: 3, Lo: 3, Hi: 3}}
	for m := range want {
		g := res.Ranks[m]
		if g.Rank != want[m].Rank || g.Lo != want[m].Lo || g.Hi != want[m].Hi {
			t.Errorf("model %d: %+v, want rank %d [%d, %d]", m, g, want[m].Rank, want[m].Lo, want[m].Hi)
		}
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings %v", res.Warnings)
	}
}

// The bootstrap standard deviation of a mean of n values is, in the
// limit of many resamples, the plug-in standard error √(p(1−p)/n): with
// p = 0.3, n = 400, √(0.21/400) = 0.0229129. 20,000 replicates estimate
// it to about 1/√(2·20000) = 0.5% relative.
func TestRankMeansSE(t *testing.T) {
	x := make([]float64, 400)
	for i := range 120 {
		x[i] = 1
	}
	y := make([]float64, 400)
	res := RankMeans([][]float64{x, y}, RankOptions{Resamples: 20000, Seed: 1})
	if se := res.Ranks[0].SE; math.Abs(se-0.0229129) > 0.03*0.0229129 {
		t.Errorf("SE %v, want 0.0229129 within 3%%", se)
	}
	if res.Ranks[1].SE != 0 {
		t.Errorf("constant model SE %v", res.Ranks[1].SE)
	}
}

// Overlapping models give wide intervals, reproducible for a seed and
// independent of GOMAXPROCS; missing values (NaN) are left out of a
// model's mean.
func TestRankMeansReproducible(t *testing.T) {
	vals := make([][]float64, 4)
	for m := range vals {
		vals[m] = make([]float64, 30)
		for i := range vals[m] {
			if (i*7+m*3)%5 < 3 {
				vals[m][i] = 1
			}
		}
	}
	vals[3][0] = math.NaN()
	opt := RankOptions{Resamples: 300, Seed: 9}
	r1 := RankMeans(vals, opt)
	prev := runtime.GOMAXPROCS(1)
	r2 := RankMeans(vals, opt)
	runtime.GOMAXPROCS(prev)
	if !reflect.DeepEqual(r1, r2) {
		t.Errorf("GOMAXPROCS changes the result:\n%+v\n%+v", r1, r2)
	}
	wide := false
	for _, r := range r1.Ranks {
		if r.Lo > r.Rank || r.Hi < r.Rank {
			t.Errorf("point rank outside its interval: %+v", r)
		}
		if r.Hi > r.Lo {
			wide = true
		}
	}
	if !wide {
		t.Errorf("no model has a wide interval on overlapping data: %+v", r1.Ranks)
	}
	if r3 := RankMeans(vals, RankOptions{Resamples: 300, Seed: 10}); reflect.DeepEqual(r1.Ranks, r3.Ranks) && r1.Ranks[0].SE == r3.Ranks[0].SE {
		t.Error("another seed gives the same standard errors")
	}
	if few := RankMeans([][]float64{{1, 0}, {0, 1}}, opt); len(few.Warnings) != 1 || few.Warnings[0].Code != CodeFewResampled {
		t.Errorf("2 items: warnings %v", few.Warnings)
	}
}

// drawCounts gives n draws in all.
func TestDrawCounts(t *testing.T) {
	var p pcg
	p.seed(1, 1)
	w := make([]int32, 7)
	for range 50 {
		drawCounts(&p, w)
		s := int32(0)
		for _, x := range w {
			s += x
		}
		if s != 7 {
			t.Fatalf("counts %v sum to %d", w, s)
		}
	}
}

// SignalToNoise by hand: scores 0.2, 0.4, 0.6 have mean 0.4 and sd
// √((0.04+0+0.04)/2) = 0.2; standard errors 0.1, 0.2, 0.2 pool to
// √((0.01+0.04+0.04)/3) = √0.03 = 0.173205; ratio 1.154701.
func TestSignalToNoiseHand(t *testing.T) {
	s := SignalToNoise([]float64{0.2, 0.4, 0.6}, []float64{0.1, 0.2, 0.2})
	if math.Abs(s.Signal-0.2) > 1e-12 || math.Abs(s.Noise-0.17320508) > 1e-8 || math.Abs(s.Ratio-1.15470054) > 1e-8 || s.Low || !s.Defined {
		t.Errorf("%+v", s)
	}
	if s := SignalToNoise([]float64{0.5, 0.52}, []float64{0.1, 0.1}); !s.Low {
		t.Errorf("close scores: %+v, want low", s)
	}
	if s := SignalToNoise([]float64{1, 1}, []float64{0, 0}); s.Defined || !s.Low {
		t.Errorf("equal scores, no noise: %+v", s)
	}
	if s := SignalToNoise([]float64{1, 0}, []float64{0, 0}); s.Defined || s.Low {
		t.Errorf("different scores, no noise: %+v", s)
	}
}

// Grouping items is the same bootstrap in law: the plug-in standard error
// √(0.3·0.7/400) = 0.0229129 comes out of RankMeans (which groups the 400
// items into 2) and of RankBootstrap over the items one by one, and both
// give the paired intervals of TestRankMeansPaired.
func TestRankGroupedMatchesItems(t *testing.T) {
	x := make([]float64, 400)
	for i := range 120 {
		x[i] = 1
	}
	vals := [][]float64{x, make([]float64, 400)}
	if _, mult, ok := groupItems(vals); !ok || !reflect.DeepEqual(mult, []int{120, 280}) {
		t.Fatalf("groups %v %v", mult, ok)
	}
	score := func(m int, w []int32) float64 {
		s := 0.0
		for i, v := range vals[m] {
			s += float64(w[i]) * v
		}
		return s / 400
	}
	items := RankBootstrap([]float64{0.3, 0}, 400, score, RankOptions{Resamples: 20000, Seed: 5})
	grouped := RankMeans(vals, RankOptions{Resamples: 20000, Seed: 5})
	for name, r := range map[string]RankResult{"items": items, "grouped": grouped} {
		if se := r.Ranks[0].SE; math.Abs(se-0.0229129) > 0.03*0.0229129 {
			t.Errorf("%s: SE %v, want 0.0229129 within 3%%", name, se)
		}
		if r.Ranks[0].Lo != 1 || r.Ranks[1].Lo != 2 {
			t.Errorf("%s: %+v", name, r.Ranks)
		}
	}
	// Distinct items are not grouped.
	if _, _, ok := groupItems([][]float64{{1, 2, 3, 4}, {0, 0, 0, 0}}); ok {
		t.Error("4 distinct items grouped")
	}
	r := newRand(1, 1)
	w := make([]int32, 3)
	for range 100 {
		drawGroups(r, []int{5, 1, 4}, 10, w)
		if w[0]+w[1]+w[2] != 10 || w[0] < 0 || w[1] < 0 || w[2] < 0 {
			t.Fatalf("group counts %v", w)
		}
	}
}

// Issue 28 (defect c): at an exact boundary the lower bound was one rank
// too high. With 1,000 replicates, 25 at rank 1 and 975 at rank 2, the
// 2.5% quantile of the ranks is rank 1 (25 replicates reach 0.025·1000),
// but (1 − 0.95)/2 evaluates to 0.025000000000000022 in floating point,
// so p·total was 25.000000000000022 and the count 25 fell short of it.
func TestRankQuantileExactBoundary(t *testing.T) {
	confidence := 0.95 // a variable: Go folds constant arithmetic exactly
	a := (1 - confidence) / 2
	if got := rankQuantile([]int{25, 975}, 1000, a); got != 1 {
		t.Errorf("lower bound = rank %d, want 1 (25 of 1000 replicates at rank 1 reach the 2.5%% point)", got)
	}
	if got := rankQuantile([]int{24, 976}, 1000, a); got != 2 {
		t.Errorf("lower bound = rank %d, want 2 (24 of 1000 replicates fall short of 25)", got)
	}
	// The upper bound: 975 of 1000 reach 0.975·1000 at rank 1.
	if got := rankQuantile([]int{975, 25}, 1000, 1-a); got != 1 {
		t.Errorf("upper bound = rank %d, want 1", got)
	}
	if got := rankQuantile([]int{974, 26}, 1000, 1-a); got != 2 {
		t.Errorf("upper bound = rank %d, want 2", got)
	}
}
