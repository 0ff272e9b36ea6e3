package jury

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
)

// WriteText writes the verdict: the method and fit, the class marginals,
// the raters with their confusion matrices, the items, and the warnings.
func (r *Result) WriteText(w io.Writer) error {
	var s strings.Builder
	fmt.Fprintf(&s, "Jury (%s): %s, %d items, %d raters, %d labels (%d empty or error, left out)\n", r.Method, r.Source, len(r.Items), len(r.Raters), r.Labels, r.Errored)
	if r.Method == MethodDawidSkene {
		fmt.Fprintf(&s, "Dawid-Skene (1979) by EM from eq. 3.1: log-likelihood %.4f after %d iterations (converged: %t)\n", r.LogLik, r.Iterations, r.Converged)
	} else {
		s.WriteString("Majority vote: each rater one vote per item, split among its labels of the item; ties get no label.\n")
	}
	marg := make([]string, len(r.Classes))
	for j, c := range r.Classes {
		marg[j] = fmt.Sprintf("%s %.4f", c, r.Marginals[j])
	}
	fmt.Fprintf(&s, "class marginals: %s; %d items tied\n\n", strings.Join(marg, ", "), len(r.Ties))
	for _, t := range r.Tables() {
		if err := t.WriteText(&s); err != nil {
			return err
		}
		s.WriteString("\n")
	}
	_, err := io.WriteString(w, s.String())
	return err
}

// Tables returns the class marginals, the raters, their confusion
// matrices, the items and the warnings.
func (r *Result) Tables() []results.Table {
	f := results.Float
	marg := results.Table{Title: "Class marginals", Columns: []results.Column{{Name: "class"}, {Name: "probability", Kind: results.KindRate}}}
	if r.Method == MethodMajority {
		marg.Note = "The share of the untied items each label wins."
	} else {
		marg.Note = "Dawid-Skene's estimated class probabilities p_j."
	}
	for j, c := range r.Classes {
		marg.Rows = append(marg.Rows, []string{c, f(r.Marginals[j])})
	}
	raters := results.Table{Title: "Raters", Note: "accuracy: the share of a rater's labels that match the item's class (expected under Dawid-Skene; against the majority's untied items under majority).",
		Columns: []results.Column{{Name: "rater"}, {Name: "items", Kind: results.KindNumber}, {Name: "labels", Kind: results.KindNumber},
			{Name: "errored", Kind: results.KindNumber}, {Name: "accuracy", Kind: results.KindRate}}}
	conf := results.Table{Title: "Confusion matrices", Note: "Each row: the probability that the rater labels an item of the true class as each class.",
		Columns: []results.Column{{Name: "rater"}, {Name: "true class"}}}
	for _, c := range r.Classes {
		conf.Columns = append(conf.Columns, results.Column{Name: "labelled " + c, Kind: results.KindRate})
	}
	for _, x := range r.Raters {
		acc := ""
		if x.Accuracy != nil {
			acc = f(*x.Accuracy)
		}
		raters.Rows = append(raters.Rows, []string{x.Rater, strconv.Itoa(x.Items), strconv.Itoa(x.Labels), strconv.Itoa(x.Errored), acc})
		for j, c := range r.Classes {
			row := []string{x.Rater, c}
			for _, p := range x.Confusion[j] {
				row = append(row, f(p))
			}
			conf.Rows = append(conf.Rows, row)
		}
	}
	items := results.Table{Title: "Items", Columns: []results.Column{{Name: "item"}, {Name: "label"}, {Name: "tie"},
		{Name: "raters", Kind: results.KindNumber}, {Name: "labels", Kind: results.KindNumber}, {Name: "errored", Kind: results.KindNumber}}}
	if r.Method == MethodMajority {
		items.Note = "p(class): the share of the votes."
	} else {
		items.Note = "p(class): the posterior probability of the class."
	}
	for _, c := range r.Classes {
		items.Columns = append(items.Columns, results.Column{Name: "p(" + c + ")", Kind: results.KindRate})
	}
	for _, it := range r.Items {
		tie := ""
		if it.Tie {
			tie = "tie"
		}
		row := []string{it.Item, it.Label, tie, strconv.Itoa(it.Raters), strconv.Itoa(it.Labels), strconv.Itoa(it.Errored)}
		for _, p := range it.Posterior {
			row = append(row, f(p))
		}
		items.Rows = append(items.Rows, row)
	}
	return append([]results.Table{marg, raters, conf, items}, results.WarningTable(r.Warnings)...)
}
