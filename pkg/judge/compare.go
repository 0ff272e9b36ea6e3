package judge

import (
	"context"
	"fmt"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// A Winner is a pairwise judge's reply: the answer shown first, the one
// shown second, or a tie.
type Winner string

// The three pairwise verdicts of the reply contract.
const (
	First  Winner = "first"
	Second Winner = "second"
	Tie    Winner = "tie"
)

// A Query is what a pairwise judge sees: a question, the facts the
// calibration pairs list (a fake judge reads them; a model judge is not
// shown them), and two answers in the order they are shown.
type Query struct {
	Question string
	Facts    []string
	First    string
	Second   string
}

// A Judge compares two answers. Fake judges and ClientJudge implement it.
// An error means no verdict could be obtained at all (a network failure
// after retries, a cancelled context); a reply that breaks the contract is
// not an error, a ClientJudge counts it and answers Tie.
type Judge interface {
	Compare(ctx context.Context, q Query) (Winner, error)
}

// A Verdict is a judge's decision on a labelled pair, in the pair's own
// terms (a, b, tie).
type Verdict struct {
	Label Label  `json:"label"`
	AB    Winner `json:"ab"`           // reply with a shown first
	BA    Winner `json:"ba,omitempty"` // reply with b shown first (swap only)
	// Disagree is true when, asked in both orders, the judge picked
	// different answers (or a winner in one order and a tie in the
	// other); the label is then tie.
	Disagree bool `json:"disagree,omitempty"`
}

// toLabel maps a reply to the pair's terms; aFirst says a was shown first.
func toLabel(w Winner, aFirst bool) Label {
	switch {
	case w == Tie:
		return LabelTie
	case (w == First) == aFirst:
		return LabelA
	}
	return LabelB
}

// Ask asks j about p with a shown first and, when swap is true, again with
// b shown first. A swapped verdict keeps a label only when both orders
// agree on it; any disagreement becomes a tie (the swap: it turns verdicts
// that depend on the order into honest ties, and cannot turn a wrong
// verdict that survives both orders into a right one). A nil judge is
// ErrNilJudge.
func Ask(ctx context.Context, j Judge, p Pair, swap bool) (Verdict, error) {
	if nilJudge(j) {
		return Verdict{}, fmt.Errorf("pair %s: %w", p.ID, ErrNilJudge)
	}
	ab, err := j.Compare(ctx, Query{Question: p.Question, Facts: p.Facts, First: p.A, Second: p.B})
	if err != nil {
		return Verdict{}, fmt.Errorf("pair %s (a first): %w", p.ID, err)
	}
	if err := checkWinner(ab); err != nil {
		return Verdict{}, fmt.Errorf("pair %s (a first): %w", p.ID, err)
	}
	v := Verdict{Label: toLabel(ab, true), AB: ab}
	if !swap {
		return v, nil
	}
	ba, err := j.Compare(ctx, Query{Question: p.Question, Facts: p.Facts, First: p.B, Second: p.A})
	if err != nil {
		return Verdict{}, fmt.Errorf("pair %s (b first): %w", p.ID, err)
	}
	if err := checkWinner(ba); err != nil {
		return Verdict{}, fmt.Errorf("pair %s (b first): %w", p.ID, err)
	}
	v.BA = ba
	if other := toLabel(ba, false); other != v.Label {
		v.Label, v.Disagree = LabelTie, true
	}
	return v, nil
}

func checkWinner(w Winner) error {
	if w != First && w != Second && w != Tie {
		return fmt.Errorf("judge returned %s, want first, second or tie", tabular.Quote(string(w)))
	}
	return nil
}
