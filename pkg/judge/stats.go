package judge

import (
	"fmt"

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
// hits over n > 0 pairs (pkg/stats), with its warnings. When every pair
// agrees, or none does, every resample gives the same share and the
// interval is one point; pkg/stats then warns (stats.CodePointInterval)
// and advises the Wilson interval, which calibrate offers no way to ask
// for, so that warning is replaced by the Wilson interval itself
// (stats.Wilson).
func agreementInterval(hits, n, resamples int, conf float64, seed uint64) (lo, hi float64, warn []string) {
	iv := stats.BootstrapProportionInterval(hits, n, resamples, conf, seed)
	for _, w := range iv.Warnings {
		if w.Code != stats.CodePointInterval {
			warn = append(warn, w.Message)
		}
	}
	if hits != 0 && hits != n {
		return iv.Lo, iv.Hi, warn
	}
	wlo, whi := stats.Wilson(hits, n, conf)
	which := "on all"
	if hits == 0 {
		which = "on none of the"
	}
	warn = append(warn, fmt.Sprintf("the judge agreed %s %d pairs, so every bootstrap resample gives %.1f%% and the bootstrap interval has zero width; the %g%% Wilson interval of %d/%d is [%.1f%%, %.1f%%]",
		which, n, 100*iv.Lo, 100*conf, hits, n, 100*wlo, 100*whi))
	return iv.Lo, iv.Hi, warn
}
