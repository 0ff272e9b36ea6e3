package judge

import (
	"fmt"

	"github.com/evalbook/evalbook/pkg/agree"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
)

// kappa returns Cohen's kappa between two label lists (pkg/agree), with
// its warnings (agree.CodeOneLabel, agree.CodeFewItems) as agree codes
// them.
func kappa(a, b []Label) (float64, []results.Warning) {
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
	return k.Kappa, k.CodedWarnings()
}

// agreementInterval is the percentile bootstrap interval of a share of
// hits over n > 0 pairs (pkg/stats), with its warnings. When every pair
// agrees, or none does, every resample gives the same share and the
// interval is one point; pkg/stats then warns (stats.CodePointInterval)
// and advises the Wilson interval, which calibrate offers no way to ask
// for, so that warning is replaced by one with the same code that gives
// the Wilson interval itself (stats.Wilson) and counts the n pairs. The
// other warnings keep their stats codes.
func agreementInterval(hits, n, resamples int, conf float64, seed uint64) (lo, hi float64, warn []results.Warning) {
	iv := stats.BootstrapProportionInterval(hits, n, resamples, conf, seed)
	var keep []stats.Warning
	for _, w := range iv.Warnings {
		if w.Code != stats.CodePointInterval {
			keep = append(keep, w)
		}
	}
	warn = results.FromStats("", keep)
	if hits != 0 && hits != n {
		return iv.Lo, iv.Hi, warn
	}
	wlo, whi := stats.Wilson(hits, n, conf)
	which := "on all"
	if hits == 0 {
		which = "on none of the"
	}
	warn = append(warn, results.Warning{Code: stats.CodePointInterval, Count: n, Message: fmt.Sprintf("the judge agreed %s %d pairs, so every bootstrap resample gives %.1f%% and the bootstrap interval has zero width; the %g%% Wilson interval of %d/%d is [%.1f%%, %.1f%%]",
		which, n, 100*iv.Lo, 100*conf, hits, n, 100*wlo, 100*whi)})
	return iv.Lo, iv.Hi, warn
}
