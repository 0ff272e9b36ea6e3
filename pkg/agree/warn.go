package agree

import "github.com/evalbook/evalbook/pkg/results"

// Stable codes of the warnings this package gives. The statistics
// (Kappa, Fleiss, Alpha, Interval) carry the messages in Warnings;
// Analyze hands each on as a results.Warning with its code, so that a
// caller branches on the code, never on the wording.
const (
	// CodeFewItems: fewer than 10 items (or pairable units); the statistic
	// is very uncertain.
	CodeFewItems = "few_items"
	// CodeOneLabel: both raters gave one and the same label to every item;
	// kappa is set to 1, which says nothing about the raters.
	CodeOneLabel = "one_label"
	// CodeOrderGuessed: a statistic that uses the order of the labels
	// (weighted kappa, ordinal alpha) got none, and the labels, not all
	// numbers, were taken alphabetically.
	CodeOrderGuessed = "order_guessed"
	// CodeMissingRatings: items missing one of the two ratings were left
	// out of Cohen's kappa (Count items, Lines their first lines).
	CodeMissingRatings = "missing_ratings"
	// CodeUnpairable: items (units) with fewer than two ratings were left
	// out of Fleiss' kappa or alpha.
	CodeUnpairable = "unpairable_items"
	// CodeUnequalRatings: items have different numbers of ratings, which
	// Fleiss' kappa assumes away (Count: the items with fewer ratings than
	// the most rated ones).
	CodeUnequalRatings = "unequal_ratings"
	// CodeSmallBootstrap: the bootstrap ran over fewer than 10 items; the
	// interval is rough and too narrow.
	CodeSmallBootstrap = "small_bootstrap"
	// CodeZeroWidth: every item agrees, so the bootstrap interval is one
	// point; the message gives the Wilson interval of the observed
	// agreement instead.
	CodeZeroWidth = "zero_width_interval"
	// CodeUndefinedResamples: some resamples had a single label and were
	// left out of the interval.
	CodeUndefinedResamples = "undefined_resamples"
	// CodeNoInterval: the statistic was undefined in every resample.
	CodeNoInterval = results.CodeNoInterval
	// CodeNoKappa: Confusion.Kappa was given no items or invalid weights.
	CodeNoKappa = "no_kappa"
	// CodeAgree: a statistic's message that carries no code of its own.
	CodeAgree = "agree"
)

// The codes' former names, kept so that programs written against them
// still build.
//
// Deprecated: use the Code names; the values (what JSON carries) are the same.
const (
	WarnFewItems           = CodeFewItems
	WarnOneLabel           = CodeOneLabel
	WarnOrderGuessed       = CodeOrderGuessed
	WarnMissingRatings     = CodeMissingRatings
	WarnUnpairable         = CodeUnpairable
	WarnUnequalRatings     = CodeUnequalRatings
	WarnSmallBootstrap     = CodeSmallBootstrap
	WarnZeroWidth          = CodeZeroWidth
	WarnUndefinedResamples = CodeUndefinedResamples
	WarnNoInterval         = CodeNoInterval
	WarnNoKappa            = CodeNoKappa
)

// warnMeta is what a result keeps of each of its Warnings besides the
// message: the code and the count that Analyze hands on.
type warnMeta struct {
	code  string
	count int
}

// warn appends a warning: its message to msgs (a result's Warnings) and,
// in step, its code and count to meta.
func warn(msgs *[]string, meta *[]warnMeta, code string, count int, msg string) {
	*msgs = append(*msgs, msg)
	*meta = append(*meta, warnMeta{code, count})
}
