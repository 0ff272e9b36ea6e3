package qa

import (
	"context"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/score"
)

// language_fidelity takes the row's language from the language column
// (issue 28 item 7), else from the file name, else from the golden
// answer's script, and is reported per language like every metric.
func TestLanguageFidelityRowLanguage(t *testing.T) {
	m, err := score.ParseList("language_fidelity,language_fidelity_word")
	if err != nil {
		t.Fatal(err)
	}
	// Row 1: asked in Hindi (column), golden in Latin digits, answered in
	// English: fails, although the golden answer has no script. Row 2:
	// asked in English, answered in English. Row 3: asked in Hindi,
	// answered in Hindi with one Latin word: passes the line rule, fails
	// the word rule.
	in := "question,answer,Domain,response,language\n" +
		"q,1947,D,India became independent in the year 1947,hi\n" +
		"q,1947,D,India became independent in the year 1947,en\n" +
		"q,1947,D,भारत 1947 में independent हुआ था और वह दिन बहुत खास था,hi\n"
	opt := Options{Metrics: m, By: [][]string{{"language"}}}
	res, err := Score(context.Background(), strings.NewReader(in), "run.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]float64{}
	for _, g := range res.Groups {
		got[g.Group] = [2]float64{g.Metrics["language_fidelity"].Correct, g.Metrics["language_fidelity_word"].Correct}
	}
	if got["hi"] != [2]float64{1, 0} || got["en"] != [2]float64{1, 1} {
		t.Errorf("correct per language (line, word) = %v, want hi [1 0], en [1 1]", got)
	}
	// The file name says hindi: the English answer fails both.
	res, err = Score(context.Background(), strings.NewReader("question,answer,Domain,response\nq,1947,D,India became independent in the year 1947\n"), "kestrel_hindi.csv", opt)
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Combined.Metrics["language_fidelity"].Correct; c != 0 {
		t.Errorf("file-name hindi, English answer: %v correct", c)
	}
}
