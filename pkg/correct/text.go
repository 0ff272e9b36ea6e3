package correct

import (
	"fmt"
	"io"
	"strconv"

	"github.com/evalbook/evalbook/pkg/results"
)

// methodNote says what each figure is, for the text and the tables.
var methodNote = map[string]string{
	MethodNaive:       "the judge's own rate on the unlabelled rows (Wilson interval); biased by its errors",
	MethodClassical:   "humans only: the human rate on the labelled rows (normal interval)",
	MethodPPI:         "prediction-powered inference: judge rate + mean(human − judge) on the labelled rows",
	MethodPPIPlus:     "PPI++: PPI with the judge's weight λ tuned to minimise the variance",
	MethodRoganGladen: "Rogan-Gladen: judge rate corrected by its sensitivity and specificity, Lee et al.'s interval",
}

// WriteText writes the estimates, the judge's figures and the warnings.
func (r *Result) WriteText(w io.Writer) error {
	if _, err := fmt.Fprintf(w, "Judge pass rate corrected with human labels: %s (labelled), %s (judged), method %s, %s%% intervals.\n",
		r.Labelled, r.Unlabelled, r.Method, strconv.FormatFloat(100*r.Confidence, 'g', -1, 64)); err != nil {
		return err
	}
	for _, m := range []string{MethodNaive, MethodClassical, r.Method} {
		if _, err := fmt.Fprintf(w, "  %-13s %s\n", m, methodNote[m]); err != nil {
			return err
		}
		if m == MethodClassical && r.Method == MethodClassical {
			break
		}
	}
	for _, t := range r.Tables() {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
		if err := t.WriteText(w); err != nil {
			return err
		}
	}
	return nil
}

// Tables returns the estimates, the judge's figures per group and the
// warnings, for XLSX and HTML.
func (r *Result) Tables() []results.Table {
	f := results.Float
	est := results.Table{Title: "Corrected pass rate",
		Note: fmt.Sprintf("%s corrected with the labels of %s by %s; naive is the judge's own rate, classical the humans' alone; %s%% intervals.",
			results.DisplayName(r.Unlabelled), results.DisplayName(r.Labelled), r.Method, strconv.FormatFloat(100*r.Confidence, 'g', -1, 64)),
		Columns: []results.Column{{Name: "group"}, {Name: "method"}, {Name: "n_labelled", Kind: results.KindNumber},
			{Name: "n_unlabelled", Kind: results.KindNumber}, {Name: "estimate", Kind: results.KindRate},
			{Name: "ci_low", Kind: results.KindRate}, {Name: "ci_high", Kind: results.KindRate}}}
	for _, e := range r.Estimates {
		est.Rows = append(est.Rows, []string{groupCell(e.Group), e.Method, strconv.Itoa(e.NLabelled), strconv.Itoa(e.NUnlabelled),
			f(e.Estimate), f(e.CILow), f(e.CIHigh)})
	}
	opt := func(x *float64) string {
		if x == nil {
			return ""
		}
		return f(*x)
	}
	judge := results.Table{Title: "Judge against the human labels",
		Note: "sensitivity: the share of human passes the judge passed; specificity: the share of human fails it failed; λ: PPI++'s weight of the judge.",
		Columns: []results.Column{{Name: "group"}, {Name: "n_labelled", Kind: results.KindNumber}, {Name: "human_pass", Kind: results.KindNumber},
			{Name: "judge_pass", Kind: results.KindNumber}, {Name: "n_unlabelled", Kind: results.KindNumber},
			{Name: "unlabelled_pass", Kind: results.KindNumber}, {Name: "sensitivity", Kind: results.KindRate},
			{Name: "specificity", Kind: results.KindRate}, {Name: "lambda", Kind: results.KindNumber}}}
	for _, g := range r.Groups {
		judge.Rows = append(judge.Rows, []string{groupCell(g.Group), strconv.Itoa(g.NLabelled), strconv.Itoa(g.HumanPass), strconv.Itoa(g.JudgePass),
			strconv.Itoa(g.NUnlabelled), strconv.Itoa(g.UnlabelledPass), opt(g.Sensitivity), opt(g.Specificity), opt(g.Lambda)})
	}
	return append([]results.Table{est, judge}, results.WarningTable(r.Warnings)...)
}

func groupCell(g string) string {
	if g == "" {
		return "(all)"
	}
	return g
}
