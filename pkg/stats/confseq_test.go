package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMixtureBoundary checks the boundary against a hand computation:
// at 95% the tuning ratio solves u − log(1 + u) = −2 log 0.05 = 5.991465,
// u = 8.2120 (8.2120 − log 9.2120 = 5.9915), so ρ = σ²·planned/u, and
// after t = planned observations of a pass rate (σ² = 1/4, V = t/4) the
// half-width is √((V + ρ)·log((V + ρ)/(ρ·0.0025)))/t.
func TestMixtureBoundary(t *testing.T) {
	u := 1 / mixtureRatio(0.05)
	if math.Abs(u-math.Log1p(u)+2*math.Log(0.05)) > 1e-12 || math.Abs(u-8.2120) > 1e-3 {
		t.Fatalf("u = %v", u)
	}
	cs := PassRateSequence(0.95, 1000)
	for i := range 1000 {
		cs.Add(b2f(i%2 == 0))
	}
	v, rho := 250.0, 250.0/u
	want := math.Sqrt((v+rho)*math.Log((v+rho)/(rho*0.0025))) / 1000
	if h := cs.HalfWidth(); math.Abs(h-want) > 1e-12 || math.Abs(h-0.048) > 0.001 {
		t.Errorf("half-width at 1,000 = %v, want %v (about 0.048)", h, want)
	}
	iv := cs.Interval()
	if iv.Lo != 0.5-want || iv.Hi != 0.5+want {
		t.Errorf("interval %+v, want 0.5 ∓ %v", iv, want)
	}
	// The boundary is narrowest, for its t, at the planned t: a sequence
	// tuned elsewhere is wider at t = 1,000.
	for _, planned := range []int{100, 10000} {
		o := PassRateSequence(0.95, planned)
		for i := range 1000 {
			o.Add(b2f(i%2 == 0))
		}
		if o.HalfWidth() <= cs.HalfWidth() {
			t.Errorf("tuned to %d: half-width %v, not wider than %v", planned, o.HalfWidth(), cs.HalfWidth())
		}
	}
}

// TestConfidenceSequenceCoverage is issue 28's monitoring simulation:
// 20,000 fair streams of 1,000 items (seeded), each interval checked after
// every item. The sequence must exclude the truth somewhere in a stream in
// at most 5% of streams; the peeking 95% Wilson interval's figure (about
// 42%, issue 28) is logged beside it and must be far above 5%, or the
// simulation could not tell the two apart. The same is done for a paired
// difference of two independent fair verdicts (truth 0). The figures are
// the README's.
func TestConfidenceSequenceCoverage(t *testing.T) {
	const streams, items = 20000, 1000
	rng := rand.New(rand.NewPCG(28, 3))
	var csMiss, wilsonMiss, wilson30Miss, pairedMiss, pairedNormalMiss int
	var halfWidth, pairedHalf, wilsonHalf, normalHalf float64
	z := NormalQuantile(0.975)
	for range streams {
		cs, pcs := PassRateSequence(0.95, items), PairedSequence(0.95, items)
		var csOut, wOut, w30Out, pOut, pnOut bool
		passes := 0
		var ds, dss float64
		for i := 1; i <= items; i++ {
			x := rng.Uint64()
			pass := x&1 == 1
			d := float64(x>>1&1) - float64(x>>2&1) // new − old, both fair
			if pass {
				passes++
			}
			cs.Add(b2f(pass))
			pcs.Add(d)
			ds += d
			dss += d * d
			if !csOut {
				if iv := cs.Interval(); iv.Lo > 0.5 || iv.Hi < 0.5 {
					csOut = true
				}
			}
			if !w30Out {
				if lo, hi := Wilson(passes, i, 0.95); lo > 0.5 || hi < 0.5 {
					wOut = true
					w30Out = i >= 30 // peeking from the 30th item only
				}
			}
			if !pOut {
				if iv := pcs.Interval(); iv.Lo > 0 || iv.Hi < 0 {
					pOut = true
				}
			}
			if !pnOut && i > 1 { // the paired normal interval of gate, checked after every pair
				m := ds / float64(i)
				sd := math.Sqrt(math.Max(0, (dss-float64(i)*m*m)/float64(i-1)))
				if h := z * sd / math.Sqrt(float64(i)); m-h > 0 || m+h < 0 {
					pnOut = true
				}
			}
		}
		lo, hi := Wilson(passes, items, 0.95)
		wilsonHalf += (hi - lo) / 2
		m := ds / items
		normalHalf += z * math.Sqrt((dss-items*m*m)/(items-1)) / math.Sqrt(items)
		halfWidth += cs.HalfWidth()
		pairedHalf += pcs.HalfWidth()
		csMiss += boolInt(csOut)
		wilsonMiss += boolInt(wOut)
		wilson30Miss += boolInt(w30Out)
		pairedMiss += boolInt(pOut)
		pairedNormalMiss += boolInt(pnOut)
	}
	rate := func(k int) float64 { return float64(k) / streams }
	t.Logf("pass rate: sequence excludes the truth in %.2f%% of streams, peeking Wilson in %.1f%%; half-width at n = %d: %.4f (Wilson %.4f)",
		100*rate(csMiss), 100*rate(wilsonMiss), items, halfWidth/streams, wilsonHalf/streams)
	t.Logf("peeking Wilson checked from item 30 on: %.1f%%", 100*rate(wilson30Miss))
	t.Logf("paired difference: sequence %.2f%%, peeking paired normal %.1f%%; half-width at n = %d: %.4f (normal %.4f)",
		100*rate(pairedMiss), 100*rate(pairedNormalMiss), items, pairedHalf/streams, normalHalf/streams)
	if rate(csMiss) > 0.05 || rate(pairedMiss) > 0.05 {
		t.Errorf("sequence error %.2f%% (pass rate), %.2f%% (paired): want at most 5%%", 100*rate(csMiss), 100*rate(pairedMiss))
	}
	if rate(wilsonMiss) < 0.3 {
		t.Errorf("peeking Wilson excluded the truth in only %.1f%% of streams; issue 28 measured about 42%%", 100*rate(wilsonMiss))
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestSequentialGateStopping: under a true 5-point drop (old verdicts
// Bernoulli(0.70), new Bernoulli(0.65), independent) and margin 0, the
// sequential gate should say "regression" and stop early on average; with
// no drop it should almost never say "regression" (at most 5% of 2,000
// streams, its guarantee). Streams are up to 20,000 pairs; the mean
// stopping time is logged for the README.
func TestSequentialGateStopping(t *testing.T) {
	const streams, items = 2000, 20000
	rng := rand.New(rand.NewPCG(28, 5))
	old, new := make([]float64, items), make([]float64, items)
	run := func(pNew float64) (regressions, stops int, meanStop float64) {
		for range streams {
			for i := range items {
				old[i], new[i] = b2f(rng.Float64() < 0.70), b2f(rng.Float64() < pNew)
			}
			r := SequentialGate(old, new, 0, 0.95)
			if r.Decision == DecisionRegression {
				regressions++
			}
			if r.Decision != DecisionContinue {
				stops++
			}
			meanStop += float64(r.N)
		}
		return regressions, stops, meanStop / streams
	}
	reg, stops, mean := run(0.65)
	t.Logf("true 5-point drop: regression in %d of %d streams, a decision in %d, mean stopping time %.0f pairs", reg, streams, stops, mean)
	if reg < streams*9/10 {
		t.Errorf("true 5-point drop: regression found in %d of %d streams of %d pairs", reg, streams, items)
	}
	reg, _, mean = run(0.70)
	t.Logf("no drop: regression in %d of %d streams, mean stopping time %.0f pairs", reg, streams, mean)
	if reg > streams/20 {
		t.Errorf("no drop: regression in %d of %d streams, want at most 5%%", reg, streams)
	}
}
