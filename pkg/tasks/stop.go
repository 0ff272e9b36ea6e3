package tasks

import (
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sync/atomic"

	"github.com/evalbook/evalbook/pkg/stats"
)

// Stop records how a task run with Options.StopWhen went: which metric
// the confidence sequence followed, in which order the items were taken,
// where it stopped and the sequence's interval there.
type Stop struct {
	// Width is the interval width asked for; Confidence the sequence's.
	Width      float64 `json:"width"`
	Confidence float64 `json:"confidence"`
	// Metric is the metric the sequence follows: acc for the choice
	// tasks (acc_norm when the task reports no acc), the match metric
	// for a generative task.
	Metric string `json:"metric"`
	// OrderSeed seeds the shuffle of the items (the run's seed).
	OrderSeed int64 `json:"order_seed"`
	// Stopped says the interval became narrow enough before the last
	// item; Items is the length of the prefix of the shuffled order
	// counted (failed items included), Of the task's items, Scored the
	// prefix's items with a reply (the sequence's observations).
	Stopped bool `json:"stopped"`
	Items   int  `json:"items"`
	Of      int  `json:"of"`
	Scored  int  `json:"scored"`
	// Value is the metric over the prefix; CILow and CIHigh the
	// sequence's interval there (Method "normal-mixture-cs").
	Value  float64 `json:"value"`
	CILow  float64 `json:"ci_low"`
	CIHigh float64 `json:"ci_high"`
	Method string  `json:"method"`
	// Discarded counts the replies received for items past the stop (in
	// flight in the same block when it was decided): paid for and kept
	// in the cache, but not counted. NotSent counts the items never asked.
	Discarded int `json:"discarded"`
	NotSent   int `json:"not_sent"`
}

// Order is the shuffled order of a task's n items a run with
// Options.StopWhen takes: a permutation of 0..n-1 drawn from seed and the
// task string, the same for every rerun with the same seed.
func Order(spec string, n int, seed int64) []int {
	h := fnv.New64a()
	h.Write([]byte(spec))
	rng := rand.New(rand.NewPCG(uint64(seed), h.Sum64()))
	return rng.Perm(n)
}

// runStopping runs each task's items in its shuffled order (Order), in
// blocks of opt.Workers items sent at once. After a block, its items are
// added in order to a stats.PassRateSequence of the task's main metric
// (tuned to the task's item count); at the first item after which the
// interval is at most opt.StopWhen wide the task stops: the rest of the
// block is discarded (its replies are cached and counted in
// Stop.Discarded) and no further item is sent. Only the prefix of the
// shuffled order up to the stop is kept in d.Samples (in item order).
// Blocks keep the run deterministic: a rerun with the same seed sends the
// same blocks, finds every reply in the cache and stops at the same item,
// whatever order the replies came in.
//
// The sequence holds the true rate at every item at once with the
// stated confidence, so stopping whenever it is narrow enough leaves its
// interval valid (a fixed-n interval checked after every item is not).
func runStopping(ctx context.Context, opt Options, d *Details, jobs []job, done *atomic.Int64) error {
	keep := make([]bool, len(jobs))
	for ti := 0; ti < len(d.Header.Tasks); ti++ {
		ht := &d.Header.Tasks[ti]
		var idx []int // this task's jobs, in item order
		for i := range jobs {
			if jobs[i].spec.String() == ht.Spec {
				idx = append(idx, i)
			}
		}
		pl, err := planOf(*ht)
		if err != nil {
			return err
		}
		metric := mainMetric(pl)
		st := &Stop{Width: opt.StopWhen, Confidence: opt.StopConfidence, Metric: metric, OrderSeed: opt.Seed, Of: len(idx)}
		cs := stats.PassRateSequence(opt.StopConfidence, max(1, len(idx)))
		order := Order(ht.Spec, len(idx), opt.Seed)
		for b := 0; b < len(order) && !st.Stopped; b += opt.Workers {
			e := min(b+opt.Workers, len(order))
			block := make([]job, e-b)
			for k, p := range order[b:e] {
				block[k] = jobs[idx[p]]
			}
			if err := runJobs(ctx, opt, block, done, len(jobs)); err != nil {
				return err
			}
			for k, p := range order[b:e] {
				s := jobs[idx[p]].out
				keep[idx[p]] = true
				st.Items = b + k + 1
				if s.Error != "" {
					continue
				}
				sc, err := scoreSample(pl, s)
				if err != nil {
					return err
				}
				v := sc.match
				if metric == MetricAcc {
					v = sc.acc
				} else if metric == MetricAccNorm {
					v = sc.norm
				}
				cs.Add(float64(b2i(v)))
				if iv := cs.Interval(); iv.Hi-iv.Lo <= opt.StopWhen {
					st.Stopped = st.Items < len(order)
					if st.Stopped {
						st.NotSent = len(order) - e
					}
					break
				}
			}
			if st.Stopped {
				// The loop above broke at the stop: count the replies
				// of the rest of the block.
				for _, p := range order[st.Items:e] {
					st.Discarded += b2i(jobs[idx[p]].out.Error == "")
				}
			}
		}
		iv := cs.Interval()
		st.Scored, st.Value, st.CILow, st.CIHigh, st.Method = cs.N(), cs.Mean(), iv.Lo, iv.Hi, iv.Method
		ht.Stop = st
	}
	var kept []Sample
	for i := range jobs {
		if keep[i] {
			kept = append(kept, d.Samples[i])
		}
	}
	d.Samples = kept
	return nil
}

// mainMetric is the metric a stopping run follows: the match metric of a
// generative task, acc of a choice task (acc_norm when it reports no acc).
func mainMetric(pl plan) string {
	if pl.ht.Kind == KindGenerative {
		return pl.match
	}
	for _, m := range pl.metrics {
		if m == MetricAcc {
			return m
		}
	}
	return MetricAccNorm
}

// String says where the run stopped, for the text report.
func (s *Stop) String() string {
	if !s.Stopped {
		return fmt.Sprintf("--stop-when %g: the %g%% sequence of %s never got that narrow; all %d items counted (sequence interval %.4f - %.4f)",
			s.Width, s.Confidence*100, s.Metric, s.Items, s.CILow, s.CIHigh)
	}
	return fmt.Sprintf("stopped after %d of %d items (shuffled, seed %d): the %g%% confidence sequence of %s is %.4f - %.4f (width %.4f <= %g); %d items not sent, %d replies past the stop paid and cached but not counted",
		s.Items, s.Of, s.OrderSeed, s.Confidence*100, s.Metric, s.CILow, s.CIHigh, s.CIHigh-s.CILow, s.Width, s.NotSent, s.Discarded)
}
