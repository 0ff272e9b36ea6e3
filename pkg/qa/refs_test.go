package qa

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/score"
)

// Several references per item from a list column (issue 28 item 8): on
// sacreBLEU's README example with two reference streams, corpus bleu is
// 48.53 (sacreBLEU's test_bleu.py: 48.530827) and chrf 59.73 (README,
// "Using multiple references"); exact_match keeps the answer column; a
// cell that is not a JSON array is warned about and scored against the
// answer.
func TestReferencesColumn(t *testing.T) {
	in := "question,answer,Domain,response,refs\n" +
		`q,The dog bit the man.,D,The dog bit the man.,"[""The dog bit the man."", ""The dog had bit the man.""]"` + "\n" +
		`q,It was not unexpected.,D,It wasn't surprising.,"[""It was not unexpected."", ""No one was surprised.""]"` + "\n" +
		`q,The man bit him first.,D,The man had just bitten him.,"[""The man bit him first."", ""The man had bitten the dog.""]"` + "\n"
	ms, err := score.ParseList("bleu,chrf,exact_match,rouge_l")
	if err != nil {
		t.Fatal(err)
	}
	cols := DefaultColumns
	cols.References = "refs"
	res, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{Metrics: ms, Columns: cols})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Combined.Metrics
	if math.Abs(c["bleu"].Accuracy-0.48530827) > 1e-8 || math.Abs(c["chrf"].Accuracy-0.5973) > 0.00005 || c["exact_match"].Correct != 1 {
		t.Errorf("bleu %v (sacreBLEU 48.530827), chrf %v (59.73), exact_match %v correct (1)", c["bleu"].Accuracy, c["chrf"].Accuracy, c["exact_match"].Correct)
	}
	// rouge_l: the best reference per row; rows 1 and 3 by hand (1, and 2/3
	// as in score's TestRougeLSeveralReferences), row 2 the larger of its
	// two one-reference values.
	rl, _ := score.Lookup("rouge_l")
	s := rl.New()
	r2 := max(s.Score("It was not unexpected.", "It wasn't surprising.").Value, s.Score("No one was surprised.", "It wasn't surprising.").Value)
	if want := (1 + r2 + 2.0/3) / 3; math.Abs(c["rouge_l"].Accuracy-want) > 1e-12 {
		t.Errorf("rouge_l %v, want %v", c["rouge_l"].Accuracy, want)
	}
	// Without the column, the answer alone: a different bleu.
	res1, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{Metrics: ms})
	if err != nil {
		t.Fatal(err)
	}
	if res1.Combined.Metrics["bleu"].Accuracy >= c["bleu"].Accuracy {
		t.Errorf("one reference %v, two %v", res1.Combined.Metrics["bleu"].Accuracy, c["bleu"].Accuracy)
	}
	// A separator: "New Delhi" is one of the references, so chrf is 1.
	sep := "question,answer,Domain,response,refs\nq,Delhi,D,New Delhi,Delhi || New Delhi\n"
	res2, err := Score(context.Background(), strings.NewReader(sep), "t.csv", Options{Metrics: ms, Columns: cols, RefSeparator: "||"})
	if err != nil {
		t.Fatal(err)
	}
	if v := res2.Combined.Metrics["chrf"].Accuracy; v != 1 {
		t.Errorf("separator: chrf %v, want 1", v)
	}
	// A cell that is not a JSON array: warned about, scored against the answer.
	bad := "question,answer,Domain,response,refs\nq,Delhi,D,Delhi,[oops\n"
	res3, err := Score(context.Background(), strings.NewReader(bad), "t.csv", Options{Metrics: ms, Columns: cols})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range res3.Warnings {
		if w.Code == CodeBadReferences && w.Count == 1 && len(w.Lines) == 1 && w.Lines[0] == 2 {
			found = true
		}
	}
	if !found || res3.Combined.Metrics["chrf"].Accuracy != 1 {
		t.Errorf("warnings %+v, chrf %v: want bad_references on line 2 and the answer used", res3.Warnings, res3.Combined.Metrics["chrf"].Accuracy)
	}
	// A missing references column is an error naming it.
	cols.References = "nope"
	if _, err := Score(context.Background(), strings.NewReader(in), "t.csv", Options{Metrics: ms, Columns: cols}); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("missing column: %v", err)
	}
}
