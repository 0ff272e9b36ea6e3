// Package score holds the per-row metrics that compare a model's response
// with a golden answer, and a registry that finds them by id.
//
// Every metric documents its exact rule and the ways it is wrong in both
// directions: a false positive (scored correct, is not) and a false
// negative (scored wrong, is not). Deterministic metrics are lower bounds
// on correctness in the sense that matters for an evaluation: they cannot
// see paraphrase, negation or numbers written differently.
//
// Metrics are looked up by id (Lookup) and used through a Scorer, which
// each goroutine makes for itself with Metric.New: scorers keep scratch
// buffers, so scoring a row allocates nothing on the common paths.
//
// The corpus functions (CorpusCHRF, SentenceCHRF, CorpusBLEU,
// SentenceBLEU) take options set by the program and panic on invalid ones;
// CHRFOptions.Validate and BLEUOptions.Validate return the same error
// (wrapping ErrOptions) for options that come from input. An unknown
// metric id is an error wrapping ErrUnknownMetric.
package score

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// A Verdict is the outcome of scoring one row under one metric.
type Verdict struct {
	// Value is 1 (correct) or 0 (wrong) for a binary metric, and a
	// number in [0, 1] for a graded one.
	Value float64
	// Matching and Total give word_overlap's partial credit: how many
	// distinct golden words the response contains, out of how many.
	// Other metrics leave them zero.
	Matching, Total int
}

// A Scorer scores rows for one metric. A Scorer is not safe for
// concurrent use; make one per goroutine with Metric.New.
type Scorer interface {
	Score(golden, response string) Verdict
}

// A LowerScorer can score from text that was already lower-cased with
// textnorm.AppendLower, so that a caller running several such metrics
// lower-cases each row once. ScoreLower(AppendLower(g), AppendLower(r))
// must equal Score(g, r).
type LowerScorer interface {
	Scorer
	ScoreLower(golden, response []byte) Verdict
}

// A Metric describes a per-row metric and makes scorers for it.
type Metric struct {
	ID     string // snake_case registry id, also the verdict column name
	Name   string // a short human name
	Graded bool   // true when Value lies in [0,1] rather than {0,1}
	// Rule states exactly when a row is correct (or how it is graded).
	Rule string
	// FalsePositives and FalseNegatives describe how the metric errs.
	FalsePositives string
	FalseNegatives string
	// Blank says how an empty (or whitespace-only) response or golden
	// answer is scored.
	Blank string
	// Source names where the definition comes from.
	Source string
	// New returns a fresh Scorer with its own scratch space. For a
	// corpus-level metric it scores one row as a corpus of one (the
	// sentence-level value).
	New func() Scorer
	// Corpus, when set, makes the metric corpus-level: a group's value is
	// computed from the summed sufficient statistics of its rows, not as
	// the mean of row values (corpus BLEU and chrF are not means).
	Corpus *CorpusDef
}

// CorpusDef describes a corpus-level metric's sufficient statistics.
type CorpusDef struct {
	// NStats is the number of statistics each row contributes.
	NStats int
	// New returns a stats collector for one goroutine.
	New func() CorpusStats
	// Final computes the corpus value from statistics summed over rows.
	Final func(sums []float64) float64
	// SentenceIsFinal says that a row's sentence-level value equals
	// Final of that row's own statistics (chrF and TER; not BLEU, whose
	// sentence form is smoothed), so a caller that collects the
	// statistics may skip Scorer.Score.
	SentenceIsFinal bool
}

// CorpusStats computes one row's sufficient statistics.
type CorpusStats interface {
	// AppendStats appends the row's NStats statistics to dst.
	AppendStats(dst []float64, golden, response string) []float64
}

var (
	registry = map[string]*Metric{}
	order    []string
)

// Register adds m to the registry. It panics if the id is taken or the
// metric is incomplete: registration is a programming act, not input.
func Register(m *Metric) {
	if m.ID == "" || m.New == nil || m.Rule == "" {
		panic("score: Register: metric needs ID, Rule and New")
	}
	if _, dup := registry[m.ID]; dup {
		panic("score: Register: duplicate metric id " + m.ID)
	}
	registry[m.ID] = m
	order = append(order, m.ID)
}

// Errors callers can branch on with errors.Is.
var (
	// ErrUnknownMetric is wrapped by the error of Lookup (and ParseList)
	// for an id that no metric is registered under.
	ErrUnknownMetric = errors.New("unknown metric id")
	// ErrOptions is wrapped by the errors of CHRFOptions.Validate and
	// BLEUOptions.Validate.
	ErrOptions = errors.New("score: invalid options")
)

// Lookup returns the metric with the given id. An unknown id is an error
// wrapping ErrUnknownMetric that lists the known ids.
func Lookup(id string) (*Metric, error) {
	if m, ok := registry[id]; ok {
		return m, nil
	}
	return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownMetric, id, strings.Join(IDs(), ", "))
}

// listOrder is the order in which IDs lists the metrics: the seed
// protocols first, then the equality metrics, then the generative ones.
// Metrics not named here follow in alphabetical order.
var listOrder = []string{
	"exact_substring", "word_overlap", "exact_match", "squad_em", "squad_f1", "quasi_exact_match", "prefix_exact_match",
	"chrf", "chrf_pp", "bleu", "bleu_indic", "rouge1", "rouge2", "rouge_l", "ter", "edit_similarity", "char_f1",
}

// IDs returns the registered metric ids: the seed protocols first, then
// exact-match style metrics, then generative ones.
func IDs() []string {
	rank := map[string]int{}
	for i, id := range listOrder {
		rank[id] = i
	}
	ids := append([]string(nil), order...)
	sort.SliceStable(ids, func(i, j int) bool {
		ri, oki := rank[ids[i]]
		rj, okj := rank[ids[j]]
		switch {
		case oki && okj:
			return ri < rj
		case oki != okj:
			return oki
		}
		return ids[i] < ids[j]
	})
	return ids
}

// Default is the metric set scored when none is named: the two seed protocols.
var Default = []string{"exact_substring", "word_overlap"}

// ParseList splits a comma-separated list of metric ids and looks each up.
// Duplicates are an error, so that verdict columns stay unique.
func ParseList(s string) ([]*Metric, error) {
	var out []*Metric
	seen := map[string]bool{}
	for _, id := range strings.Split(s, ",") {
		id = strings.TrimSpace(id)
		if id == "" {
			continue
		}
		if seen[id] {
			return nil, fmt.Errorf("metric %q is listed twice", id)
		}
		seen[id] = true
		m, err := Lookup(id)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no metric ids in %q (known: %s)", s, strings.Join(IDs(), ", "))
	}
	return out, nil
}
