package score

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Several references per item (issue 28 item 8). A table gives them in a
// list column: a JSON array of strings in each cell (["Delhi", "New
// Delhi"]), or text split on a separator the user names. The metrics that
// take several references implement RefsScorer (their sentence value)
// and, when corpus-level, RefsStats (their sufficient statistics):
//
//   - bleu, bleu_indic: sacreBLEU's multi-reference BLEU: each n-gram's
//     count is clipped by its largest count in any one reference, and the
//     reference length is the one closest to the response's (the shorter
//     on a tie);
//   - chrf, chrf_pp: sacreBLEU's: the statistics of the reference the
//     response scores best against (the first on a tie);
//   - ter: sacreBLEU's: the fewest edits over the references, and their
//     mean length;
//   - rouge1, rouge2, rouge_l: rouge-score's score_multi: the reference
//     with the largest F-measure.
//
// Score(golden, response) is ScoreRefs([]string{golden}, response).

// A RefsScorer scores a response against several references.
type RefsScorer interface {
	Scorer
	ScoreRefs(refs []string, response string) Verdict
}

// A RefsStats appends a corpus-level metric's statistics of a response
// against several references.
type RefsStats interface {
	CorpusStats
	AppendStatsRefs(dst []float64, refs []string, response string) []float64
}

// TakesReferences reports whether metric m scores against several
// references (its scorer is a RefsScorer and, when corpus-level, its
// statistics a RefsStats).
func TakesReferences(m *Metric) bool {
	if m.New == nil {
		return false
	}
	if _, ok := m.New().(RefsScorer); !ok {
		return false
	}
	if m.Corpus != nil {
		_, ok := m.Corpus.New().(RefsStats)
		return ok
	}
	return true
}

// ParseReferences splits a list cell into references: with sep empty, a
// JSON array of strings (["Delhi", "New Delhi"]; a cell that does not
// start with "[" is one reference, so a plain golden answer still
// works); otherwise the cell split on sep, each part trimmed of spaces.
// Empty parts are dropped; a cell with none gives no references.
func ParseReferences(cell, sep string) ([]string, error) {
	if sep != "" {
		var out []string
		for _, p := range strings.Split(cell, sep) {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out, nil
	}
	t := strings.TrimSpace(cell)
	if !strings.HasPrefix(t, "[") {
		if t == "" {
			return nil, nil
		}
		return []string{cell}, nil
	}
	var raw []any
	if err := json.Unmarshal([]byte(t), &raw); err != nil {
		return nil, fmt.Errorf("the references are not a JSON array of strings (%v); write [\"first\", \"second\"], or name a separator", err)
	}
	out := make([]string, 0, len(raw))
	for i, v := range raw {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("reference %d of the JSON array is %T, want a string", i+1, v)
		}
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out, nil
}

func (s *bleuScorer) ScoreRefs(refs []string, response string) Verdict {
	s.st = s.b.stats(s.st[:0], response, refs)
	return Verdict{Value: s.b.compute(s.st).Score}
}

// AppendStatsRefs appends BLEU's statistics against several references.
func (b *bleu) AppendStatsRefs(dst []float64, refs []string, response string) []float64 {
	return b.stats(dst, response, refs)
}

func (s *chrfScorer) ScoreRefs(refs []string, response string) Verdict {
	s.st = s.c.bestStats(s.st[:0], response, refs)
	return Verdict{Value: s.c.final(s.st)}
}

// AppendStatsRefs appends chrF's statistics against the best reference.
func (c *chrf) AppendStatsRefs(dst []float64, refs []string, response string) []float64 {
	return c.bestStats(dst, response, refs)
}

func (s *terScorer) ScoreRefs(refs []string, response string) Verdict {
	e, l := s.t.sentence(response, refs)
	return Verdict{Value: terValue(e, l)}
}

// AppendStatsRefs appends TER's [fewest edits, mean reference length].
func (t *ter) AppendStatsRefs(dst []float64, refs []string, response string) []float64 {
	e, l := t.sentence(response, refs)
	return append(dst, e, l)
}

func (s *rougeScorer) ScoreRefs(refs []string, response string) Verdict {
	best := 0.0
	for _, r := range refs {
		best = max(best, s.score(r, response).F)
	}
	return Verdict{Value: best}
}

func terValue(edits, length float64) float64 { return math.Max(0, 1-terRate(edits, length)) }
