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
}

// BootstrapKappa returns the percentile bootstrap interval of (weighted)
// Cohen's kappa over items: each resample draws n items with replacement
// (each keeping its pair of labels), and the interval is
//
//	lo, hi = quantiles (1−c)/2 and (1+c)/2 of {κ*_b}
//
// with quantiles interpolated linearly between order statistics (R's and
// NumPy's default). Resampling works on the confusion cells, so a
// resample costs O(n + k²). A resample where both raters used one label
// gets κ = 1, as CohenKappa does. Randomness comes from PCG seeded with
// seed only. Errors are those of WeightedKappa.
func BootstrapKappa(a, b []string, order []string, w Weights, resamples int, confidence float64, seed uint64) (Interval, error) {
	checkBootstrap(resamples, confidence)
	if len(a) != len(b) {
		return Interval{}, fmt.Errorf("%w: %d and %d", ErrLength, len(a), len(b))
	}
	if len(a) == 0 {
		return Interval{}, ErrNoItems
	}
	codes, labels, err := encodePairs(a, b, order)
	if err != nil {
		return Interval{}, err
	}
	k := len(labels)
	flat := make([]int, k*k)
	counts := make([][]int, k)
	for i := range k {
		counts[i] = flat[i*k : (i+1)*k : (i+1)*k]
	}
	iv := bootstrap(len(codes), resamples, confidence, seed, func(draw func() int) (float64, bool) {
		clear(flat)
		for range codes {
			flat[codes[draw()]]++
		}
		_, _, kappa := kappaFromCounts(counts, w)
		return kappa, true
	})
	return iv, nil
}

// BootstrapFleiss returns the percentile bootstrap interval of Fleiss'
// kappa over items (see BootstrapKappa for the method). Errors are those
// of FleissKappa.
func BootstrapFleiss(ratings [][]string, resamples int, confidence float64, seed uint64) (Interval, error) {
	checkBootstrap(resamples, confidence)
	f, err := FleissKappa(ratings)
	if err != nil {
		return Interval{}, err
	}
	weights := make([]int, len(f.Counts))
	return bootstrap(len(f.Counts), resamples, confidence, seed, func(draw func() int) (float64, bool) {
		clear(weights)
		for range weights {
			weights[draw()]++
		}
		return fleissFromWeights(f.Counts, weights)
	}), nil
}

// BootstrapAlpha returns the percentile bootstrap interval of
// Krippendorff's alpha over units: whole units are resampled with their
// ratings (see BootstrapKappa for the method). This is a plain
// nonparametric bootstrap, not the pair-resampling bootstrap Krippendorff
// describes, so its intervals differ somewhat from his software's. Errors
// are those of KrippendorffAlpha.
func BootstrapAlpha(ratings [][]string, level Level, order []string, resamples int, confidence float64, seed uint64) (Interval, error) {
	checkBootstrap(resamples, confidence)
	if _, err := KrippendorffAlpha(ratings, level, order); err != nil {
		return Interval{}, err
	}
	d, err := newAlphaData(ratings, level, order)
	if err != nil {
		return Interval{}, err
	}
	weights := make([]int, len(d.units))
	return bootstrap(len(d.units), resamples, confidence, seed, func(draw func() int) (float64, bool) {
		clear(weights)
		for range weights {
			weights[draw()]++
		}
		a, ok := d.alpha(weights)
		return a.Alpha, ok
	}), nil
}

func checkBootstrap(resamples int, confidence float64) {
	if resamples < 1 {
		panic(fmt.Sprintf("agree: %d resamples; need at least 1", resamples))
	}
	if !(confidence > 0 && confidence < 1) {
		panic(fmt.Sprintf("agree: confidence %v is not strictly between 0 and 1", confidence))
	}
}

// bootstrap runs stat on resamples resamples of n items; draw returns a
// uniform item index. Undefined resamples are counted and left out.
func bootstrap(n, resamples int, confidence float64, seed uint64, stat func(draw func() int) (float64, bool)) Interval {
	r := rand.New(rand.NewPCG(seed, 0x61677265656b6170)) // "agreekap"
	draw := func() int { return r.IntN(n) }
	iv := Interval{Confidence: confidence, Resamples: resamples}
	vals := make([]float64, 0, resamples)
	for range resamples {
		v, ok := stat(draw)
		if !ok || math.IsNaN(v) {
			iv.Undefined++
			continue
		}
		vals = append(vals, v)
	}
	if n < minItems {
		iv.Warnings = append(iv.Warnings, fmt.Sprintf("bootstrap over only %d items: the interval is rough and too narrow", n))
	}
	if len(vals) == 0 {
		iv.Warnings = append(iv.Warnings, "the statistic was undefined in every resample: no interval")
		iv.Lo, iv.Hi = 0, 0
		return iv
	}
	if iv.Undefined > 0 {
		iv.Warnings = append(iv.Warnings, fmt.Sprintf("%d of %d resamples had a single label and were left out", iv.Undefined, resamples))
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
