package harness

import (
	"fmt"
	"strings"
)

// caseRules holds the rules every case of a dataset obeys; ReadDataset
// and Summarize both apply them, so a dataset built in code is held to
// what a dataset file is. The zero value is ready; it remembers the ids
// seen so far.
type caseRules struct {
	first map[string]int // case id -> position of its first case
}

// check returns the field of c that breaks a rule, the position of the
// first case with the same id (for a repeated id, else 0) and the rule,
// naming the case; pos is where c is (a line, or a 1-based index) and is
// remembered for later cases. The rules, in the order they are checked:
// the id is not blank and not used before (ErrDuplicateCase); the slice is
// not blank; expected is answer or abstain; an answer case has a fact that
// is not blank (an answer recorded without a fact would otherwise match
// it); an abstain case has no fact.
func (r *caseRules) check(c Case, pos int) (field string, prev int, err error) {
	switch {
	case strings.TrimSpace(c.ID) == "":
		return "id", 0, fmt.Errorf("must be a non-empty string")
	case r.first[c.ID] > 0:
		return "id", r.first[c.ID], fmt.Errorf("%w: %q", ErrDuplicateCase, c.ID)
	case strings.TrimSpace(c.Slice) == "":
		return "slice", 0, fmt.Errorf("case %q needs a non-empty slice name", c.ID)
	case c.Expected != KindAnswer && c.Expected != KindAbstain:
		return "expected", 0, fmt.Errorf("case %q: must be %q or %q, got %q", c.ID, KindAnswer, KindAbstain, c.Expected)
	case c.Expected == KindAnswer && c.Fact == nil:
		return "fact", 0, fmt.Errorf("case %q: an answer case needs the fact a correct answer states", c.ID)
	case c.Expected == KindAnswer && strings.TrimSpace(*c.Fact) == "":
		return "fact", 0, fmt.Errorf("case %q: an answer case needs a non-empty fact (an answer recorded without a fact would match it)", c.ID)
	case c.Expected == KindAbstain && c.Fact != nil:
		return "fact", 0, fmt.Errorf("case %q expects abstain, so its fact must be null, got %q", c.ID, *c.Fact)
	}
	if r.first == nil {
		r.first = map[string]int{}
	}
	r.first[c.ID] = pos
	return "", 0, nil
}
