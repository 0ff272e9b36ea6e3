package agree

// Stable codes of the warnings this package gives. The statistics
// (Kappa, Fleiss, Alpha, Interval) carry the messages in Warnings;
// Analyze hands each on as a results.Warning with its code, so that a
// caller branches on the code, never on the wording.
const (
	// WarnFewItems: fewer than 10 items (or pairable units); the statistic
	// is very uncertain.
	WarnFewItems = "few_items"
	// WarnOneLabel: both raters gave one and the same label to every item;
	// kappa is set to 1, which says nothing about the raters.
	WarnOneLabel = "one_label"
	// WarnOrderGuessed: a statistic that uses the order of the labels
	// (weighted kappa, ordinal alpha) got none, and the labels, not all
	// numbers, were taken alphabetically.
	WarnOrderGuessed = "order_guessed"
	// WarnMissingRatings: items missing one of the two ratings were left
	// out of Cohen's kappa (Count items, Lines their first lines).
	WarnMissingRatings = "missing_ratings"
	// WarnUnpairable: items (units) with fewer than two ratings were left
	// out of Fleiss' kappa or alpha.
	WarnUnpairable = "unpairable_items"
	// WarnUnequalRatings: items have different numbers of ratings, which
	// Fleiss' kappa assumes away (Count: the items with fewer ratings than
	// the most rated ones).
	WarnUnequalRatings = "unequal_ratings"
	// WarnSmallBootstrap: the bootstrap ran over fewer than 10 items; the
	// interval is rough and too narrow.
	WarnSmallBootstrap = "small_bootstrap"
	// WarnZeroWidth: every item agrees, so the bootstrap interval is one
	// point; the message gives the Wilson interval of the observed
	// agreement instead.
	WarnZeroWidth = "zero_width_interval"
	// WarnUndefinedResamples: some resamples had a single label and were
	// left out of the interval.
	WarnUndefinedResamples = "undefined_resamples"
	// WarnNoInterval: the statistic was undefined in every resample.
	WarnNoInterval = "no_interval"
	// WarnNoKappa: Confusion.Kappa was given no items or invalid weights.
	WarnNoKappa = "no_kappa"
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
