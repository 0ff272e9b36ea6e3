package judge

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/llm"
)

// scripted is a Completer standing in for a model: it reads the rendered
// prompt back and answers as the fake judge registered for the prompt's
// hash would, or with a fixed broken reply for some questions.
type scripted struct {
	pairs  map[string]Pair // by question
	judges map[string]Fake // by prompt hash
	broken map[string]string
}

func (s *scripted) Complete(ctx context.Context, req llm.Request) (string, error) {
	q := block(req.User, "QUESTION")
	if r, ok := s.broken[q]; ok {
		return r, nil
	}
	p, ok := s.pairs[q]
	if !ok {
		return "", fmt.Errorf("unknown question %q", q)
	}
	w, _ := s.judges[req.PromptHash].Compare(ctx, Query{Facts: p.Facts, First: block(req.User, "FIRST ANSWER"), Second: block(req.User, "SECOND ANSWER")})
	return fmt.Sprintf(`{"winner": %q, "reason": "scripted"}`, w), nil
}

func newScripted(t *testing.T, pairs []Pair) *scripted {
	s := &scripted{pairs: map[string]Pair{}, judges: map[string]Fake{}, broken: map[string]string{}}
	for _, p := range pairs {
		s.pairs[p.Question] = p
	}
	return s
}

// TestComparePrompts runs one scripted model with the two pairwise
// wordings. Under v1 it behaves like the position judge, under v2 like the
// clean one, so the comparison must show the gap: the position judge
// agrees with the final labels on 16 of 30 pairs without swap (its
// confusion puts 10 a and 6 b on the diagonal, see TestSwapMakesTies'
// counts), the clean judge on 30.
func TestComparePrompts(t *testing.T) {
	pairs := loadPairs(t)
	v1, v2 := mustPrompt(t, "pairwise@1"), mustPrompt(t, "pairwise@2")
	s := newScripted(t, pairs)
	s.judges[v1.Hash()], _ = FakeByName("position")
	s.judges[v2.Hash()], _ = FakeByName("clean")
	pc, err := ComparePrompts(context.Background(), s, v1, v2, pairs, CalibrateOptions{Judge: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	if pc.First.Agree != 16 || pc.Second.Agree != 30 || pc.Between != (Share{16, 30}) || !near(pc.Gap, 14.0/30) {
		t.Errorf("v1 %d/30, v2 %d/30, between %s, gap %v; want 16, 30, 16/30, 14/30", pc.First.Agree, pc.Second.Agree, pc.Between, pc.Gap)
	}
	if pc.First.Prompt != v1.Ref() || pc.Second.Prompt != v2.Ref() {
		t.Errorf("records name prompts %v and %v", pc.First.Prompt, pc.Second.Prompt)
	}
}

// TestClientJudgeCountsInvalid: a real judge whose replies break the
// contract on two pairs has them counted as ties, by reason, and warned
// about in the record.
func TestClientJudgeCountsInvalid(t *testing.T) {
	pairs := loadPairs(t)
	v2 := mustPrompt(t, "pairwise@2")
	s := newScripted(t, pairs)
	s.judges[v2.Hash()], _ = FakeByName("clean")
	s.broken[pairByID(t, pairs, "clear-1").Question] = "The first answer is better."
	s.broken[pairByID(t, pairs, "cite-2").Question] = `{"winner": "first", "score": 5}`
	j := NewClientJudge(s, v2)
	r, err := Calibrate(context.Background(), j, v2, pairs, CalibrateOptions{Judge: "scripted", Swap: true})
	if err != nil {
		t.Fatal(err)
	}
	// Two pairs asked in two orders: four broken replies, both pairs tie
	// where the humans said a: 28 of 30 agree.
	if r.Invalid != 4 || r.InvalidReasons[ReasonNotJSON] != 2 || r.InvalidReasons[ReasonUnknownField] != 2 || r.Agree != 28 {
		t.Errorf("invalid %d %v, agree %d", r.Invalid, r.InvalidReasons, r.Agree)
	}
	if len(r.Warnings) == 0 || !strings.Contains(strings.Join(warningMessages(r.Warnings), "\n"), "4 judge replies broke the reply contract") {
		t.Errorf("warnings %+v", r.Warnings)
	}
	if _, err := j.Reference(context.Background(), "q", "g", "r"); err == nil {
		t.Error("a pairwise prompt answered a reference request")
	}
}
