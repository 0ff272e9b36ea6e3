package score

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// Every metric of every kind states its rule and how it errs, and has
// the function its kind needs.
func TestEveryMetricDocumented(t *testing.T) {
	for _, m := range All() {
		if m.Name == "" || m.Rule == "" || m.FalsePositives == "" || m.FalseNegatives == "" || m.Blank == "" || m.Source == "" {
			t.Errorf("%s: a definition field is empty: %+v", m.ID, m)
		}
		switch m.Kind {
		case KindRow:
			if m.New == nil || m.Choice != nil {
				t.Errorf("%s: a row metric needs New and no Choice", m.ID)
			}
		case KindChoice:
			if m.Choice == nil || m.New != nil {
				t.Errorf("%s: a choice metric needs Choice and no New", m.ID)
			}
		case KindSamples:
			if m.New != nil || m.Choice != nil {
				t.Errorf("%s: a samples metric has no per-row or per-option function", m.ID)
			}
		}
	}
}

// Find resolves aliases and the @N forms of the @k families; Lookup and
// ParseList (evalbook score's metrics) refuse the multiple-choice and
// samples metrics with an error that says who reports them.
func TestFindAndLookup(t *testing.T) {
	for id, want := range map[string]string{
		"acc_norm_char": AccNorm, "acc_norm": AccNorm, "recall@2": RecallAtK, "recall@10": RecallAtK,
		"pass@5": PassAtK, "maj@k": MajAtK, "exact_match": ExactMatch, "loose_exact_match": LooseExactMatch,
	} {
		m, err := Find(id)
		if err != nil || m.ID != want {
			t.Errorf("Find(%q) = %v, %v; want %s", id, m, err, want)
		}
	}
	for _, id := range []string{"recall@0", "recall@02", "recall@", "recall@x", "exact_match@2", "accuracy"} {
		if _, err := Find(id); !errors.Is(err, ErrUnknownMetric) {
			t.Errorf("Find(%q): %v, want ErrUnknownMetric", id, err)
		}
	}
	for _, id := range []string{"acc", "acc_norm_char", "recall@2", "pass@3"} {
		_, err := Lookup(id)
		if !errors.Is(err, ErrUnknownMetric) || !strings.Contains(err.Error(), "evalbook mc and task run") {
			t.Errorf("Lookup(%q): %v, want a row-metric refusal naming mc and task run", id, err)
		}
		if _, err := ParseList("exact_match," + id); err == nil {
			t.Errorf("ParseList took %q", id)
		}
	}
	row, all := IDs(), AllIDs()
	for _, id := range []string{Acc, AccNorm, AccNormToken, MRR, RecallAtK, PassAtK, MajAtK} {
		if slices.Contains(row, id) || !slices.Contains(all, id) {
			t.Errorf("%s: in IDs %v, in AllIDs %v; want only AllIDs", id, slices.Contains(row, id), slices.Contains(all, id))
		}
	}
	if !slices.Contains(row, LooseExactMatch) || len(all) != len(All()) {
		t.Errorf("IDs %v lacks loose_exact_match, or AllIDs and All disagree", row)
	}
}

// Rank, Pick and the choice metrics' values, worked out by hand.
func TestChoiceRule(t *testing.T) {
	// Log-likelihoods -1, -1, -2: options 0 and 1 tie. Ranks: option 0
	// is 1 (nothing above, nothing equal before), option 1 is 2 (the tie
	// with option 0, listed first), option 2 is 3. Pick is option 0.
	tie := []Option{{LogLik: -1, Chars: 1}, {LogLik: -1, Chars: 1}, {LogLik: -2, Chars: 1}}
	for gold, want := range []int{1, 2, 3} {
		if got := Rank(tie, gold, ByLogLik); got != want {
			t.Errorf("tie: rank of %d = %d, want %d", gold, got, want)
		}
	}
	if p := Pick(tie, ByLogLik); p != 0 {
		t.Errorf("tie: pick %d, want 0 (the first of the tied)", p)
	}
	if r := Rank(tie, 3, ByLogLik); r != 4 {
		t.Errorf("gold outside the options: rank %d, want 4", r)
	}
	// acc against acc_norm: "x" at -2 and "yyyy" at -6. acc picks x
	// (-2 > -6); per character -2/1 = -2 < -6/4 = -1.5, so acc_norm picks
	// yyyy. An empty option (Chars 0) counts as 1 character: -0.5/1 beats
	// -6/4.
	opts := []Option{{LogLik: -2, Chars: 1, Tokens: 1}, {LogLik: -6, Chars: 4, Tokens: 2}}
	acc, _ := Find(Acc)
	norm, _ := Find(AccNormChar)
	tok, _ := Find(AccNormToken)
	mrr, _ := Find(MRR)
	rec, _ := Find("recall@2")
	for _, c := range []struct {
		m          *Metric
		gold, k    int
		want       float64
		whyInWords string
	}{
		{acc, 0, 0, 1, "x has the larger log-likelihood"},
		{acc, 1, 0, 0, "yyyy is second"},
		{norm, 1, 0, 1, "-1.5 per character beats -2"},
		{tok, 1, 0, 0, "-6/2 = -3 per token loses to -2/1"},
		{mrr, 1, 0, 0.5, "yyyy ranks 2nd by log-likelihood"},
		{rec, 1, 1, 0, "rank 2 > k 1"},
		{rec, 1, 2, 1, "rank 2 <= k 2"},
	} {
		if got := c.m.ChoiceValue(opts, c.gold, c.k); got != c.want {
			t.Errorf("%s gold %d k %d = %g, want %g (%s)", c.m.ID, c.gold, c.k, got, c.want, c.whyInWords)
		}
	}
	empty := []Option{{LogLik: -0.5, Chars: 0}, {LogLik: -6, Chars: 4}}
	if got := norm.ChoiceValue(empty, 0, 0); got != 1 {
		t.Errorf("empty option: acc_norm %g, want 1 (-0.5/1 > -1.5)", got)
	}
}

// exact_match and loose_exact_match on rows worked out by hand, and each
// metric's Canon agreeing with its Score.
func TestExactMatchRules(t *testing.T) {
	exact, _ := Lookup(ExactMatch)
	loose, _ := Lookup(LooseExactMatch)
	rows := []struct {
		golden, response string
		exact, loose     float64
	}{
		{"Delhi", "Delhi", 1, 1},
		{"Delhi", "  delhi. ", 0, 1},      // case, ends trimmed, final full stop dropped
		{"दिल्ली", "दिल्ली।", 0, 1},       // final danda dropped
		{"U.S.", "U.S", 0, 1},             // every final full stop goes, even one that belongs
		{"New  Delhi", "new delhi", 0, 1}, // inner spaces collapsed
		{"Delhi", "Delhi,", 0, 0},         // a comma is not dropped
		{"the Ganga", "Ganga", 0, 0},      // no article removal
		{"a . .", "a .", 0, 0},            // only final stops go: "a . ." becomes "a . " (space kept)
		{"", "", 1, 1},
		{"", "...", 0, 1}, // empty after normalising on both sides
		{"Delhi", "", 0, 0},
	}
	for _, r := range rows {
		if v := exact.New().Score(r.golden, r.response).Value; v != r.exact {
			t.Errorf("exact_match(%q, %q) = %g, want %g", r.golden, r.response, v, r.exact)
		}
		if v := loose.New().Score(r.golden, r.response).Value; v != r.loose {
			t.Errorf("loose_exact_match(%q, %q) = %g, want %g", r.golden, r.response, v, r.loose)
		}
		for _, m := range []*Metric{exact, loose} {
			same := m.Canon(r.golden) == m.Canon(r.response)
			if same != (m.New().Score(r.golden, r.response).Value == 1) {
				t.Errorf("%s: Canon and Score disagree on (%q, %q)", m.ID, r.golden, r.response)
			}
		}
	}
}
