package stats

import (
	"fmt"
	"math"
	"slices"
)

// MinClusters is the number of clusters below which cluster-robust
// figures carry a warning: the sandwich variance is estimated from the
// clusters themselves and is biased downwards when they are few
// (Cameron and Miller 2015, "A Practitioner's Guide to Cluster-Robust
// Inference", section VI).
const MinClusters = 20

// Estimate is a mean with its standard error and a confidence interval.
type Estimate struct {
	Mean, SE float64
	N        int // values
	Clusters int // distinct clusters
	Interval
}

// ClusterProportion returns the mean of x, its cluster-robust standard
// error and the normal interval mean ∓ z·se, where clusters[i] names the
// cluster of x[i] (the passage a question was asked about, the question
// id shared by its translations). It follows Miller (2024), "Adding Error
// Bars to Evals", equation for the clustered standard error: with
// eᵢ = xᵢ − x̄ and s² = Σ eᵢ² / (n − 1),
//
//	se² = s²/n + (1/n²) Σ_c Σ_{i≠j ∈ c} eᵢ eⱼ
//	    = s²/n + (1/n²) Σ_c [ (Σ_{i∈c} eᵢ)² − Σ_{i∈c} eᵢ² ]
//
// With one case per cluster the second term vanishes and se is the
// ordinary standard error of the mean. Use it whenever cases share
// something that makes them pass or fail together; the ordinary interval
// is then too narrow, often by a factor of two or three on reading
// comprehension sets. If every x is in [0, 1] the interval is clipped to
// [0, 1].
//
// It panics if the slices differ in length or x contains NaN or an infinity. See
// ClusterProportionEstimate for the warnings.
func ClusterProportion(x []float64, clusters []string, confidence float64) (mean, se, lo, hi float64) {
	e := ClusterProportionEstimate(x, clusters, confidence)
	return e.Mean, e.SE, e.Lo, e.Hi
}

// ClusterProportionEstimate is ClusterProportion with warnings: no data
// (CodeNoData), one case (CodeNoStandardError), and fewer than
// MinClusters clusters (CodeFewClusters).
func ClusterProportionEstimate(x []float64, clusters []string, confidence float64) Estimate {
	checkPaired(x, clusters)
	z := zFor(confidence)
	est := Estimate{N: len(x), Interval: Interval{Confidence: confidence, Method: "cluster-normal"}}
	if len(x) == 0 {
		est.Warnings = []Warning{warning(CodeNoData, "no cases: the estimate is 0 and means nothing")}
		return est
	}
	names, sums, _ := clusterTotals(x, clusters)
	est.Clusters = len(names)
	n := float64(len(x))
	total := 0.0
	for _, s := range sums {
		total += s
	}
	mean := total / n
	var sumSq float64
	cross := make([]float64, len(names)) // Σ_{i∈c} eᵢ
	index := clusterIndex(names)
	for i, v := range x {
		e := v - mean
		sumSq += e * e
		cross[index[clusters[i]]] += e
	}
	variance := 0.0
	if len(x) > 1 {
		variance = sumSq / (n - 1) / n
	}
	for _, c := range cross {
		variance += c * c / (n * n)
	}
	variance -= sumSq / (n * n)
	se := math.Sqrt(math.Max(variance, 0))
	est.Mean, est.SE = mean, se
	est.Lo, est.Hi = mean-z*se, mean+z*se
	if inUnit(x) {
		est.Lo, est.Hi = math.Max(0, est.Lo), math.Min(1, est.Hi)
	}
	if len(x) == 1 {
		est.Warnings = append(est.Warnings, warning(CodeNoStandardError, "one case: no standard error can be estimated"))
	}
	if est.Clusters < MinClusters {
		est.Warnings = append(est.Warnings, warning(CodeFewClusters, "only %s: cluster-robust errors need about %d or more and are too small with fewer", clusterCount(est.Clusters), MinClusters))
	}
	return est
}

// ClusterBootstrap returns the percentile interval for the mean of x from
// a cluster bootstrap: each resample draws G whole clusters with
// replacement out of the G present and takes the mean over all their
// values,
//
//	x̄*_b = Σ_{c ∈ draw} sum_c / Σ_{c ∈ draw} n_c
//
// so the dependence inside a cluster is kept. It is the resampling
// counterpart of ClusterProportion and needs no normal approximation. It
// panics if the slices differ in length or x contains NaN or an infinity. See
// ClusterBootstrapInterval for the warnings.
func ClusterBootstrap(x []float64, clusters []string, resamples int, confidence float64, seed uint64) (lo, hi float64) {
	iv := ClusterBootstrapInterval(x, clusters, resamples, confidence, seed)
	return iv.Lo, iv.Hi
}

// ClusterBootstrapInterval is ClusterBootstrap with warnings: no data
// (CodeNoData), fewer than MinBootstrapN clusters (CodeFewResampled),
// fewer than MinClusters clusters (CodeFewClusters).
func ClusterBootstrapInterval(x []float64, clusters []string, resamples int, confidence float64, seed uint64) Interval {
	checkPaired(x, clusters)
	checkConfidence(confidence)
	checkResamples(resamples)
	iv := Interval{Confidence: confidence, Method: "cluster-bootstrap"}
	if len(x) == 0 {
		iv.Warnings = []Warning{warning(CodeNoData, "no cases: the interval is [0, 0] and means nothing")}
		return iv
	}
	names, sums, counts := clusterTotals(x, clusters)
	g := uint64(len(names))
	means := resampleAll(resamples, seed, func(p *pcg) float64 {
		var s float64
		var c int
		for range g {
			j := uintN(p, g)
			s += sums[j]
			c += counts[j]
		}
		return s / float64(c)
	})
	slices.Sort(means)
	iv.Lo, iv.Hi = percentileInterval(means, confidence)
	iv.Warnings = bootstrapWarnings(len(names), "clusters")
	if len(names) >= MinBootstrapN && len(names) < MinClusters {
		iv.Warnings = append(iv.Warnings, warning(CodeFewClusters, "only %s: a cluster bootstrap needs about %d or more", clusterCount(len(names)), MinClusters))
	}
	return iv
}

func checkPaired(x []float64, clusters []string) {
	if len(x) != len(clusters) {
		panic(fmt.Sprintf("stats: %d values and %d cluster names", len(x), len(clusters)))
	}
	for i, v := range x {
		if !finite(v) {
			panic(fmt.Sprintf("stats: %v at index %d", v, i))
		}
	}
}

// clusterTotals returns the clusters in order of first appearance with
// the sum and number of their values.
func clusterTotals(x []float64, clusters []string) (names []string, sums []float64, counts []int) {
	index := map[string]int{}
	for i, v := range x {
		j, ok := index[clusters[i]]
		if !ok {
			j = len(names)
			index[clusters[i]] = j
			names = append(names, clusters[i])
			sums = append(sums, 0)
			counts = append(counts, 0)
		}
		sums[j] += v
		counts[j]++
	}
	return names, sums, counts
}

func clusterIndex(names []string) map[string]int {
	m := make(map[string]int, len(names))
	for i, n := range names {
		m[n] = i
	}
	return m
}

func inUnit(x []float64) bool {
	for _, v := range x {
		if v < 0 || v > 1 {
			return false
		}
	}
	return true
}

// clusterCount is "1 cluster" or "n clusters".
func clusterCount(n int) string {
	if n == 1 {
		return "1 cluster"
	}
	return fmt.Sprintf("%d clusters", n)
}
