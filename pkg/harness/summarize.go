// Package harness scores answer-or-abstain outcomes (seed 004) and holds a
// tiny deterministic system under test for teaching: a help-centre corpus,
// a lexical retriever with paragraph or sentence chunks, a guard with a
// minimum score and a minimum margin, and a worst-case model that copies
// the top evidence with its source id and never abstains by itself.
package harness

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Outcome kinds and case expectations.
const (
	KindAnswer  = "answer"
	KindAbstain = "abstain"
	KindError   = "error"
)

// Case is one case of an answer-or-abstain dataset. Fact is the fact key a
// correct answer states; nil for an abstain case.
type Case struct {
	ID       string  `json:"id"`
	Slice    string  `json:"slice"`
	Expected string  `json:"expected"` // "answer" or "abstain"
	Fact     *string `json:"fact"`
}

// Outcome is what the system recorded for one case: an answer with the fact
// it states, an abstention, or an error.
type Outcome struct {
	Kind string `json:"kind"`
	Fact string `json:"fact,omitempty"`
}

// SliceCount is the total and passing cases of one slice.
type SliceCount struct {
	Total   int `json:"total"`
	Success int `json:"success"`
}

// Report is the summary of one run, with the keys of seed 004 in snake_case.
// Rates whose denominator is 0 are nil (JSON null), never 0 or NaN.
type Report struct {
	Total            int                   `json:"total"`
	Success          int                   `json:"success"`
	Answered         int                   `json:"answered"`
	CorrectAnswers   int                   `json:"correct_answers"`
	Errors           int                   `json:"errors"`
	Missing          int                   `json:"missing"`
	TaskSuccess      *float64              `json:"task_success"`      // success / total
	AnswerCoverage   *float64              `json:"answer_coverage"`   // answered / total
	AnsweredAccuracy *float64              `json:"answered_accuracy"` // correct_answers / answered
	Slices           map[string]SliceCount `json:"slices"`
}

// Sentinel errors, wrapped by Summarize's errors; their messages contain
// the phrases seed 004 requires.
var (
	//lint:ignore ST1005 seed 004 prints these phrases capitalised, and its figures are tests
	ErrDuplicateCase = errors.New("Duplicate case ID")
	//lint:ignore ST1005 as above
	ErrUnknownResult = errors.New("Unknown result ID")
)

// Passes reports whether outcome o, or a missing outcome when o is nil,
// passes case c: an abstain case passes on an abstention; an answer case on
// an answer whose fact equals the case's fact. A missing outcome never
// passes, and neither does anything for an answer case whose fact is
// missing or blank (a case Summarize refuses), so an answer stating no
// fact cannot pass.
func Passes(c Case, o *Outcome) bool {
	if o == nil {
		return false
	}
	switch c.Expected {
	case KindAbstain:
		return o.Kind == KindAbstain
	case KindAnswer:
		return o.Kind == KindAnswer && c.Fact != nil && strings.TrimSpace(*c.Fact) != "" && o.Fact == *c.Fact
	}
	return false
}

// Summarize scores results against dataset (seed 004). Before scoring it
// checks, in this order, naming the case and its index in dataset:
//
//   - every case obeys the rules ReadDataset enforces: a non-blank id used
//     by no earlier case (else an error wrapping ErrDuplicateCase, whose
//     text contains "Duplicate case ID"), a non-blank slice, expected
//     "answer" or "abstain", a non-blank fact for an answer case and no
//     fact (nil) for an abstain case;
//   - every result id is a case id (else an error wrapping
//     ErrUnknownResult, "Unknown result ID", naming the first such id in
//     sorted order);
//   - every outcome kind is answer, abstain or error.
//
// Then, with n the number of cases:
//
//	task_success      = success / n
//	answer_coverage   = answered / n
//	answered_accuracy = correct_answers / answered
//
// A case without a result is missing: it stays in n, never passes, and is
// neither an abstention nor an error. Every slice with a case appears in
// Slices, even with no success. An empty dataset (with no results) is not
// an error: seed 004 makes every rate whose denominator is 0 null, so it
// gives Total 0, every rate nil and no slice.
func Summarize(dataset []Case, results map[string]Outcome) (*Report, error) {
	ids := make(map[string]bool, len(dataset))
	rules := caseRules{}
	for i, c := range dataset {
		if field, prev, err := rules.check(c, i+1); err != nil {
			if prev > 0 {
				return nil, fmt.Errorf("dataset[%d]: %s: %w (first at dataset[%d])", i, field, err, prev-1)
			}
			return nil, fmt.Errorf("dataset[%d]: %s: %w", i, field, err)
		}
		ids[c.ID] = true
	}
	var unknown []string
	for id := range results {
		if !ids[id] {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		more := ""
		if len(unknown) > 1 {
			more = fmt.Sprintf(" (and %d more)", len(unknown)-1)
		}
		return nil, fmt.Errorf("%w: %q%s", ErrUnknownResult, unknown[0], more)
	}
	keys := make([]string, 0, len(results))
	for id := range results {
		keys = append(keys, id)
	}
	sort.Strings(keys)
	for _, id := range keys {
		switch k := results[id].Kind; k {
		case KindAnswer, KindAbstain, KindError:
		default:
			return nil, fmt.Errorf("result %q: kind must be answer, abstain or error, got %q", id, k)
		}
	}

	r := &Report{Total: len(dataset), Slices: map[string]SliceCount{}}
	for _, c := range dataset {
		sc := r.Slices[c.Slice]
		sc.Total++
		o, ok := results[c.ID]
		var op *Outcome
		if ok {
			op = &o
		}
		pass := Passes(c, op)
		switch {
		case !ok:
			r.Missing++
		case o.Kind == KindAnswer:
			r.Answered++
			if pass {
				r.CorrectAnswers++
			}
		case o.Kind == KindError:
			r.Errors++
		}
		if pass {
			r.Success++
			sc.Success++
		}
		r.Slices[c.Slice] = sc
	}
	r.TaskSuccess = rate(r.Success, r.Total)
	r.AnswerCoverage = rate(r.Answered, r.Total)
	r.AnsweredAccuracy = rate(r.CorrectAnswers, r.Answered)
	return r, nil
}

func rate(num, den int) *float64 {
	if den == 0 {
		return nil
	}
	v := float64(num) / float64(den)
	return &v
}
