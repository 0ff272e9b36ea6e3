package judge

import (
	"context"
	"encoding/json"
	"fmt"
)

// A Share is Hits out of N. Its value is Hits/N, undefined (and null in
// JSON) when N is 0.
type Share struct {
	Hits int `json:"hits"`
	N    int `json:"n"`
}

// Value returns Hits/N and true, or 0 and false when N is 0.
func (s Share) Value() (float64, bool) {
	if s.N == 0 {
		return 0, false
	}
	return float64(s.Hits) / float64(s.N), true
}

// String formats the share as "hits/n".
func (s Share) String() string { return fmt.Sprintf("%d/%d", s.Hits, s.N) }

// MarshalJSON writes {"hits": h, "n": n, "value": h/n}, with a null value
// when n is 0.
func (s Share) MarshalJSON() ([]byte, error) {
	var v *float64
	if x, ok := s.Value(); ok {
		v = &x
	}
	return json.Marshal(struct {
		Hits  int      `json:"hits"`
		N     int      `json:"n"`
		Value *float64 `json:"value"`
	}{s.Hits, s.N, v})
}

// UnmarshalJSON reads what MarshalJSON writes; the value is recomputed
// from hits and n.
func (s *Share) UnmarshalJSON(b []byte) error {
	var v struct {
		Hits  int      `json:"hits"`
		N     int      `json:"n"`
		Value *float64 `json:"value"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	s.Hits, s.N = v.Hits, v.N
	return nil
}

// Probes is the bias fingerprint of a judge over labelled pairs, each
// asked in both orders:
//
//	first_pick   decisive single-order verdicts that pick the answer shown
//	             first, over all decisive single-order verdicts (0.5 for a
//	             judge without position bias)
//	order_flip   pairs whose verdict, in a/b terms, changes with the order
//	longer_wins  verbose_tie pairs where the longer answer wins (a first)
//	self_wins    self pairs where the answer in the judge's own style
//	             wins (a first)
//
// Each bias leaves its own mark: position raises first_pick and
// order_flip, verbosity raises longer_wins, self-preference raises
// self_wins; the human labels of these slices are ties and the cited
// answer, so a fair judge scores 0 on the last two.
type Probes struct {
	FirstPick  Share `json:"first_pick"`
	OrderFlip  Share `json:"order_flip"`
	LongerWins Share `json:"longer_wins"`
	SelfWins   Share `json:"self_wins"`
}

// RunProbes asks j about every pair in both orders and returns its bias
// fingerprint (see Probes). A nil judge is ErrNilJudge.
func RunProbes(ctx context.Context, j Judge, pairs []Pair) (Probes, error) {
	if nilJudge(j) {
		return Probes{}, fmt.Errorf("probes: %w", ErrNilJudge)
	}
	var pr Probes
	for _, p := range pairs {
		v, err := Ask(ctx, j, p, true)
		if err != nil {
			return Probes{}, err
		}
		for _, w := range []Winner{v.AB, v.BA} {
			if w != Tie {
				pr.FirstPick.N++
				if w == First {
					pr.FirstPick.Hits++
				}
			}
		}
		pr.OrderFlip.N++
		if v.Disagree {
			pr.OrderFlip.Hits++
		}
		ab := toLabel(v.AB, true)
		switch p.Kind {
		case "verbose_tie":
			if longer, ok := longerOf(p); ok {
				pr.LongerWins.N++
				if ab == longer {
					pr.LongerWins.Hits++
				}
			}
		case "self":
			if own, ok := ownStyleOf(p); ok {
				pr.SelfWins.N++
				if ab == own {
					pr.SelfWins.Hits++
				}
			}
		}
	}
	return pr, nil
}

// longerOf returns the label of the answer with more words, false when
// both have the same number.
func longerOf(p Pair) (Label, bool) {
	wa, wb := Words(p.A), Words(p.B)
	switch {
	case wa > wb:
		return LabelA, true
	case wb > wa:
		return LabelB, true
	}
	return LabelTie, false
}

// ownStyleOf returns the label of the only answer in the judge's own
// style, false when neither or both are.
func ownStyleOf(p Pair) (Label, bool) {
	oa, ob := ownStyle(p.A), ownStyle(p.B)
	switch {
	case oa && !ob:
		return LabelA, true
	case ob && !oa:
		return LabelB, true
	}
	return LabelTie, false
}
