package score

import (
	"math"
	"slices"
	"testing"
)

// The row path with several references sums to sacreBLEU's corpus
// figures on its README example (two reference streams; "BLEU = 48.53",
// "chrF2 = 59.73", sacreBLEU README, section "Using multiple
// references"), and TER's row statistics to CorpusTER.
func TestSeveralReferencesSacreBLEUReadme(t *testing.T) {
	refs := [][]string{
		{"The dog bit the man.", "The dog had bit the man."},
		{"It was not unexpected.", "No one was surprised."},
		{"The man bit him first.", "The man had bitten the dog."},
	}
	hyps := []string{"The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."}
	corpus := func(id string) float64 {
		m, err := Lookup(id)
		if err != nil || !TakesReferences(m) {
			t.Fatalf("%s: %v, takes references %v", id, err, err == nil && TakesReferences(m))
		}
		cs := m.Corpus.New().(RefsStats)
		sums := make([]float64, m.Corpus.NStats)
		for i, h := range hyps {
			st := cs.AppendStatsRefs(nil, refs[i], h)
			for j, v := range st {
				sums[j] += v
			}
		}
		return m.Corpus.Final(sums)
	}
	if got := corpus("bleu"); math.Abs(got-0.48530827) > 1e-8 {
		t.Errorf("bleu = %.8f, sacreBLEU 48.530827", got)
	}
	if got := corpus("chrf"); math.Abs(got-0.5973) > 0.00005 {
		t.Errorf("chrf = %.6f, sacreBLEU 59.73", got)
	}
	streams := [][]string{{refs[0][0], refs[1][0], refs[2][0]}, {refs[0][1], refs[1][1], refs[2][1]}}
	if got, want := corpus("ter"), 1-CorpusTER(hyps, streams, TEROptions{}).Score; math.Abs(got-want) > 1e-12 {
		t.Errorf("ter row path %v, 1 - CorpusTER %v", got, want)
	}
}

// rouge_l with two references is the larger F (rouge-score's
// score_multi). By hand, for "The man had just bitten him." (6 words):
// against "The man bit him first." the LCS is the man … him = 3, P = 3/6,
// R = 3/5, F = 0.5455; against "The man had bitten the dog." the LCS is
// the man had bitten = 4, P = R = 4/6, F = 2/3.
func TestRougeLSeveralReferences(t *testing.T) {
	m, _ := Lookup("rouge_l")
	s := m.New().(RefsScorer)
	got := s.ScoreRefs([]string{"The man bit him first.", "The man had bitten the dog."}, "The man had just bitten him.").Value
	if math.Abs(got-2.0/3) > 1e-12 {
		t.Errorf("rouge_l = %v, want 2/3", got)
	}
	if one := s.ScoreRefs([]string{"The man bit him first."}, "The man had just bitten him.").Value; math.Abs(one-6.0/11) > 1e-12 {
		t.Errorf("one reference: %v, want 6/11", one)
	}
}

func TestParseReferences(t *testing.T) {
	for _, c := range []struct {
		cell, sep string
		want      []string
		bad       bool
	}{
		{`["Delhi", "New Delhi"]`, "", []string{"Delhi", "New Delhi"}, false},
		{`Delhi`, "", []string{"Delhi"}, false},
		{`  [ "a" , " " ]`, "", []string{"a"}, false},
		{`["a", 3]`, "", nil, true},
		{`[unclosed`, "", nil, true},
		{`Delhi || New Delhi ||`, "||", []string{"Delhi", "New Delhi"}, false},
		{``, "", nil, false},
	} {
		got, err := ParseReferences(c.cell, c.sep)
		if (err != nil) != c.bad || !slices.Equal(got, c.want) {
			t.Errorf("ParseReferences(%q, %q) = %q, %v", c.cell, c.sep, got, err)
		}
	}
	for _, id := range []string{"bleu", "bleu_indic", "chrf", "chrf_pp", "ter", "rouge1", "rouge2", "rouge_l"} {
		if m, _ := Lookup(id); !TakesReferences(m) {
			t.Errorf("%s does not take several references", id)
		}
	}
	if m, _ := Lookup("exact_match"); TakesReferences(m) {
		t.Error("exact_match takes several references")
	}
}
