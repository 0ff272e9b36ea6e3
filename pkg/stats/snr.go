package stats

import "math"

// LowSNR is the signal-to-noise ratio below which a slice cannot rank
// its models: the spread of the models' scores is smaller than the noise
// of one model's score.
const LowSNR = 1.0

// SNR is a slice's signal-to-noise ratio.
type SNR struct {
	// Signal is the standard deviation (n−1) of the models' scores.
	Signal float64
	// Noise is the pooled standard error of one model's score: the root
	// mean square of the models' bootstrap standard deviations.
	Noise float64
	// Ratio is Signal/Noise; NaN when Noise is 0 (every model scored
	// every item alike), then Defined is false.
	Ratio   float64
	Defined bool
	// Low is Ratio < LowSNR, or Signal == 0 (the models do not differ).
	Low bool
}

// SignalToNoise returns the signal-to-noise ratio of a slice from the
// models' scores and the bootstrap standard deviation of each score (as
// RankBootstrap gives in ModelRank.SE):
//
//	signal = sd(scores),  noise = √(mean(seᵢ²)),  ratio = signal / noise
//
// It needs two or more models; with fewer it returns the zero SNR with
// Defined false.
func SignalToNoise(scores, se []float64) SNR {
	if len(scores) != len(se) {
		panic("stats: SignalToNoise: scores and standard errors differ in length")
	}
	n := len(scores)
	if n < 2 {
		return SNR{Ratio: math.NaN()}
	}
	mean := 0.0
	for _, s := range scores {
		mean += s
	}
	mean /= float64(n)
	v, q := 0.0, 0.0
	for i, s := range scores {
		v += (s - mean) * (s - mean)
		q += se[i] * se[i]
	}
	out := SNR{Signal: math.Sqrt(v / float64(n-1)), Noise: math.Sqrt(q / float64(n))}
	if out.Noise > 0 {
		out.Ratio, out.Defined = out.Signal/out.Noise, true
		out.Low = out.Ratio < LowSNR
	} else {
		out.Ratio = math.NaN()
		out.Low = out.Signal == 0
	}
	return out
}
