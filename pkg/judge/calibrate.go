package judge

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/evalbook/evalbook/pkg/results"
)

// ErrNilJudge is returned, before any work starts, by the functions that
// ask a judge (Ask, Calibrate, RunProbes, JudgeReferences,
// ComparePrompts, and ClientJudge's methods) when given a nil judge, a
// nil *ClientJudge, or a ClientJudge without a client.
var ErrNilJudge = errors.New("judge: no judge (nil judge or client)")

// nilJudge reports whether j cannot be asked anything: a nil interface, or
// a *ClientJudge that is nil or has no client (a typed nil inside the
// interface would otherwise panic in a worker goroutine).
func nilJudge(j Judge) bool {
	if j == nil {
		return true
	}
	if cj, ok := j.(*ClientJudge); ok {
		return cj == nil || cj.Client == nil
	}
	return false
}

// ErrorShape describes a judge's wrong decisive picks: pairs where it
// picked a or b and the final human label is different (the other answer,
// or a tie). Each count says how many of those picks went to the answer
// that is longer (more words), shown first, uncited while the other cites,
// or in the judge's own style while the other is not. A pick that survived
// both orders (a swapped calibration) was not made for being first, so
// PickedFirst is 0 with swap.
type ErrorShape struct {
	WrongDecisive  int `json:"wrong_decisive"`
	PickedLonger   int `json:"picked_longer"`
	PickedFirst    int `json:"picked_first"`
	PickedUncited  int `json:"picked_uncited"`
	PickedOwnStyle int `json:"picked_own_style"`
}

// A PairResult is the judge's verdict on one labelled pair.
type PairResult struct {
	ID    string `json:"id"`
	Kind  string `json:"kind"`
	Lang  string `json:"lang"`
	Final Label  `json:"final"`
	Verdict
}

// A Record is a calibration of one judge, with one prompt, against one
// labelled pair set: plain data, kept next to every score the judge
// produces, and stale as soon as the prompt, the judge or the labels
// change (see IsStale).
//
//	agreement = share of pairs where the judge's label equals the final label
//	kappa     = (observed − expected) / (1 − expected), expected = Σ_l share_judge(l)·share_human(l)
//
// The interval is a percentile bootstrap over the pairs (Confidence, 0.95
// by default). Confusion has human (final) labels as rows and the judge's
// labels as columns.
type Record struct {
	Judge              string                  `json:"judge"`
	Prompt             PromptRef               `json:"prompt"`
	LabelSet           string                  `json:"label_set"`
	Swap               bool                    `json:"swap"`
	N                  int                     `json:"n"`
	Agree              int                     `json:"agree"`
	Agreement          float64                 `json:"agreement"`
	AgreementLow       float64                 `json:"agreement_ci_low"`
	AgreementHigh      float64                 `json:"agreement_ci_high"`
	Confidence         float64                 `json:"confidence"`
	Kappa              float64                 `json:"kappa"`
	Confusion          map[Label]map[Label]int `json:"confusion"`
	ByKind             map[string]Share        `json:"by_kind"`
	ByLang             map[string]Share        `json:"by_lang"`
	OrderDisagreements int                     `json:"order_disagreements"`
	Errors             ErrorShape              `json:"errors"`
	Invalid            int                     `json:"invalid"`
	InvalidReasons     map[string]int          `json:"invalid_reasons,omitempty"`
	Pairs              []PairResult            `json:"pairs"`
	// Warnings are the figures' weak points, each with a stable code:
	// the bootstrap's (stats codes, stats.CodePointInterval with the
	// Wilson interval when every pair agrees or none does), kappa's
	// (agree codes), CodeInvalidReplies and CodeFewLanguagePairs.
	Warnings []results.Warning `json:"warnings,omitempty"`
}

// The codes of the warnings Calibrate gives itself (see Record.Warnings).
const (
	// CodeInvalidReplies: judge replies broke the reply contract and
	// were counted as ties (Count: the replies).
	CodeInvalidReplies = "judge_invalid"
	// CodeFewLanguagePairs: a language has fewer than five pairs, a
	// reason to label more rather than a measurement (Count: its pairs).
	CodeFewLanguagePairs = "few_language_pairs"
)

// The codes' former names.
//
// Deprecated: use the Code names; the values are the same.
const (
	WarnInvalidReplies   = CodeInvalidReplies
	WarnFewLanguagePairs = CodeFewLanguagePairs
	WarnCallsFailed      = CodeCallsFailed
	WarnNoResponse       = CodeNoResponse
)

// CalibrateOptions configures Calibrate. The zero value asks in one order
// (a first) and draws DefaultResamples bootstrap resamples with seed 0 for
// a 95% interval.
type CalibrateOptions struct {
	Judge      string  // the judge's name for the record, e.g. "fake:mixed"
	Swap       bool    // ask in both orders; a disagreement is a tie
	Resamples  int     // bootstrap resamples; 0 means DefaultResamples
	Seed       uint64  // bootstrap seed
	Confidence float64 // interval confidence; 0 means 0.95
	Workers    int     // pairs judged at once; 0 means 8
	// Progress, when set, is called after each pair with the number of
	// pairs done and the total (from several goroutines; it must be safe
	// for concurrent use).
	Progress func(done, total int)
}

// DefaultResamples is the number of bootstrap resamples Calibrate draws by
// default.
const DefaultResamples = 10000

// InvalidCounter is implemented by judges that count replies breaking the
// contract (ClientJudge); Calibrate reports the count.
type InvalidCounter interface {
	InvalidReplies() (n int, byReason map[string]int)
}

// Calibrate asks j about every pair (in both orders with opt.Swap) and
// compares its labels with the final human labels. The prompt is recorded
// by name, version and hash; a fake judge does not read it, but its record
// is tied to it all the same, so it must be a valid pairwise prompt (see
// Prompt.Validate): a zero Prompt would tie the record to the hash of an
// empty text.
//
// When the judge agrees on every pair (or on none), every bootstrap
// resample gives the same share and the interval AgreementLow to
// AgreementHigh is a single point; the figures are kept and a warning
// gives the Wilson score interval of Agree/N instead.
//
// Errors, before any pair is asked: ErrNilJudge for a nil judge, an
// invalid or non-pairwise prompt, no pairs, opt.Resamples below 0 and a
// opt.Confidence outside (0, 1) (0 means 0.95). Then the first error of
// the judge, or of ctx.
func Calibrate(ctx context.Context, j Judge, p Prompt, pairs []Pair, opt CalibrateOptions) (Record, error) {
	if nilJudge(j) {
		return Record{}, fmt.Errorf("calibrate: %w", ErrNilJudge)
	}
	if err := p.Validate(); err != nil {
		return Record{}, fmt.Errorf("calibrate: %w", err)
	}
	if p.Kind != KindPairwise {
		return Record{}, fmt.Errorf("calibrate: prompt %s is a %s prompt; calibration compares pairs and needs a pairwise prompt", p.ID(), p.Kind)
	}
	if len(pairs) == 0 {
		return Record{}, fmt.Errorf("calibrate: no pairs")
	}
	if opt.Resamples < 0 {
		return Record{}, fmt.Errorf("calibrate: %d bootstrap resamples; want 1 or more (0 for the default)", opt.Resamples)
	}
	if c := opt.Confidence; c != 0 && !(c > 0 && c < 1) {
		return Record{}, fmt.Errorf("calibrate: confidence %v is not strictly between 0 and 1 (0 for 0.95)", c)
	}
	var before int
	var beforeReasons map[string]int
	ic, counts := j.(InvalidCounter)
	if counts {
		before, beforeReasons = ic.InvalidReplies()
	}
	verdicts, err := askAll(ctx, j, pairs, opt.Swap, opt.Workers, opt.Progress)
	if err != nil {
		return Record{}, err
	}
	conf := opt.Confidence
	if conf == 0 {
		conf = 0.95
	}
	resamples := opt.Resamples
	if resamples == 0 {
		resamples = DefaultResamples
	}
	r := Record{
		Judge: opt.Judge, Prompt: p.Ref(), LabelSet: LabelSetHash(pairs), Swap: opt.Swap,
		N: len(pairs), Confidence: conf,
		Confusion: map[Label]map[Label]int{}, ByKind: map[string]Share{}, ByLang: map[string]Share{},
	}
	for _, l := range Labels {
		r.Confusion[l] = map[Label]int{LabelA: 0, LabelB: 0, LabelTie: 0}
	}
	human := make([]Label, len(pairs))
	judged := make([]Label, len(pairs))
	for i, p := range pairs {
		v := verdicts[i]
		human[i], judged[i] = p.Final, v.Label
		r.Pairs = append(r.Pairs, PairResult{ID: p.ID, Kind: p.Kind, Lang: p.Lang, Final: p.Final, Verdict: v})
		r.Confusion[p.Final][v.Label]++
		hit := v.Label == p.Final
		k, l := r.ByKind[p.Kind], r.ByLang[p.Lang]
		k.N++
		l.N++
		if hit {
			r.Agree++
			k.Hits++
			l.Hits++
		}
		r.ByKind[p.Kind], r.ByLang[p.Lang] = k, l
		if v.Disagree {
			r.OrderDisagreements++
		}
		if !hit && v.Label != LabelTie {
			r.Errors.add(p, v.Label, opt.Swap)
		}
	}
	r.Agreement = float64(r.Agree) / float64(r.N)
	var warn []results.Warning
	r.AgreementLow, r.AgreementHigh, warn = agreementInterval(r.Agree, r.N, resamples, conf, opt.Seed)
	r.Warnings = append(r.Warnings, warn...)
	r.Kappa, warn = kappa(human, judged)
	r.Warnings = append(r.Warnings, warn...)
	if counts {
		after, afterReasons := ic.InvalidReplies()
		r.Invalid = after - before
		for reason, n := range afterReasons {
			if d := n - beforeReasons[reason]; d > 0 {
				if r.InvalidReasons == nil {
					r.InvalidReasons = map[string]int{}
				}
				r.InvalidReasons[reason] = d
			}
		}
		if r.Invalid > 0 {
			replies := "judge replies broke the reply contract and were counted as ties"
			if r.Invalid == 1 {
				replies = "judge reply broke the reply contract and was counted as a tie"
			}
			r.Warnings = append(r.Warnings, results.Warning{Code: CodeInvalidReplies, Count: r.Invalid, Message: fmt.Sprintf("%d %s", r.Invalid, replies)})
		}
	}
	for _, name := range sortedKeys(r.ByLang) {
		if s := r.ByLang[name]; s.N < 5 {
			pairs := "pairs"
			if s.N == 1 {
				pairs = "pair"
			}
			r.Warnings = append(r.Warnings, results.Warning{Code: CodeFewLanguagePairs, Count: s.N, Message: fmt.Sprintf("language %s has only %d %s: a reason to label more, not a measurement", name, s.N, pairs)})
		}
	}
	return r, nil
}

func (e *ErrorShape) add(p Pair, picked Label, swap bool) {
	e.WrongDecisive++
	mine, other := p.A, p.B
	if picked == LabelB {
		mine, other = p.B, p.A
	}
	if Words(mine) > Words(other) {
		e.PickedLonger++
	}
	if picked == LabelA && !swap {
		e.PickedFirst++
	}
	if !Cited(mine) && Cited(other) {
		e.PickedUncited++
	}
	if ownStyle(mine) && !ownStyle(other) {
		e.PickedOwnStyle++
	}
}

// askAll asks j (not nil) about every pair with up to workers pairs at once, and
// returns the verdicts in pair order. The first error cancels the rest;
// the error returned is the first in pair order that is not the
// context.Canceled of a pair cut short by that cancellation (so a failure
// never reads as an interruption), or context.Canceled when that is all
// there is.
func askAll(ctx context.Context, j Judge, pairs []Pair, swap bool, workers int, progress func(int, int)) ([]Verdict, error) {
	if workers <= 0 {
		workers = 8
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([]Verdict, len(pairs))
	errs := make([]error, len(pairs))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < min(workers, len(pairs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], errs[i] = Ask(ctx, j, pairs[i], swap)
				if errs[i] != nil {
					cancel()
					continue
				}
				if progress != nil {
					mu.Lock()
					done++
					d := done
					mu.Unlock()
					progress(d, len(pairs))
				}
			}
		}()
	}
feed:
	for i := range pairs {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	var first error
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, err
		}
		if first == nil {
			first = err
		}
	}
	if first != nil {
		return nil, first
	}
	if err := ctx.Err(); err != nil && len(pairs) > 0 {
		// Cancelled from outside before every pair was fed.
		for i := range pairs {
			if out[i].Label == "" {
				return nil, err
			}
		}
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// IsStale reports whether a calibration record no longer describes the
// judge: the judge's name, the prompt (its hash, so any changed word) or
// the label set (its hash) differ from the record's. An empty judge name
// skips the judge check.
func IsStale(r Record, judge string, p Prompt, pairs []Pair) bool {
	return len(StaleReasons(r, judge, p, pairs)) > 0
}

// StaleReasons lists why IsStale would be true, empty when the record is
// current.
func StaleReasons(r Record, judge string, p Prompt, pairs []Pair) []string {
	var why []string
	if judge != "" && judge != r.Judge {
		why = append(why, fmt.Sprintf("judge changed: record %s, now %s", r.Judge, judge))
	}
	if h := p.Hash(); h != r.Prompt.Hash {
		why = append(why, fmt.Sprintf("prompt changed: record %s@%d %s, now %s %s", r.Prompt.Name, r.Prompt.Version, r.Prompt.Hash, p.ID(), h))
	}
	if h := LabelSetHash(pairs); h != r.LabelSet {
		why = append(why, fmt.Sprintf("label set changed: record %s, now %s", r.LabelSet, h))
	}
	return why
}

// Usable returns the reasons to reject the judge a record describes, empty
// when it is usable: kappa below minKappa, and every slice (each kind and
// each language) whose agreement is below minSlice. A slice of five pairs
// is weak evidence either way; a failing slice says where to look and
// label more, and rejecting on it keeps an average from hiding it. The
// lesson's defaults are 0.6 and 0.6.
func Usable(r Record, minKappa, minSlice float64) []string {
	var why []string
	if r.N == 0 {
		return []string{"no pairs were judged"}
	}
	if r.Kappa < minKappa {
		why = append(why, fmt.Sprintf("kappa %.3f below %g", r.Kappa, minKappa))
	}
	for _, s := range []struct {
		what string
		m    map[string]Share
	}{{"kind", r.ByKind}, {"lang", r.ByLang}} {
		for _, name := range sortedKeys(s.m) {
			sh := s.m[name]
			if v, ok := sh.Value(); ok && v < minSlice {
				why = append(why, fmt.Sprintf("%s %s agrees on %s, below %g", s.what, name, sh, minSlice))
			}
		}
	}
	return why
}
