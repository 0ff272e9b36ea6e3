package agree

import (
	"io"
	"slices"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// MaxTextCell is the most characters of an item's cell AttachText keeps
// (a report shows the question and the answers, not a whole document).
const MaxTextCell = 2000

// AttachText reads the label table again from r (named name) and gives
// each of rep's disagreements the item's other cells (every column but
// the raters' and idColumn, at most MaxTextCell characters each), so
// that a report shows what the raters disagreed about, not only its id.
// It finds the items by the line their record starts on. The analysis
// keeps only the ratings (a million items would otherwise hold their
// text twice); this reads the file once more, for the report.
func AttachText(r io.Reader, name string, rep *results.RaterAgreement, idColumn string) error {
	if len(rep.Disagreements) == 0 {
		return nil
	}
	rd, err := tabular.Open(r, name, "csv")
	if err != nil {
		return err
	}
	var cols []int
	for i, h := range rd.Header() {
		if h == idColumn || slices.Contains(rep.Raters, h) {
			continue
		}
		cols = append(cols, i)
		rep.TextColumns = append(rep.TextColumns, h)
	}
	if len(cols) == 0 {
		return nil
	}
	byLine := make(map[int]int, len(rep.Disagreements))
	for i, d := range rep.Disagreements {
		byLine[d.Line] = i
	}
	for rd.Scan() {
		rec := rd.Record()
		i, ok := byLine[rec.Line]
		if !ok {
			continue
		}
		text := make([]string, len(cols))
		for k, c := range cols {
			if c < len(rec.Fields) {
				text[k] = clipText(rec.Fields[c], MaxTextCell)
			}
		}
		rep.Disagreements[i].Text = text
	}
	return rd.Err()
}

// clipText shortens s to n characters with an ellipsis.
func clipText(s string, n int) string {
	k := 0
	for i := range s {
		if k == n-1 {
			return s[:i] + "…"
		}
		k++
	}
	return s
}
