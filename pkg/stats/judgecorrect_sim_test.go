package stats

import (
	"math/rand/v2"
	"testing"
)

// TestJudgeCorrectionCoverage simulates 2,000 judges with known truth
// (issue 28): each has a true pass rate θ ~ U(0.15, 0.85), a sensitivity
// ~ U(0.70, 0.98) and a specificity ~ U(0.60, 0.95); 200 items are
// labelled by a human and judged, 2,000 more only judged. It counts how
// often each 95% interval holds θ: the corrected ones (PPI, PPI++,
// Rogan-Gladen with Lee et al.'s interval) must reach 94% (the Monte-Carlo
// standard error of a 95% coverage over 2,000 runs is 0.5 points); the
// humans-only and naive judge intervals are logged beside them. Seeded, so
// the figures are the README's.
func TestJudgeCorrectionCoverage(t *testing.T) {
	const runs, n, bigN = 2000, 200, 2000
	rng := rand.New(rand.NewPCG(28, 1))
	methods := []string{"classical", "ppi", "ppi++", "rogan-gladen", "naive"}
	hits := make(map[string]int)
	width := make(map[string]float64)
	y, yhat, u := make([]float64, n), make([]float64, n), make([]float64, bigN)
	for range runs {
		theta := 0.15 + 0.7*rng.Float64()
		tpr, tnr := 0.70+0.28*rng.Float64(), 0.60+0.35*rng.Float64()
		judge := func(h bool) bool {
			if h {
				return rng.Float64() < tpr
			}
			return rng.Float64() >= tnr
		}
		var pos, tp, neg, tn int
		for i := range n {
			h := rng.Float64() < theta
			j := judge(h)
			y[i], yhat[i] = b2f(h), b2f(j)
			if h {
				pos++
				if j {
					tp++
				}
			} else {
				neg++
				if !j {
					tn++
				}
			}
		}
		pass := 0
		for i := range bigN {
			j := judge(rng.Float64() < theta)
			u[i] = b2f(j)
			if j {
				pass++
			}
		}
		if pos == 0 || neg == 0 {
			t.Fatalf("a run drew a single class; the simulation's sizes are wrong")
		}
		ivs := map[string]Interval{}
		_, ivs["classical"] = PPIMean(y, yhat, u, 0, 0.95)
		_, ivs["ppi"] = PPIMean(y, yhat, u, 1, 0.95)
		_, ivs["ppi++"] = PPIMean(y, yhat, u, PPILambda(y, yhat, u), 0.95)
		_, ivs["rogan-gladen"] = RoganGladen(float64(pass)/bigN, float64(tn)/float64(neg), float64(tp)/float64(pos), bigN, neg, pos, 0.95)
		ivs["naive"] = WilsonInterval(pass, bigN, 0.95)
		for m, iv := range ivs {
			if iv.Lo <= theta && theta <= iv.Hi {
				hits[m]++
			}
			width[m] += iv.Hi - iv.Lo
		}
	}
	for _, m := range methods {
		c := float64(hits[m]) / runs
		t.Logf("%-13s coverage %.1f%%, mean width %.3f", m, 100*c, width[m]/runs)
		switch m {
		case "ppi", "ppi++", "rogan-gladen":
			if c < 0.94 {
				t.Errorf("%s: coverage %.1f%% of %d simulated judges, want at least 94%%", m, 100*c, runs)
			}
		}
	}
	if float64(hits["naive"])/runs > 0.5 {
		t.Errorf("naive judge interval covers %.1f%%: the simulated judges are not biased enough to test a correction", 100*float64(hits["naive"])/runs)
	}
}
