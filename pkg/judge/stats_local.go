package judge

import (
	"math/rand/v2"
	"sort"
)

// kappa returns Cohen's kappa between two label lists (temporary local
// version until pkg/agree lands).
func kappa(a, b []Label) (float64, []string) {
	n := float64(len(a))
	ca, cb := map[Label]float64{}, map[Label]float64{}
	var agree float64
	for i := range a {
		ca[a[i]]++
		cb[b[i]]++
		if a[i] == b[i] {
			agree++
		}
	}
	po := agree / n
	var pe float64
	for _, l := range Labels {
		pe += ca[l] / n * cb[l] / n
	}
	if pe == 1 {
		return 1, []string{"chance agreement is 1: kappa is set to 1"}
	}
	return (po - pe) / (1 - pe), nil
}

func agreementInterval(hits, n, resamples int, conf float64, seed uint64) (lo, hi float64, warn []string) {
	r := rand.New(rand.NewPCG(seed, 0))
	p := float64(hits) / float64(n)
	means := make([]float64, resamples)
	for b := range means {
		k := 0
		for i := 0; i < n; i++ {
			if r.Float64() < p {
				k++
			}
		}
		means[b] = float64(k) / float64(n)
	}
	sort.Float64s(means)
	q := func(x float64) float64 {
		h := float64(len(means)-1) * x
		i := int(h)
		if i+1 >= len(means) {
			return means[i]
		}
		return means[i] + (h-float64(i))*(means[i+1]-means[i])
	}
	return q((1 - conf) / 2), q((1 + conf) / 2), nil
}
