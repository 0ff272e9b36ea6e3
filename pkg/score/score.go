// Package score is the one home of every metric evalbook computes: the
// per-row metrics that compare a model's response with a golden answer,
// and a registry that finds every metric by id (Find; Lookup for the row
// metrics). The registry also holds the multiple-choice metrics (kind
// choice: acc, acc_norm, acc_norm_token, mrr, recall@k, with the one
// ranking rule Rank that pkg/mc and pkg/tasks both use) and the
// sampled-answer metrics of task runs (kind samples: pass@k, maj@k, whose
// estimators are in pkg/stats). One id is one rule: exact_match is byte
// equality; loose_exact_match is the looser rule task runs once applied
// under that name; acc_norm_char is an alias of acc_norm.
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
// must equal Score(g, r). ScoreLower only reads its arguments, which may
// share memory with strings (text that lowering leaves as it is), and
// keeps neither.
type LowerScorer interface {
	Scorer
	ScoreLower(golden, response []byte) Verdict
}

// A Kind says what a metric scores, and so which of Metric's functions
// it has.
type Kind int

const (
	// KindRow scores one response against one golden answer: Metric.New
	// (and Metric.Corpus for a corpus-level metric). The zero Kind: these
	// are the metrics of evalbook score, leaderboard and judge.
	KindRow Kind = iota
	// KindChoice scores one multiple-choice item from its options'
	// log-likelihoods: Metric.Choice. evalbook mc and task run (mc_loglik)
	// report them.
	KindChoice
	// KindSamples scores one item from n sampled responses, each of them
	// correct or not under the task's match metric (a row metric with
	// Canon): pass@k and maj@k. Their per-item estimators are in
	// pkg/stats (PassAtK, MajAtK), which Rule names.
	KindSamples
)

// String names the kind as the documentation does: row, choice, samples.
func (k Kind) String() string {
	switch k {
	case KindRow:
		return "row"
	case KindChoice:
		return "choice"
	case KindSamples:
		return "samples"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// A Metric describes a metric: its id, its rule in words and, for a row
// or choice metric, the function that scores one item.
type Metric struct {
	ID     string // snake_case registry id, also the verdict column name
	Name   string // a short human name
	Kind   Kind   // what it scores; the zero value is KindRow
	Graded bool   // true when Value lies in [0,1] rather than {0,1}
	// Aliases are other ids that find this metric (Find, Lookup): a name
	// a contract used before the metric had one home.
	Aliases []string
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
	// New (row metrics) returns a fresh Scorer with its own scratch
	// space. For a corpus-level metric it scores one row as a corpus of
	// one (the sentence-level value).
	New func() Scorer
	// Canon, when set (row metrics that are equality after a normal
	// form), is that form: Score(g, r) is 1 exactly when Canon(g) ==
	// Canon(r). maj@k groups a task's sampled answers by it.
	Canon func(string) string
	// Choice (choice metrics) values one multiple-choice item.
	Choice *ChoiceDef
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
	registry = map[string]*Metric{} // by id and by alias
	order    []string               // ids, in registration order
)

// Register adds m to the registry. It panics if the id or an alias is
// taken or the metric lacks what its kind needs (a row metric New, a
// choice metric Choice): registration is a programming act, not input.
func Register(m *Metric) {
	if m.ID == "" || m.Rule == "" {
		panic("score: Register: metric needs ID and Rule")
	}
	switch {
	case m.Kind == KindRow && m.New == nil:
		panic("score: Register: row metric " + m.ID + " needs New")
	case m.Kind == KindChoice && (m.Choice == nil || m.Choice.Key == nil || m.Choice.Value == nil):
		panic("score: Register: choice metric " + m.ID + " needs Choice.Key and Choice.Value")
	case m.Kind != KindRow && m.Kind != KindChoice && m.Kind != KindSamples:
		panic("score: Register: metric " + m.ID + " has an unknown kind")
	}
	for _, id := range append([]string{m.ID}, m.Aliases...) {
		if _, dup := registry[id]; dup {
			panic("score: Register: duplicate metric id " + id)
		}
		registry[id] = m
	}
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

// Lookup returns the row metric with the given id (or alias): the
// metrics that score a response against a golden answer. An unknown id
// is an error wrapping ErrUnknownMetric that lists the row metric ids;
// the id of a choice or samples metric is an error wrapping
// ErrUnknownMetric too, saying which command reports it.
func Lookup(id string) (*Metric, error) {
	m, err := Find(id)
	if err != nil {
		return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownMetric, id, strings.Join(IDs(), ", "))
	}
	if m.Kind != KindRow {
		return nil, fmt.Errorf("%w %q as a row metric: %s is a %s metric (%s), reported by evalbook mc and task run; "+
			"a response against a golden answer takes one of %s", ErrUnknownMetric, id, m.ID, m.Kind, m.Name, strings.Join(IDs(), ", "))
	}
	return m, nil
}

// Find returns the metric of any kind with the given id or alias. An id
// of the form name@N with N a whole number above 0 (recall@2, pass@5)
// finds the metric name@k. An unknown id is an error wrapping
// ErrUnknownMetric that lists every id.
func Find(id string) (*Metric, error) {
	if m, ok := registry[id]; ok {
		return m, nil
	}
	if i := strings.LastIndexByte(id, '@'); i > 0 && isWhole(id[i+1:]) {
		if m, ok := registry[id[:i]+"@k"]; ok {
			return m, nil
		}
	}
	return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownMetric, id, strings.Join(AllIDs(), ", "))
}

// isWhole reports whether s is a whole number above 0 written in ASCII
// digits without a leading zero.
func isWhole(s string) bool {
	if s == "" || s[0] == '0' || len(s) > 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// listOrder is the order in which IDs and AllIDs list the metrics: the
// seed protocols first, then the equality metrics, then the generative
// ones, then the choice and samples metrics. Metrics not named here
// follow in alphabetical order.
var listOrder = []string{
	"exact_substring", "word_overlap", "exact_match", "loose_exact_match", "squad_em", "squad_f1", "quasi_exact_match", "prefix_exact_match",
	"chrf", "chrf_pp", "bleu", "bleu_indic", "rouge1", "rouge2", "rouge_l", "ter", "edit_similarity", "char_f1",
	Acc, AccNorm, AccNormToken, MRR, RecallAtK, PassAtK, MajAtK,
}

// IDs returns the ids of the row metrics (those Lookup finds and
// evalbook score takes): the seed protocols first, then exact-match
// style metrics, then generative ones.
func IDs() []string { return ids(func(m *Metric) bool { return m.Kind == KindRow }) }

// AllIDs returns the id of every registered metric, of every kind: the
// row metrics as IDs lists them, then the choice and samples metrics.
func AllIDs() []string { return ids(func(*Metric) bool { return true }) }

// All returns every registered metric, in AllIDs' order.
func All() []*Metric {
	var out []*Metric
	for _, id := range AllIDs() {
		out = append(out, registry[id])
	}
	return out
}

func ids(keep func(*Metric) bool) []string {
	rank := map[string]int{}
	for i, id := range listOrder {
		rank[id] = i
	}
	var ids []string
	for _, id := range order {
		if keep(registry[id]) {
			ids = append(ids, id)
		}
	}
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
		m, err := Lookup(id)
		if err != nil {
			return nil, err
		}
		if seen[m.ID] {
			return nil, fmt.Errorf("metric %q is listed twice", id)
		}
		seen[m.ID] = true
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no metric ids in %q (known: %s)", s, strings.Join(IDs(), ", "))
	}
	return out, nil
}
