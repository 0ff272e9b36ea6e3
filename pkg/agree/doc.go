// Package agree measures how well raters agree on labels: observed and
// chance agreement, Cohen's kappa (plain and weighted), Fleiss' kappa for
// many raters, Krippendorff's alpha for any number of raters with missing
// ratings, bootstrap intervals for each over items, and a reader for
// label tables in CSV.
//
// Analyze (or AnalyzeCSV, from a reader) is the whole analysis of
// `evalbook agree` in one call: the statistic chosen by Options, its
// bootstrap interval, the confusion matrix, the items to adjudicate and
// coded warnings, as a results.RaterAgreement that renders to text, JSON
// and tables:
//
//	res, err := agree.AnalyzeCSV(f, "pairs.csv", []string{"ann1", "ann2"}, "id", agree.Options{Seed: 1})
//	if err != nil { ... }
//	res.WriteText(os.Stdout) // kappa 0.798 on the sample pairs
//
// The functions below are its parts, for a notebook that shows each step.
//
// # Which statistic
//
//   - Two raters, every item rated by both, unordered labels (a, b, tie):
//     Cohen's kappa (CohenKappa).
//   - Two raters, ordered labels (a 1 to 5 scale): weighted kappa
//     (WeightedKappa with Linear or Quadratic), which counts a 4 against a
//     5 as a near miss.
//   - Three or more raters: Fleiss' kappa (FleissKappa), or Krippendorff's
//     alpha (KrippendorffAlpha), which also handles missing ratings and
//     ordinal or interval scales. Alpha is the safer default.
//
// Kappa depends on how often each label is used, and there is no
// universal threshold for "good enough"; say what you did with the number
// (a judge may be held to the agreement that humans reach with each
// other). Report the interval: 30 items give a wide one.
//
// # Conventions
//
// Ratings are strings; the empty string is a missing rating. Labels are
// compared exactly (case and spaces matter; ReadLabels trims spaces).
// Rows and columns of a confusion matrix, and the scale of weighted and
// ordinal statistics, follow LabelOrder unless an explicit order is given:
// numeric order if every label is a number, else byte order.
//
// Errors, never NaN: raters with different numbers of items (ErrLength),
// no items (ErrNoItems), and a statistic that is undefined because every
// rating is the same label (ErrOneLabel) are returned as errors, and so
// are invalid arguments (ErrInvalid): weights or a level that is not one
// of the constants, an order that lists a label twice, fewer than one
// bootstrap resample, a confidence not strictly between 0 and 1. The one
// exception is the seed's rule for Cohen's kappa: when chance agreement is
// 1 (both raters used one and the same label throughout), kappa is 1, with
// a warning. Results carry Warnings for figures that are weak but defined:
// few items, an order of labels guessed alphabetically, and a bootstrap
// interval of zero width because every item agrees (the warning then
// gives the Wilson interval of the observed agreement instead).
package agree
