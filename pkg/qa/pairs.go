package qa

import (
	"strconv"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

// A Pair is one golden answer and one response, with an optional note
// saying what the pair illustrates.
type Pair struct {
	Golden, Response, Note string
}

// PairTable scores each pair under each metric (after the profile) and
// returns a table with columns golden, response, one per metric (the
// verdict, or the graded value), matching_words and total_golden_words
// when word_overlap is among the metrics, and the note. It is meant for
// small illustrative sets, such as the seed tables in the notebooks.
func PairTable(title string, pairs []Pair, metrics []*score.Metric, prof textnorm.Profile) results.Table {
	t := results.Table{Title: title, Columns: []results.Column{{Name: "golden"}, {Name: "response"}}}
	overlap := -1
	for i, m := range metrics {
		t.Columns = append(t.Columns, results.Column{Name: m.ID, Kind: results.KindNumber})
		if m.ID == "word_overlap" {
			overlap = i
		}
	}
	if overlap >= 0 {
		t.Columns = append(t.Columns, results.Column{Name: "words", Kind: results.KindText})
	}
	t.Columns = append(t.Columns, results.Column{Name: "note"})
	scorers := make([]score.Scorer, len(metrics))
	for i, m := range metrics {
		scorers[i] = m.New()
	}
	for _, p := range pairs {
		g, r := prof.Apply(p.Golden), prof.Apply(p.Response)
		row := []string{strconv.Quote(p.Golden), strconv.Quote(p.Response)}
		var words string
		for i, s := range scorers {
			v := s.Score(g, r)
			row = append(row, results.Float(v.Value))
			if i == overlap {
				words = strconv.Itoa(v.Matching) + "/" + strconv.Itoa(v.Total)
			}
		}
		if overlap >= 0 {
			row = append(row, words)
		}
		t.Rows = append(t.Rows, append(row, p.Note))
	}
	return t
}
