package stats

import "fmt"

// Warning is a reason to distrust a figure: a stable Code that callers
// branch on and a Message, a sentence for the user. Message wording may
// change between versions; Code does not. Every warning this package
// gives uses one of the Code constants (CodeNoData, CodeFewResampled,
// CodePointInterval, CodeEqualValues, CodeFewValues,
// CodeNearZeroVariance, CodeNoStandardError, CodeFewClusters,
// CodeUnequalSamples, CodeBCaFallback, CodeNoDetectableEffect,
// CodeUninformativeJudge; `go doc
// stats.CodeNoData` and its neighbours say when each is given).
type Warning struct {
	Code    string
	Message string
}

// The codes of the warnings this package gives, each a snake_case id.
const (
	// CodeNoData: no cases, values, pairs or clusters; the interval is
	// all of [0, 1] (Wilson, UnitMean, BootstrapProportion) or [0, 0]
	// (the bootstraps of real values) and means nothing.
	CodeNoData = "no_data"
	// CodeFewResampled: a bootstrap over fewer than MinBootstrapN items
	// (cases, values, pairs, clusters or rows): the resampled statistic
	// takes few values and the percentile interval is rough and too
	// narrow.
	CodeFewResampled = "few_resampled"
	// CodePointInterval: every resample gave the same value, so the
	// bootstrap interval is a single point (every case passed or every
	// case failed, every value equal, every pair changed by the same
	// amount). The Wilson interval is the honest one for a pass rate.
	CodePointInterval = "point_interval"
	// CodeEqualValues: UnitMeanInterval had one value, or values that
	// are all equal, and fell back to the Wilson interval of their mean.
	CodeEqualValues = "equal_values"
	// CodeFewValues: UnitMeanInterval's normal interval rests on fewer
	// than MinNormalN values and is rough.
	CodeFewValues = "few_values"
	// CodeNearZeroVariance: UnitMeanInterval's normal interval rests on
	// a sample variance below NearZeroVariance of the most the values
	// could vary, and may be far too narrow.
	CodeNearZeroVariance = "near_zero_variance"
	// CodeNoStandardError: ClusterProportionEstimate over one case, where
	// no standard error can be estimated.
	CodeNoStandardError = "no_standard_error"
	// CodeFewClusters: fewer than MinClusters clusters, too few for a
	// cluster-robust standard error or a cluster bootstrap.
	CodeFewClusters = "few_clusters"
)

func warning(code, format string, args ...any) Warning {
	return Warning{Code: code, Message: fmt.Sprintf(format, args...)}
}
