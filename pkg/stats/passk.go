package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// ErrAtK is wrapped by the errors of PassAtK, PassHatK, MajAtK and their
// per-item aggregates: counts that cannot be, such as k larger than the
// number of samples.
var ErrAtK = errors.New("bad counts for an @k metric")

func atKError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrAtK, fmt.Sprintf(format, args...))
}

// PassAtK returns the unbiased estimate of pass@k for one item from n
// samples of which c are correct (Chen et al. 2021, "Evaluating Large
// Language Models Trained on Code"): the probability that at least one of
// k samples drawn without replacement from the n is correct,
//
//	pass@k = 1 − C(n−c, k) / C(n, k) = 1 − Π_{i=n−c+1}^{n} (1 − k/i),
//
// computed as the product, which neither overflows nor cancels. It is
// 0 when c = 0 and 1 when n − c < k (every k-subset holds a correct
// sample). Drawing k samples with replacement instead, 1 − (1 − c/n)^k,
// is biased and is not what this computes. It returns an ErrAtK error if
// k < 1, k > n, or c is outside [0, n].
func PassAtK(n, c, k int) (float64, error) {
	if err := checkAtK(n, c, k); err != nil {
		return 0, err
	}
	if c == 0 {
		return 0, nil
	}
	if n-c < k {
		return 1, nil
	}
	prod := 1.0
	kf := float64(k)
	for i := n - c + 1; i <= n; i++ {
		prod *= 1 - kf/float64(i)
	}
	return 1 - prod, nil
}

// PassHatK returns pass^k for one item from n samples of which c are
// correct: the probability that all of k samples drawn without
// replacement are correct (Yao et al. 2024, τ-bench), a measure of
// consistency rather than of the best of k:
//
//	pass^k = C(c, k) / C(n, k) = Π_{i=0}^{k−1} (c − i)/(n − i),
//
// 0 when c < k, and 1 when c = n. It returns an ErrAtK error as PassAtK.
func PassHatK(n, c, k int) (float64, error) {
	if err := checkAtK(n, c, k); err != nil {
		return 0, err
	}
	if c < k {
		return 0, nil
	}
	prod := 1.0
	for i := range k {
		prod *= float64(c-i) / float64(n-i)
	}
	return prod, nil
}

func checkAtK(n, c, k int) error {
	switch {
	case k < 1:
		return atKError("k = %d; k must be at least 1", k)
	case n < 0 || c < 0 || c > n:
		return atKError("%d correct of %d samples", c, n)
	case k > n:
		return atKError("k = %d exceeds the %d samples", k, n)
	}
	return nil
}

// MajAtK returns maj@k for one item: the probability that the majority
// answer of k samples, drawn without replacement from the item's n
// extracted answers, is the correct one. Answers are compared exactly as
// given (normalise them first); an empty answer (nothing extracted) is a
// vote like any other and never correct. A tie for the most votes is
// broken uniformly at random among the tied answers, so a correct answer
// tied with r others counts 1/(r + 1).
//
// This is the exact average over all C(n, k) subsets, not the majority
// of the first k samples (lm-eval's maj@k, which depends on the order of
// the samples and breaks ties by first appearance). With counts m_a of
// each answer a, correct answer g, and x votes for g in the subset:
//
//	maj@k = Σ_x C(m_g, x) · Σ_r N(k − x, r, x) / (r + 1) / C(n, k)
//
// where N(j, r, x) counts the ways to draw j samples of the other answers
// with exactly r of them at x votes and none above x (a product of
// per-answer polynomials whose coefficients are scaled to binomial
// probabilities so that nothing overflows or underflows); the cost is
// O(k² · answers²) per item. With k = n it is
// the plain majority vote of all samples. It returns an ErrAtK error if
// k < 1, k > len(answers) or correct is empty.
func MajAtK(answers []string, correct string, k int) (float64, error) {
	n := len(answers)
	if correct == "" {
		return 0, atKError("the correct answer is empty")
	}
	if err := checkAtK(n, 0, k); err != nil {
		return 0, err
	}
	counts := map[string]int{}
	for _, a := range answers {
		counts[a]++
	}
	mg := counts[correct]
	if mg == 0 {
		return 0, nil
	}
	others := make([]int, 0, len(counts))
	for a, m := range counts {
		if a != correct {
			others = append(others, m)
		}
	}
	slices.Sort(others) // map order must not reach the floating-point sums
	no := n - mg        // samples with another answer
	logTotal := logChoose(n, k)
	total := 0.0
	for x := max(1, k-no); x <= min(k, mg); x++ {
		j := k - x // samples drawn from the other answers
		// Scaling C(m_a, v) by q^v (1 − q)^(m_a − v) with q = j/no turns
		// it into the Binomial(m_a, q) probability of v, which neither
		// overflows nor underflows where the draws are likely; the sum of
		// the products over all ways to draw j is then
		// C(no, j)·q^j (1 − q)^(no − j) = binomialPMF(j, no, q), so
		// dividing by that undoes the scaling.
		q := 0.0
		if no > 0 {
			q = float64(j) / float64(no)
		}
		// poly[t][r]: scaled ways to draw t of the other answers' samples
		// with r answers at exactly x votes and none above.
		poly := make([][]float64, j+1)
		for t := range poly {
			poly[t] = make([]float64, len(others)+1)
		}
		poly[0][0] = 1
		for _, m := range others {
			coef := make([]float64, min(m, x, j)+1)
			for v := range coef {
				coef[v] = binomialPMF(v, m, q)
			}
			next := make([][]float64, len(poly))
			for t := range next {
				next[t] = make([]float64, len(others)+1)
			}
			for t, row := range poly {
				for r, w := range row {
					if w == 0 {
						continue
					}
					for v := 0; v < len(coef) && t+v <= j; v++ {
						rr := r
						if v == x {
							rr++
						}
						next[t+v][rr] += w * coef[v]
					}
				}
			}
			poly = next
		}
		ways := 0.0
		for r, w := range poly[j] {
			ways += w / float64(r+1)
		}
		if ways > 0 {
			// P(x correct in the k drawn) · P(the rest leave g on top | x).
			hyper := math.Exp(logChoose(mg, x) + logChoose(no, j) - logTotal)
			total += hyper * ways / binomialPMF(j, no, q)
		}
	}
	return min(1, total), nil
}

// logChoose is log C(n, k).
func logChoose(n, k int) float64 {
	return lgamma(float64(n+1)) - lgamma(float64(k+1)) - lgamma(float64(n-k+1))
}

// SampleCount is one item's samples for pass@k and pass^k: how many were
// drawn and how many of them were correct.
type SampleCount struct {
	Samples, Correct int
}

// VoteItem is one item's samples for maj@k: the extracted answer of each
// sample and the correct answer.
type VoteItem struct {
	Answers []string
	Correct string
}

// The @k metrics that AtKEstimate names.
const (
	MetricPassAtK  = "pass@k"
	MetricPassHatK = "pass^k"
	MetricMajAtK   = "maj@k"
)

// CodeUnequalSamples: the items of an @k aggregate were sampled a
// different number of times, so their per-item estimates are not equally
// precise (the mean still weights every item equally).
const CodeUnequalSamples = "unequal_samples"

// AtKEstimate is an @k metric averaged over items: Mean is the mean of
// the per-item estimates (every item weighs the same) and Interval its
// percentile bootstrap over items (BootstrapMeanInterval), with that
// bootstrap's warnings and CodeUnequalSamples when items differ in their
// number of samples. The interval is over items only: it takes the
// per-item estimates as fixed, which they are not when n is close to k.
type AtKEstimate struct {
	Metric string // MetricPassAtK, MetricPassHatK or MetricMajAtK
	K      int
	Items  int
	Mean   float64
	// PerItem holds each item's estimate, in the order given.
	PerItem []float64
	Interval
}

// PassAtKItems returns pass@k (PassAtK) averaged over items with a
// bootstrap interval over items drawn with seed. An item whose counts
// cannot give pass@k (k above its samples) is an error naming the item
// (0-based) and wrapping ErrAtK.
func PassAtKItems(items []SampleCount, k, resamples int, confidence float64, seed uint64) (AtKEstimate, error) {
	return countItems(MetricPassAtK, PassAtK, items, k, resamples, confidence, seed)
}

// PassHatKItems is PassAtKItems for pass^k (PassHatK).
func PassHatKItems(items []SampleCount, k, resamples int, confidence float64, seed uint64) (AtKEstimate, error) {
	return countItems(MetricPassHatK, PassHatK, items, k, resamples, confidence, seed)
}

func countItems(metric string, f func(n, c, k int) (float64, error), items []SampleCount, k, resamples int, confidence float64, seed uint64) (AtKEstimate, error) {
	vals := make([]float64, len(items))
	sizes := make([]int, len(items))
	for i, it := range items {
		v, err := f(it.Samples, it.Correct, k)
		if err != nil {
			return AtKEstimate{}, fmt.Errorf("item %d: %w", i, err)
		}
		vals[i], sizes[i] = v, it.Samples
	}
	return aggregateAtK(metric, k, vals, sizes, resamples, confidence, seed), nil
}

// MajAtKItems is PassAtKItems for maj@k (MajAtK).
func MajAtKItems(items []VoteItem, k, resamples int, confidence float64, seed uint64) (AtKEstimate, error) {
	vals := make([]float64, len(items))
	sizes := make([]int, len(items))
	for i, it := range items {
		v, err := MajAtK(it.Answers, it.Correct, k)
		if err != nil {
			return AtKEstimate{}, fmt.Errorf("item %d: %w", i, err)
		}
		vals[i], sizes[i] = v, len(it.Answers)
	}
	return aggregateAtK(MetricMajAtK, k, vals, sizes, resamples, confidence, seed), nil
}

func aggregateAtK(metric string, k int, vals []float64, sizes []int, resamples int, confidence float64, seed uint64) AtKEstimate {
	est := AtKEstimate{Metric: metric, K: k, Items: len(vals), PerItem: vals}
	est.Interval = bootstrapMean(vals, resamples, confidence, seed, "items")
	est.Method = "bootstrap"
	for _, v := range vals {
		est.Mean += v
	}
	if len(vals) > 0 {
		est.Mean /= float64(len(vals))
	}
	if len(sizes) > 0 && slices.Min(sizes) != slices.Max(sizes) {
		est.Warnings = append(est.Warnings, warning(CodeUnequalSamples,
			"items were sampled between %d and %d times: their %s estimates are not equally precise", slices.Min(sizes), slices.Max(sizes), metric))
	}
	return est
}
