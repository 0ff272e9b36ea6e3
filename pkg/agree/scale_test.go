package agree

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// rowBootstrap is the bootstrap as evalbook ran it before the count
// resampling: stat of each of B resamples of n item indices drawn
// uniformly with replacement; undefined resamples are dropped. It is the
// slow reference the fast methods are checked against.
func rowBootstrap(n, b int, seed uint64, stat func(weights []int) (float64, bool)) []float64 {
	r := rand.New(rand.NewPCG(seed, 99))
	weights := make([]int, n)
	var out []float64
	for range b {
		clear(weights)
		for range n {
			weights[r.IntN(n)]++
		}
		if v, ok := stat(weights); ok && !math.IsNaN(v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// fastBootstrap collects the fast method's replicates, sorted.
func fastBootstrap(n, b int, seed uint64, stat func(r *rng) (float64, bool)) []float64 {
	r := newRNG(seed)
	var out []float64
	for range b {
		if v, ok := stat(r); ok && !math.IsNaN(v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// ksDistance is the two-sample Kolmogorov-Smirnov statistic of sorted
// samples.
func ksDistance(a, b []float64) float64 {
	i, j := 0, 0
	d := 0.0
	for i < len(a) && j < len(b) {
		v := min(a[i], b[j])
		for i < len(a) && a[i] == v {
			i++
		}
		for j < len(b) && b[j] == v {
			j++
		}
		d = max(d, math.Abs(float64(i)/float64(len(a))-float64(j)/float64(len(b))))
	}
	return d
}

// sameLaw checks that two bootstrap distributions of one statistic
// (20,000 replicates each) agree: the two-sample Kolmogorov-Smirnov
// distance is below 1.95·√(2/B) = 0.0195, its critical value at level
// 0.001 (ties make the test conservative), and the 2.5%, 50% and 97.5%
// quantiles, from which the intervals are made, differ by less than tol.
func sameLaw(t *testing.T, what string, slow, fast []float64, tol float64) {
	t.Helper()
	if len(slow) < 19000 || len(fast) < 19000 {
		t.Fatalf("%s: %d and %d defined replicates", what, len(slow), len(fast))
	}
	if d := ksDistance(slow, fast); d > 1.95*math.Sqrt(2.0/20000) {
		t.Errorf("%s: Kolmogorov-Smirnov distance %.4f between row and count resampling", what, d)
	}
	for _, q := range []float64{0.025, 0.5, 0.975} {
		s, f := percentile(slow, q), percentile(fast, q)
		if math.Abs(s-f) > tol {
			t.Errorf("%s: quantile %v is %.4f by rows, %.4f by counts (tolerance %v)", what, q, s, f, tol)
		}
	}
}

// equalLawData is a moderate data set: 400 items, three raters on a
// five-point scale who agree with a true label 60% of the time, some
// ratings missing (for alpha and Fleiss).
func equalLawData(missing bool) [][]string {
	r := rand.New(rand.NewPCG(5, 6))
	items := make([][]string, 400)
	for i := range items {
		truth := r.IntN(5)
		items[i] = make([]string, 3)
		for j := range items[i] {
			l := truth
			if r.Float64() > 0.6 {
				l = r.IntN(5)
			}
			items[i][j] = strconv.Itoa(l + 1)
			if missing && r.Float64() < 0.1 {
				items[i][j] = ""
			}
		}
	}
	return items
}

// Resampling the confusion counts (a multinomial draw of the k×k table)
// is equal in law to resampling items: the bootstrap distributions of
// kappa (unweighted and quadratic) by both methods agree. The quantile
// tolerance 0.006 is about seven standard errors of the difference of
// two bootstrap quantile estimates here: κ* has a standard deviation of
// 0.032 on these 400 items, so its density at the 2.5% point is about
// φ(1.96)/0.032 = 1.8, and a quantile from B = 20,000 replicates has
// standard error √(0.025·0.975/B)/1.8 = 0.0006, or 0.00085 for the
// difference of two.
func TestKappaCountsEqualRowsInLaw(t *testing.T) {
	items := equalLawData(false)
	a, b := make([]string, len(items)), make([]string, len(items))
	for i, it := range items {
		a[i], b[i] = it[0], it[1]
	}
	c, err := NewConfusion(a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	k := len(c.Labels)
	flat := make([]int, 0, k*k)
	for _, row := range c.Counts {
		flat = append(flat, row...)
	}
	codes, _, _ := encodePairs(a, b, nil)
	for _, w := range []Weights{Unweighted, Quadratic} {
		table := make([][]int, k)
		drawn := make([]int, k*k)
		for i := range table {
			table[i] = drawn[i*k : (i+1)*k]
		}
		slow := rowBootstrap(len(a), 20000, 1, func(weights []int) (float64, bool) {
			clear(drawn)
			for i, wt := range weights {
				drawn[codes[i]] += wt
			}
			_, _, kappa := kappaFromCounts(table, w)
			return kappa, true
		})
		fast := fastBootstrap(len(a), 20000, 2, func(r *rng) (float64, bool) {
			multinomial(r, len(a), flat, drawn)
			_, _, kappa := kappaFromCounts(table, w)
			return kappa, true
		})
		sameLaw(t, "kappa "+w.String(), slow, fast, 0.006)
	}
	// The point estimate is the one the table gives, and the interval of
	// BootstrapKappa holds it.
	point, _ := WeightedKappa(a, b, nil, Unweighted)
	iv, err := BootstrapKappa(a, b, nil, Unweighted, 10000, 0.95, 1)
	if err != nil || !(iv.Lo < point.Kappa && point.Kappa < iv.Hi) {
		t.Errorf("interval %+v, %v around %v", iv, err, point.Kappa)
	}
}

// Resampling unit patterns (a multinomial over the distinct multisets of
// values) is equal in law to resampling units, for Krippendorff's alpha
// at every level and for Fleiss' kappa, with missing ratings; the
// tolerance is 0.005, about seven standard errors as for kappa (nominal
// alpha* has a standard deviation of 0.025 here, so the difference of
// two 2.5% quantiles has a standard error of 0.0007).
func TestAlphaPatternsEqualUnitsInLaw(t *testing.T) {
	items := equalLawData(true)
	for _, level := range []Level{LevelNominal, LevelOrdinal, LevelInterval, LevelRatio} {
		_, d, err := krippendorffAlpha(items, level, nil)
		if err != nil {
			t.Fatal(err)
		}
		// The slow path weights units, through each unit's pattern.
		pw := make([]int, len(d.pat.count))
		slow := rowBootstrap(len(items), 20000, 1, func(weights []int) (float64, bool) {
			clear(pw)
			for u, w := range weights {
				pw[d.pat.seq[u]] += w
			}
			a, ok := d.alpha(pw)
			return a.Alpha, ok
		})
		fast := fastBootstrap(len(items), 20000, 2, func(r *rng) (float64, bool) {
			multinomial(r, len(items), d.pat.count, pw)
			a, ok := d.alpha(pw)
			return a.Alpha, ok
		})
		sameLaw(t, "alpha "+level.String(), slow, fast, 0.005)
	}
	f := fleissPatterns(codeRatings(items))
	pw := make([]int, len(f.pat.count))
	slow := rowBootstrap(len(items), 20000, 1, func(weights []int) (float64, bool) {
		clear(pw)
		for u, w := range weights {
			pw[f.pat.seq[u]] += w
		}
		return fleissFromWeights(f.counts, pw)
	})
	fast := fastBootstrap(len(items), 20000, 2, func(r *rng) (float64, bool) {
		multinomial(r, len(items), f.pat.count, pw)
		return fleissFromWeights(f.counts, pw)
	})
	sameLaw(t, "fleiss", slow, fast, 0.005)
}

// The patterns' slow path above weights a unit through its pattern; this
// checks that doing so is the same statistic as weighting the unit's own
// ratings, as the bootstrap did before: alpha from pattern weights equals
// alpha recomputed from the resampled units' strings.
func TestAlphaPatternWeightsMatchUnits(t *testing.T) {
	items := equalLawData(true)
	_, d, err := krippendorffAlpha(items, LevelInterval, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		var resample [][]string
		pw := make([]int, len(d.pat.count))
		for range items {
			u := r.IntN(len(items))
			resample = append(resample, items[u])
			pw[d.pat.seq[u]]++
		}
		want, err := KrippendorffAlpha(resample, LevelInterval, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := d.alpha(pw)
		if math.Abs(got.Alpha-want.Alpha) > 1e-12 {
			t.Errorf("pattern weights give %v, the resampled units %v", got.Alpha, want.Alpha)
		}
	}
}
