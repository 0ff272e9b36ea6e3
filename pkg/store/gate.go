package store

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
)

// GateOptions sets a release gate.
type GateOptions struct {
	Metric string
	// Margin is the drop in the metric's mean (a proportion: 0.02 is two
	// points) that is tolerated; Confidence the one-sided level (0 means
	// 0.95); Power the power the minimum detectable effect is given at
	// (0 means 0.8).
	Margin     float64
	Confidence float64
	Power      float64
	// Force pairs runs that are not comparable (see Incomparable).
	Force bool
	// Sequential decides with an anytime-valid confidence sequence
	// (stats.SequentialGate) over the pairs in the baseline's stored
	// order instead of the fixed-n one-sided test: valid however often
	// the gate is checked while rows arrive. Confidence is then the
	// sequence's two-sided level.
	Sequential bool
}

// SequentialGate is the figures of a sequential gate (GateOptions.Sequential).
type SequentialGate struct {
	// Decision is "regression", "no_regression" (the sequence rose above
	// −margin) or "continue" (neither, after every pair: more rows are
	// needed).
	Decision string `json:"decision"`
	// N is the number of pairs read when the decision was made (all of
	// them for "continue"), Delta the mean difference then, and CILow,
	// CIHigh the confidence sequence's interval there.
	N      int     `json:"n"`
	Delta  float64 `json:"delta"`
	CILow  float64 `json:"ci_low"`
	CIHigh float64 `json:"ci_high"`
	Method string  `json:"method"`
}

// GateResult is a release gate's decision.
type GateResult struct {
	Kind       string  `json:"kind"` // always "gate"
	Baseline   RunRef  `json:"baseline"`
	Candidate  RunRef  `json:"candidate"`
	Metric     string  `json:"metric"`
	Margin     float64 `json:"margin"`
	Confidence float64 `json:"confidence"`
	// N counts the pairs in the test; Excluded the pairs left out
	// because a side has no verdict (a failed call), out of the
	// denominator; OnlyBaseline and OnlyCandidate the unpaired rows.
	N             int     `json:"n"`
	Excluded      int     `json:"excluded"`
	OnlyBaseline  int     `json:"only_baseline"`
	OnlyCandidate int     `json:"only_candidate"`
	BaselineMean  float64 `json:"baseline_mean"`
	CandidateMean float64 `json:"candidate_mean"`
	// Delta is candidate − baseline; Upper its one-sided upper
	// confidence bound Delta + z_c·sd/√N, and P the one-sided p-value of
	// "the drop exceeds the margin": Φ((Delta + Margin)/(sd/√N)).
	Delta  float64 `json:"delta"`
	Upper  float64 `json:"upper"`
	P      float64 `json:"p"`
	Better int     `json:"better"`
	Worse  int     `json:"worse"`
	// MDE is the smallest drop (beyond the margin) that this test
	// detects with probability Power at this N and the observed
	// spread: Margin + (z_c + z_power)·sd/√N (with sd floored at that of
	// one flip in N when no row flipped).
	MDE   float64 `json:"mde"`
	Power float64 `json:"power"`
	// Regression is the decision: the candidate is worse than the
	// baseline by more than Margin at the stated confidence.
	Regression bool   `json:"regression"`
	Decision   string `json:"decision"`
	// Sequential is set when GateOptions.Sequential decided: Regression
	// and Decision are then its.
	Sequential *SequentialGate `json:"sequential,omitempty"`
	// Noise is set when the store holds other runs that repeat the
	// baseline (same command and model, comparable, with the metric):
	// the metric's repeated-samples decomposition over the baseline and
	// them (Replicates), the noise floor a margin should clear.
	Noise    *Replicates       `json:"noise,omitempty"`
	Warnings []results.Warning `json:"warnings"`
}

// Gate decides whether candidate regressed from baseline on a metric by
// more than opt.Margin. Rows are paired by sample id; pairs where either
// run has no verdict are out of the denominator. With dᵢ = candidateᵢ −
// baselineᵢ, mean d̄ and standard error se = sd(d)/√n, it is a
// regression when the one-sided test of H0: E[d] ≥ −Margin against
// H1: E[d] < −Margin rejects at opt.Confidence, that is when the upper
// bound d̄ + z_c·se is below −Margin. It also gives the minimum
// detectable effect at this sample size. Runs that are not comparable
// give a *NotComparableError unless opt.Force.
func (s *Store) Gate(ctx context.Context, baseline, candidate string, opt GateOptions) (*GateResult, error) {
	if opt.Confidence == 0 {
		opt.Confidence = 0.95
	}
	if opt.Power == 0 {
		opt.Power = 0.8
	}
	if opt.Confidence <= 0 || opt.Confidence >= 1 || opt.Power <= 0 || opt.Power >= 1 {
		return nil, fmt.Errorf("gate: confidence and power must be in (0, 1)")
	}
	if opt.Margin < 0 || opt.Margin >= 1 || math.IsNaN(opt.Margin) {
		return nil, fmt.Errorf("gate: margin %v: want a proportion in [0, 1), e.g. 0.02 for two points", opt.Margin)
	}
	if opt.Metric == "" {
		return nil, fmt.Errorf("gate: no metric")
	}
	ra, rb, _, err := s.loadPair(ctx, baseline, candidate, []string{opt.Metric})
	if err != nil {
		return nil, err
	}
	p, ws, err := pairRuns(ra, rb, opt.Force)
	if err != nil {
		return nil, err
	}
	old, new, _, nov := pairedValues(p, ra.values[0], rb.values[0])
	if opt.Sequential {
		for i := range old {
			if !(old[i] >= 0 && old[i] <= 1 && new[i] >= 0 && new[i] <= 1) {
				return nil, fmt.Errorf("gate --sequential: metric %s has a value outside [0, 1] (%v, %v at pair %d); the sequence bounds a difference of values in [0, 1]",
					opt.Metric, old[i], new[i], i+1)
			}
		}
	}
	g := gateOf(refOf(ra.Run), refOf(rb.Run), old, new, nov, p, ws, opt)
	if g.Noise, err = s.baselineReplicates(ctx, ra.Run, rb.Run, opt.Metric); err != nil {
		return nil, err
	}
	return g, nil
}

func gateOf(base, cand RunRef, old, new []float64, nov int, p pairing, ws []results.Warning, opt GateOptions) *GateResult {
	g := &GateResult{Kind: "gate", Baseline: base, Candidate: cand, Metric: opt.Metric, Margin: opt.Margin, Confidence: opt.Confidence,
		Power: opt.Power, N: len(old), Excluded: nov, OnlyBaseline: p.onlyA, OnlyCandidate: p.onlyB, Warnings: ws}
	if nov > 0 {
		g.Warnings = append(g.Warnings, results.Warning{Code: CodeNoVerdict, Count: nov,
			Message: fmt.Sprintf("%d pairs without a verdict on one side (a failed call) are out of the denominator", nov)})
	}
	pr := stats.Paired(old, new)
	g.BaselineMean, g.CandidateMean = pr.OldMean, pr.NewMean
	g.Better, g.Worse = len(pr.Better), len(pr.Worse)
	if g.Better+g.Worse < stats.McNemarMinFlips {
		g.Warnings = append(g.Warnings, results.Warning{Code: CodeFewFlips, Count: g.Better + g.Worse,
			Message: fmt.Sprintf("only %d rows changed: the normal approximation of the test is rough", g.Better+g.Worse)})
	}
	t := stats.NonInferiority(old, new, opt.Margin, opt.Confidence, opt.Power)
	mean := t.Delta
	g.Delta, g.Upper, g.P, g.MDE = t.Delta, t.Upper, t.P, t.MDE
	if len(old) == 0 { // Upper, P and MDE are 1: nothing is detectable
		g.Decision = "no paired rows with verdicts: nothing to decide on"
		if g.Warnings == nil {
			g.Warnings = []results.Warning{}
		}
		return g
	}
	if opt.Sequential {
		sequentialDecision(g, old, new, opt)
		if g.Warnings == nil {
			g.Warnings = []results.Warning{}
		}
		return g
	}
	g.Regression = g.P < 1-opt.Confidence
	switch {
	case g.Regression:
		g.Decision = fmt.Sprintf("REGRESSION: the candidate is worse by more than the margin (%s) at %s confidence", ppText(-opt.Margin)[1:], confText(opt.Confidence))
	case mean < -opt.Margin:
		g.Decision = "ok: the observed drop exceeds the margin but is inside the noise (not significant); a real drop that small may be missed, see the minimum detectable effect"
	case mean < 0:
		g.Decision = "ok: the observed drop is within the margin"
	default:
		g.Decision = "ok: the candidate is not worse"
	}
	if g.Warnings == nil {
		g.Warnings = []results.Warning{}
	}
	return g
}

// sequentialDecision sets g's decision from stats.SequentialGate.
func sequentialDecision(g *GateResult, old, new []float64, opt GateOptions) {
	r := stats.SequentialGate(old, new, opt.Margin, opt.Confidence)
	g.Sequential = &SequentialGate{Decision: r.Decision, N: r.N, Delta: r.Delta, CILow: r.Lo, CIHigh: r.Hi, Method: r.Method}
	g.Regression = r.Decision == stats.DecisionRegression
	margin := ppText(opt.Margin)[1:]
	cs := fmt.Sprintf("%s confidence sequence [%s, %s]", confText(opt.Confidence), ppText(r.Lo), ppText(r.Hi))
	switch r.Decision {
	case stats.DecisionRegression:
		g.Decision = fmt.Sprintf("REGRESSION: the candidate is worse by more than the margin (%s): after %d of %d pairs the %s is below it", margin, r.N, g.N, cs)
	case stats.DecisionNoRegression:
		g.Decision = fmt.Sprintf("ok: no regression beyond the margin (%s): after %d of %d pairs the %s is above it", margin, r.N, g.N, cs)
	default:
		g.Decision = fmt.Sprintf("continue: after all %d pairs the %s still holds the margin (%s): neither a regression nor its absence is established; more rows are needed", g.N, cs, margin)
	}
}

func confText(c float64) string { return strconv.FormatFloat(100*c, 'g', -1, 64) + "%" }

// WriteText writes the decision and its figures.
func (g *GateResult) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	fmt.Fprintf(ew, "baseline:  %s\ncandidate: %s\n", g.Baseline, g.Candidate)
	fmt.Fprintf(ew, "%s: %s -> %s, delta %s (one-sided %s upper bound %s), margin %s\n", g.Metric,
		pctText(g.BaselineMean), pctText(g.CandidateMean), ppText(g.Delta), confText(g.Confidence), ppText(g.Upper), ppText(-g.Margin))
	fmt.Fprintf(ew, "%d pairs (%d better, %d worse), %d without a verdict left out; p = %s\n", g.N, g.Better, g.Worse, g.Excluded, pText(g.P))
	fmt.Fprintf(ew, "minimum detectable drop at this sample size (%s power): %s\n", confText(g.Power), ppText(-g.MDE))
	if q := g.Sequential; q != nil {
		fmt.Fprintf(ew, "sequential (%s, anytime-valid over the pairs in stored order): %s after %d pairs, delta %s; the fixed-n figures above are for reference\n",
			q.Method, q.Decision, q.N, ppText(q.Delta))
	}
	fmt.Fprintln(ew, g.Decision)
	if q := g.Noise; q != nil {
		z := stats.NormalQuantile(g.Confidence)
		fmt.Fprintf(ew, "noise floor from %d runs of the baseline's system (%d items): a rerun alone moves the mean by sd %s (%s one-sided: %s); within-item share %s, %d flaky items\n",
			len(q.Runs), q.Items, ppText(q.NoiseSD)[1:], confText(g.Confidence), ppText(z * q.NoiseSD)[1:], pctText(q.WithinShare), q.FlakyItems)
	}
	for _, t := range results.WarningTable(g.Warnings) {
		fmt.Fprintln(ew)
		if err := t.WriteText(ew); err != nil {
			return err
		}
	}
	return ew.err
}

// Tables returns the gate's figures as one table, and the warnings.
func (g *GateResult) Tables() []results.Table {
	f := results.Float
	// The columns are named as the cards are, and the margin and the
	// minimum detectable effect are drops, negative changes, as the
	// cards and the chart's line show them: the gate fails when the
	// upper bound of the change lies below the allowed drop. JSON keeps
	// margin and mde as positive proportions.
	t := results.Table{Title: "Gate", Note: g.Decision, Columns: []results.Column{{Name: "metric"}, {Name: "baseline run", Kind: results.KindNumber}, {Name: "candidate run", Kind: results.KindNumber},
		{Name: "pairs", Kind: results.KindCount}, {Name: "without a verdict", Kind: results.KindCount},
		{Name: "baseline", Kind: results.KindRate}, {Name: "candidate", Kind: results.KindRate},
		{Name: "change", Kind: results.KindPP}, {Name: "change upper bound", Kind: results.KindPP}, {Name: "allowed drop (margin)", Kind: results.KindPP},
		{Name: "p (drop beyond the margin)", Kind: results.KindP}, {Name: "smallest drop detected", Kind: results.KindPP}, {Name: "regression"}},
		Rows: [][]string{{g.Metric, strconv.FormatInt(g.Baseline.ID, 10), strconv.FormatInt(g.Candidate.ID, 10), strconv.Itoa(g.N), strconv.Itoa(g.Excluded),
			f(g.BaselineMean), f(g.CandidateMean), f(g.Delta), f(g.Upper), f(-g.Margin), f(g.P), f(-g.MDE), results.YesNo(g.Regression)}}}
	if q := g.Sequential; q != nil {
		t.Columns = append(t.Columns, results.Column{Name: "sequential decision"}, results.Column{Name: "sequential pairs", Kind: results.KindCount},
			results.Column{Name: "sequential change", Kind: results.KindPP}, results.Column{Name: "sequential interval low", Kind: results.KindPP},
			results.Column{Name: "sequential interval high", Kind: results.KindPP})
		t.Rows[0] = append(t.Rows[0], q.Decision, strconv.Itoa(q.N), f(q.Delta), f(q.CILow), f(q.CIHigh))
	}
	out := []results.Table{t}
	if g.Noise != nil {
		out = append(out, replicatesTable([]Replicates{*g.Noise}, "the baseline and the stored runs that repeat it (same command and model, comparable), one sample per item per run: the rerun noise the margin should clear"))
	}
	return append(out, results.WarningTable(g.Warnings)...)
}
