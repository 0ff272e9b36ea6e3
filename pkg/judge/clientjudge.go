package judge

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/evalbook/evalbook/pkg/llm"
)

// ClientJudge is a model judge: it renders a versioned prompt, sends it
// through any llm.Completer (an *llm.Client for a real endpoint), and
// parses the reply strictly. A reply that breaks the contract is never
// guessed at: a pairwise comparison counts it as a tie, a reference
// judgment as invalid, and both are counted by reason, so that the damage
// shows as a number.
//
// A ClientJudge is safe for concurrent use.
type ClientJudge struct {
	Client llm.Completer
	Prompt Prompt

	mu      sync.Mutex
	replies int
	invalid map[string]int
}

// NewClientJudge returns a judge that asks c with prompt p.
func NewClientJudge(c llm.Completer, p Prompt) *ClientJudge {
	return &ClientJudge{Client: c, Prompt: p}
}

func (j *ClientJudge) count(err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.replies++
	if err == nil {
		return
	}
	var re *ReplyError
	reason := err.Error()
	if errors.As(err, &re) {
		reason = re.Reason
	}
	if j.invalid == nil {
		j.invalid = map[string]int{}
	}
	j.invalid[reason]++
}

// InvalidReplies returns how many replies broke the contract so far, in
// total and by reason.
func (j *ClientJudge) InvalidReplies() (int, map[string]int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := 0
	by := make(map[string]int, len(j.invalid))
	for r, k := range j.invalid {
		n += k
		by[r] = k
	}
	return n, by
}

// Replies returns how many replies the judge has parsed.
func (j *ClientJudge) Replies() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.replies
}

// Compare implements Judge with a pairwise prompt. The facts of q are not
// shown to the model: it judges the answers as a reader would. A nil
// judge or one without a client returns ErrNilJudge.
func (j *ClientJudge) Compare(ctx context.Context, q Query) (Winner, error) {
	if j == nil || j.Client == nil {
		return "", ErrNilJudge
	}
	text, err := j.Prompt.RenderPairwise(q.Question, q.First, q.Second)
	if err != nil {
		return "", err
	}
	reply, err := j.Client.Complete(ctx, llm.Request{PromptHash: j.Prompt.Hash(), User: text})
	if err != nil {
		return "", err
	}
	w, _, perr := ParsePairwise(reply)
	j.count(perr)
	if perr != nil {
		return Tie, nil
	}
	return w, nil
}

// A RefVerdict is a reference judgment: Valid says the reply kept the
// contract; Correct is meaningful only then. Invalid holds the reason a
// reply was rejected. Error, set by JudgeReferences, says why the row's
// call failed (llm.Describe: status and reason): the row has no verdict
// and is left out of every rate.
type RefVerdict struct {
	Valid   bool   `json:"valid"`
	Correct bool   `json:"correct"`
	Reason  string `json:"reason,omitempty"`
	Invalid string `json:"invalid,omitempty"`
	Error   string `json:"error,omitempty"`
	// Kind is the failure's llm.Kind ("server_error", "timeout", ...).
	Kind string `json:"error_kind,omitempty"`
}

// Failed reports whether the row's call failed.
func (v RefVerdict) Failed() bool { return v.Error != "" }

// ErrRowsFailed is found with errors.Is in the error of a run in which
// some rows' calls failed after their retries (a *RowsFailedError).
var ErrRowsFailed = errors.New("judge calls failed")

// A RowsFailedError says that Failed of Total rows got no reply; the
// other rows were judged and their replies are in the client's cache, so
// a rerun asks only for the failed ones. errors.Is finds ErrRowsFailed
// and the first failure's sentinels (llm.ErrServer, ...).
type RowsFailedError struct {
	Failed, Total int
	// Where names the first failed row ("row 5", "line 7").
	Where string
	First error
}

func (e *RowsFailedError) Error() string {
	rows := "rows"
	if e.Total == 1 {
		rows = "row"
	}
	return fmt.Sprintf("%d of %d %s failed after their retries (first: %s: %v)", e.Failed, e.Total, rows, e.Where, e.First)
}

func (e *RowsFailedError) Unwrap() []error { return []error{ErrRowsFailed, e.First} }

// Reference asks whether response gives the same answer as golden, with a
// reference prompt. A nil judge or one without a client returns
// ErrNilJudge.
func (j *ClientJudge) Reference(ctx context.Context, question, golden, response string) (RefVerdict, error) {
	if j == nil || j.Client == nil {
		return RefVerdict{}, ErrNilJudge
	}
	text, err := j.Prompt.RenderReference(question, golden, response)
	if err != nil {
		return RefVerdict{}, err
	}
	reply, err := j.Client.Complete(ctx, llm.Request{PromptHash: j.Prompt.Hash(), User: text})
	if err != nil {
		return RefVerdict{}, err
	}
	ok, reason, perr := ParseReference(reply)
	j.count(perr)
	if perr != nil {
		var re *ReplyError
		why := perr.Error()
		if errors.As(perr, &re) {
			why = re.Reason
		}
		return RefVerdict{Invalid: why}, nil
	}
	return RefVerdict{Valid: true, Correct: ok, Reason: reason}, nil
}

// A RefItem is one row to judge against its golden answer.
type RefItem struct {
	Question, Golden, Response string
}

// JudgeReferences judges every item with up to workers calls at once
// (the client's own concurrency limit still applies) and returns the
// verdicts in item order. progress, when set, is called after each item
// from several goroutines.
//
// A row whose call fails after its retries gets a verdict with Error set
// and the run goes on; the verdicts come back with a *RowsFailedError
// (ErrRowsFailed) naming how many failed. An authentication error
// (llm.ErrAuth) stops the run: no further row is started, the calls in
// flight finish, and the error is returned with no verdicts; so is a
// cancelled context's. In every case the replies received are in the
// client's cache, so a rerun resumes. A nil judge, or one without a
// client, is ErrNilJudge, and a prompt that is not a valid reference
// prompt an error, both before any call.
func JudgeReferences(ctx context.Context, j *ClientJudge, items []RefItem, workers int, progress func(done, total int)) ([]RefVerdict, error) {
	if j == nil || j.Client == nil {
		return nil, fmt.Errorf("judge references: %w", ErrNilJudge)
	}
	if err := j.Prompt.Validate(); err != nil {
		return nil, fmt.Errorf("judge references: %w", err)
	}
	if j.Prompt.Kind != KindReference {
		return nil, fmt.Errorf("judge references: prompt %s is a %s prompt, not reference", j.Prompt.ID(), j.Prompt.Kind)
	}
	if workers <= 0 {
		workers = llm.DefaultConfig.Concurrency
	}
	out := make([]RefVerdict, len(items))
	next := make(chan int)
	stop := make(chan struct{}) // closed on the first authentication error
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		done      int
		failed    int
		firstFail error
		failRow   int
		authErr   error
	)
	for w := 0; w < min(workers, len(items)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				v, err := j.Reference(ctx, items[i].Question, items[i].Golden, items[i].Response)
				mu.Lock()
				switch {
				case err == nil:
				case ctx.Err() != nil:
					mu.Unlock()
					continue
				case errors.Is(err, llm.ErrAuth):
					if authErr == nil {
						authErr = fmt.Errorf("row %d: %w", i+1, err)
						close(stop)
					}
					mu.Unlock()
					continue
				default: // the call failed after its retries, or the row's prompt did not render
					v = RefVerdict{Error: llm.Describe(err), Kind: llm.Kind(err)}
					failed++
					if firstFail == nil || i+1 < failRow {
						firstFail, failRow = err, i+1
					}
				}
				out[i] = v
				done++
				d := done
				mu.Unlock()
				if progress != nil {
					progress(d, len(items))
				}
			}
		}()
	}
feed:
	for i := range items {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		case <-stop:
			break feed
		}
	}
	close(next)
	wg.Wait()
	switch {
	case authErr != nil:
		return nil, authErr
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case failed > 0:
		return out, &RowsFailedError{Failed: failed, Total: len(items), Where: fmt.Sprintf("row %d", failRow), First: firstFail}
	}
	return out, nil
}

// A PromptComparison is one judge model calibrated with two prompt
// wordings on the same pairs. A large gap in agreement, or a low
// agreement between the two versions' own labels, means the judge reads
// the wording rather than the answers.
type PromptComparison struct {
	First  Record `json:"first"`
	Second Record `json:"second"`
	// Between is the share of pairs on which the two versions gave the
	// same label.
	Between Share `json:"between"`
	// Gap is Second.Agreement − First.Agreement.
	Gap float64 `json:"gap"`
}

// ComparePrompts calibrates a judge model (through c) with prompts p1 and
// p2 on the same pairs, asking in both orders when opt.Swap is set. A nil
// c is ErrNilJudge; other errors are those of Calibrate.
func ComparePrompts(ctx context.Context, c llm.Completer, p1, p2 Prompt, pairs []Pair, opt CalibrateOptions) (PromptComparison, error) {
	if c == nil {
		return PromptComparison{}, fmt.Errorf("compare prompts: %w", ErrNilJudge)
	}
	r1, err := Calibrate(ctx, NewClientJudge(c, p1), p1, pairs, opt)
	if err != nil {
		return PromptComparison{}, fmt.Errorf("prompt %s: %w", p1.ID(), err)
	}
	r2, err := Calibrate(ctx, NewClientJudge(c, p2), p2, pairs, opt)
	if err != nil {
		return PromptComparison{}, fmt.Errorf("prompt %s: %w", p2.ID(), err)
	}
	pc := PromptComparison{First: r1, Second: r2, Gap: r2.Agreement - r1.Agreement}
	for i := range r1.Pairs {
		pc.Between.N++
		if r1.Pairs[i].Label == r2.Pairs[i].Label {
			pc.Between.Hits++
		}
	}
	return pc, nil
}
