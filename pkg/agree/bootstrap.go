package agree

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Interval is a percentile bootstrap interval over items.
type Interval struct {
	Lo, Hi     float64
	Confidence float64
	Resamples  int
	// Undefined counts resamples in which the statistic was undefined
	// (every resampled rating the same label); they are left out.
	Undefined int
	Warnings  []string
	meta      []warnMeta // Warnings' codes and counts, in step
}

// BootstrapKappa returns the percentile bootstrap interval of (weighted)
// Cohen's kappa over items: each resample draws n items with replacement
// (each keeping its pair of labels), and the interval is
//
//	lo, hi = quantiles (1−c)/2 and (1+c)/2 of {κ*_b}
//
// with quantiles interpolated linearly between order statistics (R's and
// NumPy's default). Kappa depends on the items only through the k×k
// confusion table, and the table of n items drawn with replacement is
// Multinomial(n, counts/n): each resample draws that table directly (a
// binomial per cell, by Hörmann's BTRD), which is equal in law to
// drawing items and costs O(k²), not O(n): 10,000 resamples of a million
// pairs take about 16 ms. A resample where both raters used one label
// gets κ = 1, as CohenKappa does. Randomness comes from PCG seeded with
// seed only.
//
// When the raters agree on every item, every resample gives κ = 1 and the
// interval is 1 to 1, which says nothing about how far agreement could
// fall on other items; a warning then gives the Wilson interval of the
// observed agreement n/n (n/(n + z²) to 1, z the normal critical value
// of the confidence), while Lo and Hi keep the bootstrap figures. Errors
// are those of WeightedKappa, and ErrInvalid for resamples < 1 or a
// confidence not strictly between 0 and 1.
func BootstrapKappa(a, b []string, order []string, w Weights, resamples int, confidence float64, seed uint64) (Interval, error) {
	if err := checkBootstrap(resamples, confidence); err != nil {
		return Interval{}, err
	}
	if err := w.check(); err != nil {
		return Interval{}, err
	}
	c, err := NewConfusion(a, b, order)
	if err != nil {
		return Interval{}, err
	}
	return bootstrapKappaTable(c.Counts, w, resamples, confidence, seed)
}

// bootstrapKappaTable is BootstrapKappa from the k×k table of counts.
func bootstrapKappaTable(counts [][]int, w Weights, resamples int, confidence float64, seed uint64) (Interval, error) {
	if err := checkBootstrap(resamples, confidence); err != nil {
		return Interval{}, err
	}
	if err := w.check(); err != nil {
		return Interval{}, err
	}
	k := len(counts)
	flat := make([]int, 0, k*k)
	for _, row := range counts {
		flat = append(flat, row...)
	}
	n, agreeing := 0, 0
	for i, v := range flat {
		n += v
		if i/k == i%k {
			agreeing += v
		}
	}
	if n == 0 {
		return Interval{}, ErrNoItems
	}
	drawn := make([]int, k*k)
	table := make([][]int, k)
	for i := range k {
		table[i] = drawn[i*k : (i+1)*k : (i+1)*k]
	}
	iv := bootstrap(n, resamples, confidence, seed, func(r *rng) (float64, bool) {
		multinomial(r, n, flat, drawn)
		_, _, kappa := kappaFromCounts(table, w)
		return kappa, true
	})
	allAgree(&iv, "kappa", agreeing, n, "items")
	return iv, nil
}

// BootstrapFleiss returns the percentile bootstrap interval of Fleiss'
// kappa over items (see BootstrapKappa for the method and the warning
// when every item is agreed on, here by all of its raters). Items with
// the same counts of each category count alike, so a resample is a
// multinomial draw over the distinct count patterns (see BootstrapAlpha).
// Errors are those of FleissKappa, and ErrInvalid as for BootstrapKappa.
func BootstrapFleiss(ratings [][]string, resamples int, confidence float64, seed uint64) (Interval, error) {
	if err := checkBootstrap(resamples, confidence); err != nil {
		return Interval{}, err
	}
	f, err := FleissKappa(ratings)
	if err != nil {
		return Interval{}, err
	}
	return fleissPatterns(codeRatings(ratings)).bootstrapFleiss(f, resamples, confidence, seed)
}

// sumMax returns the sum and the largest entry of a row of counts.
func sumMax(row []int) (sum, top int) {
	for _, c := range row {
		sum += c
		top = max(top, c)
	}
	return sum, top
}

// BootstrapAlpha returns the percentile bootstrap interval of
// Krippendorff's alpha over units: whole units are resampled with their
// ratings (see BootstrapKappa for the method). This is a plain
// nonparametric bootstrap, not the pair-resampling bootstrap Krippendorff
// describes, so its intervals differ somewhat from his software's.
//
// A unit enters alpha only through its pattern, the multiset of values it
// received, so units with one pattern contribute identically and drawing
// n units with replacement is, in law, a multinomial draw of n over the
// distinct patterns with probabilities count/n. Each resample is such a
// draw, and costs O(patterns), not O(units): a million units of three
// raters on a five-point scale have at most a few dozen patterns.
//
// When every pairable unit's ratings agree, the interval is 1 to 1 and a
// warning gives the Wilson interval of the share of agreeing units, as
// for BootstrapKappa. Errors are those of KrippendorffAlpha, and
// ErrInvalid as for BootstrapKappa.
func BootstrapAlpha(ratings [][]string, level Level, order []string, resamples int, confidence float64, seed uint64) (Interval, error) {
	if err := checkBootstrap(resamples, confidence); err != nil {
		return Interval{}, err
	}
	a, d, err := krippendorffAlpha(ratings, level, order)
	if err != nil {
		return Interval{}, err
	}
	return d.bootstrap(a, resamples, confidence, seed)
}

// bootstrap is BootstrapAlpha of the data, a its alpha.
func (d *alphaData) bootstrap(a Alpha, resamples int, confidence float64, seed uint64) (Interval, error) {
	if err := checkBootstrap(resamples, confidence); err != nil {
		return Interval{}, err
	}
	p := d.pat
	n := len(p.seq)
	weights := make([]int, len(p.count))
	iv := bootstrap(n, resamples, confidence, seed, func(r *rng) (float64, bool) {
		multinomial(r, n, p.count, weights)
		a, ok := d.alpha(weights)
		return a.Alpha, ok
	})
	agreeing := 0
	for i, sp := range p.sparse {
		if p.m[i] >= 2 && len(sp) == 2 { // one distinct value
			agreeing += p.count[i]
		}
	}
	allAgree(&iv, "alpha", agreeing, a.Units, "pairable units")
	return iv, nil
}

func checkBootstrap(resamples int, confidence float64) error {
	if resamples < 1 {
		return fmt.Errorf("%w: %d resamples; need at least 1", ErrInvalid, resamples)
	}
	if !(confidence > 0 && confidence < 1) {
		return fmt.Errorf("%w: confidence %v is not strictly between 0 and 1", ErrInvalid, confidence)
	}
	return nil
}

// allAgree adds to iv, when all n items agree (agreeing = n > 0) and the
// interval is the single point the statistic (what) takes in every
// resample, a warning with an interval that does say something: the
// Wilson score interval of the observed agreement n/n (see wilson).
func allAgree(iv *Interval, what string, agreeing, n int, items string) {
	if n == 0 || agreeing != n || iv.Lo != iv.Hi {
		return
	}
	lo, hi := wilson(agreeing, n, iv.Confidence)
	warn(&iv.Warnings, &iv.meta, CodeZeroWidth, n, fmt.Sprintf(
		"all %d %s agree, so every resample gives %s %.3f and the bootstrap interval has zero width; the %g%% Wilson interval of the observed agreement %d/%d is %.3f to %.3f",
		n, items, what, iv.Lo, 100*iv.Confidence, agreeing, n, lo, hi))
}

// wilson is the Wilson score interval of k successes out of n > 0 at the
// given confidence (pkg/stats has the same, but agree does not depend on
// it). With p = k/n and z the two-sided normal critical value,
//
//	centre = (p + z²/2n) / (1 + z²/n)
//	half   = z/(1 + z²/n) · √(p(1 − p)/n + z²/4n²)
//
// At k = n this is n/(n + z²) to 1.
func wilson(k, n int, confidence float64) (lo, hi float64) {
	z := math.Sqrt2 * math.Erfinv(confidence)
	nf, z2 := float64(n), z*z
	p := float64(k) / nf
	denom := 1 + z2/nf
	centre := (p + z2/(2*nf)) / denom
	half := z / denom * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = max(0, centre-half), min(1, centre+half)
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

// rng is the random source of the bootstraps.
type rng = rand.Rand

// newRNG returns the bootstraps' source for seed: PCG, seeded with seed
// only.
func newRNG(seed uint64) *rng { return rand.New(rand.NewPCG(seed, 0x61677265656b6170)) } // "agreekap"

// bootstrap runs stat on resamples resamples of n items, drawing with r.
// Undefined resamples are counted and left out.
func bootstrap(n, resamples int, confidence float64, seed uint64, stat func(r *rng) (float64, bool)) Interval {
	r := newRNG(seed)
	iv := Interval{Confidence: confidence, Resamples: resamples}
	vals := make([]float64, 0, resamples)
	for range resamples {
		v, ok := stat(r)
		if !ok || math.IsNaN(v) {
			iv.Undefined++
			continue
		}
		vals = append(vals, v)
	}
	if n < minItems {
		warn(&iv.Warnings, &iv.meta, CodeSmallBootstrap, n, fmt.Sprintf("bootstrap over only %d items: the interval is rough and too narrow", n))
	}
	if len(vals) == 0 {
		warn(&iv.Warnings, &iv.meta, CodeNoInterval, resamples, "the statistic was undefined in every resample: no interval")
		iv.Lo, iv.Hi = 0, 0
		return iv
	}
	if iv.Undefined > 0 {
		warn(&iv.Warnings, &iv.meta, CodeUndefinedResamples, iv.Undefined, fmt.Sprintf("%d of %d resamples had a single label and were left out", iv.Undefined, resamples))
	}
	slices.Sort(vals)
	a := (1 - confidence) / 2
	iv.Lo, iv.Hi = percentile(vals, a), percentile(vals, 1-a)
	return iv
}

// percentile is the type 7 quantile of sorted data (as stats.Percentile).
func percentile(sorted []float64, q float64) float64 {
	h := float64(len(sorted)-1) * q
	i := int(math.Floor(h))
	if i >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[i] + (h-float64(i))*(sorted[i+1]-sorted[i])
}
