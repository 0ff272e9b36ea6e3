package judge

import (
	"strconv"

	"github.com/evalbook/evalbook/pkg/jury"
)

// The labels a model judge gives in a jury's label file (JuryLabels).
const (
	LabelCorrect   = "correct"
	LabelIncorrect = "incorrect"
)

// JuryLabels appends to ls one label per judged row of t by rater (the
// judge's model), for jury.Analyze: correct or incorrect; an empty,
// errored label where the call failed or the reply broke the verdict
// contract (left out of the item, never counted as wrong). A blank
// response is incorrect, as in the judge's own figures; a row whose
// response was never generated (GenError) gives no label. The item is the
// row's id, or "line N" without one; each label's Line is its line in the
// label file jury.Labels.WriteCSV writes (after the header).
func (t *Responses) JuryLabels(ls *jury.Labels, rater string) {
	for _, row := range t.Rows {
		item := row.ID
		if item == "" {
			item = "line " + strconv.Itoa(row.Line)
		}
		v, label := row.Verdict, LabelIncorrect
		switch {
		case row.GenError != "":
			continue
		case v.Failed() || !v.Valid:
			label = ""
		case v.Correct:
			label = LabelCorrect
		}
		ls.Labels = append(ls.Labels, jury.Label{Item: item, Rater: rater, Label: label, Errored: label == "", Line: len(ls.Labels) + 2})
	}
}
