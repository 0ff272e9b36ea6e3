// Package stats holds the statistics that say how sure an evaluation can be:
// intervals for a pass rate (Wilson, percentile bootstrap, cluster-robust),
// the paired comparison of two versions on the same cases (sign test,
// McNemar, paired bootstrap) and sample-size helpers.
//
// # Conventions
//
// Data come first and options last, as in gonum's stat package. Intervals
// are two-sided at the given confidence (0.95 for a 95% interval), which
// must lie strictly between 0 and 1.
//
// Every statistic comes in two forms. The short form returns plain
// numbers, e.g. Wilson(successes, n, confidence) (lo, hi float64). The
// long form, named with an Interval or Estimate suffix, returns a struct
// that also carries Warnings: what a user must see because the figure is
// weak (no cases, a bootstrap over a handful of items, an interval that
// collapsed to a point, fewer clusters than the cluster-robust error
// needs). Each is a Warning with a stable Code (the Code constants) to
// branch on and a Message to print; callers match codes, never message
// text. Weak statistics warn; they do not fail. Every renderer in
// evalbook prints the warnings next to the figure.
//
// Each statistic has one small-sample rule, owned here: every bootstrap
// warns below MinBootstrapN items, UnitMeanInterval's normal interval
// below MinNormalN values, the cluster-robust figures below MinClusters
// clusters. Corpus-level metrics (chrF, BLEU, TER) get their interval
// from BootstrapStatistic.
//
// Misuse by a programmer panics with the prefix "stats: ": slices of
// different lengths, a confidence outside (0, 1), fewer than one
// resample, negative counts. Bad data read from a file is the caller's
// business and must be turned into an error before it gets here.
//
// # Randomness
//
// Every resampling function takes a seed and draws from math/rand/v2's
// PCG generator only, so the same seed gives the same interval on every
// machine and for every GOMAXPROCS. BootstrapMean spreads resamples over
// the available cores, but resample b always uses the stream derived from
// (seed, b), whichever goroutine computes it.
//
// # Which interval to use
//
// Wilson is the default for a pass rate: it is exact to compute, behaves
// at 0 of n and n of n, and needs no seed. The percentile bootstrap
// matches what many papers report and extends to graded scores (F1 in
// [0, 1]); for 0/1 outcomes it draws the resampled pass count directly
// from Binomial(n, p̂), which is the same distribution as resampling n
// items and takes microseconds. When cases come in clusters (several
// questions on one passage, one question asked in several languages) the
// cases are not independent and both intervals are too narrow; use
// ClusterProportion or ClusterBootstrap with the passage or question id
// as the cluster (Miller 2024, "Adding Error Bars to Evals").
//
// For small slices ProportionInterval also gives Clopper-Pearson (never
// below the nominal coverage, and wider), Jeffreys and a Beta posterior
// interval; Coverage computes what each achieves exactly, and the README
// tabulates it for n from 10 to 500, which is why Wilson stays the
// default. BootstrapBCa corrects the percentile bootstrap of any
// statistic for bias and skew. PassAtK, PassHatK and MajAtK score several
// samples per item without bias, and PlanPower answers "how many cases?"
// and "what change can N cases see?" before an evaluation is run.
//
// # Judges and monitoring
//
// A judge's pass rate is biased by its errors. With a few items a person
// labelled too, PPIMean (with PPILambda: PPI++) and RoganGladen correct
// it with an interval that counts the labels' uncertainty. An interval
// checked after every item and acted on (stop when significant) loses
// its coverage; a ConfidenceSequence (PassRateSequence, PairedSequence,
// SequentialGate) holds at every item at once.
package stats
