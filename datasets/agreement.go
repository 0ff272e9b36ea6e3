package datasets

import "embed"

// Agreement holds the agreement sample data (see agreement/README.md):
// pairs.csv, thirty pairwise judgements by two annotators that reproduce
// the seed lesson's kappa of 0.798, and ratings.csv, fifteen answers rated
// 1 to 5 by four raters with some ratings missing.
//
//go:embed agreement
var Agreement embed.FS
