package judge

import (
	"github.com/evalbook/evalbook/pkg/agree"
	"github.com/evalbook/evalbook/pkg/stats"
)

// kappa returns Cohen's kappa between two label lists (pkg/agree), with
// its warnings (chance agreement 1).
func kappa(a, b []Label) (float64, []string) {
	sa, sb := make([]string, len(a)), make([]string, len(b))
	for i := range a {
		sa[i], sb[i] = string(a[i]), string(b[i])
	}
	k, err := agree.CohenKappa(sa, sb)
	if err != nil {
		// Lengths match and labels are never empty here; a failure is a
		// programming error in this package.
		panic("judge: " + err.Error())
	}
	return k.Kappa, k.Warnings
}

// agreementInterval is the percentile bootstrap interval of a share of
// hits over n pairs (pkg/stats), with its warnings.
func agreementInterval(hits, n, resamples int, conf float64, seed uint64) (lo, hi float64, warn []string) {
	iv := stats.BootstrapProportionInterval(hits, n, resamples, conf, seed)
	return iv.Lo, iv.Hi, iv.Warnings
}
