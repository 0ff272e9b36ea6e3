package jury

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// Methods of aggregation.
const (
	MethodMajority   = "majority"
	MethodDawidSkene = "dawid-skene"
)

// Methods lists the accepted Options.Method values.
var Methods = []string{MethodMajority, MethodDawidSkene}

// Warning codes of Analyze.
const (
	// CodeTies: some items have no single winning label (votes tied, or
	// posterior probabilities equal); they get no label (fail closed).
	CodeTies = "jury_ties"
	// CodeErroredLabels: some labels were empty or "error"; they are left
	// out of their items.
	CodeErroredLabels = "errored_labels"
	// CodeNotConverged: Dawid-Skene's EM stopped at its iteration bound.
	CodeNotConverged = "dawid_skene_not_converged"
)

// Options configures Analyze. The zero value aggregates by majority.
type Options struct {
	Method  string // MethodMajority (""), MethodDawidSkene
	MaxIter int    // Dawid-Skene's EM bound (0: stats' default)
}

// Item is one item's verdict.
type Item struct {
	Item string `json:"item"`
	// Label is the winning class; empty on a tie (Tie true).
	Label string `json:"label"`
	Tie   bool   `json:"tie"`
	// Posterior is each class's probability (Dawid-Skene) or share of
	// the votes (majority), in the order of Result.Classes.
	Posterior []float64 `json:"posterior"`
	Raters    int       `json:"raters"` // raters with at least one label here
	Labels    int       `json:"labels"`
	Errored   int       `json:"errored"` // labels left out (empty or error)
}

// Rater is one rater's figures.
type Rater struct {
	Rater   string `json:"rater"`
	Items   int    `json:"items"`
	Labels  int    `json:"labels"`
	Errored int    `json:"errored"`
	// Accuracy is the share of the rater's labels that match the item's
	// class: under Dawid-Skene the expected share, Σ_i Σ_l n_il T_il / Σ n;
	// under majority, against the winning label of the untied items.
	// Nil when the rater has no label to judge (null in JSON).
	Accuracy *float64 `json:"accuracy"`
	// Confusion[j][l] is the probability that the rater labels an item of
	// class j as l (rows in the order of Result.Classes; a row of zeros
	// when the rater saw no item of class j).
	Confusion [][]float64 `json:"confusion"`
}

// Result is a jury's verdict on a label file.
type Result struct {
	Kind    string   `json:"kind"` // always "jury"
	Source  string   `json:"source"`
	Method  string   `json:"method"`
	Classes []string `json:"classes"`
	// Marginals are the class probabilities: Dawid-Skene's p_j, or the
	// share of the untied items each label wins under majority.
	Marginals []float64 `json:"marginals"`
	// LogLik, Iterations and Converged describe the Dawid-Skene fit
	// (zero under majority).
	LogLik     float64           `json:"log_likelihood"`
	Iterations int               `json:"iterations"`
	Converged  bool              `json:"converged"`
	Labels     int               `json:"labels"`
	Errored    int               `json:"errored"`
	Ties       []string          `json:"ties"`
	Items      []Item            `json:"items"`
	Raters     []Rater           `json:"raters"`
	Warnings   []results.Warning `json:"warnings"`
}

// tieTol is how close two posterior probabilities must be to tie.
const tieTol = 1e-12

// Analyze aggregates the labels. Items and raters keep the order in
// which they first appear; classes are sorted (numerically when every
// class is a number). Under majority each rater has one vote per item,
// split evenly among its labels of the item. Errors, as
// *tabular.ParseError naming the file and a line: fewer than two classes
// among the labels; under Dawid-Skene, an item labelled by only one rater
// (the model cannot tell that rater's errors from the item's class).
func Analyze(ls *Labels, opt Options) (*Result, error) {
	if opt.Method == "" {
		opt.Method = MethodMajority
	}
	if opt.Method != MethodMajority && opt.Method != MethodDawidSkene {
		return nil, fmt.Errorf("jury: unknown method %q (want %s)", opt.Method, strings.Join(Methods, " or "))
	}
	res := &Result{Kind: "jury", Source: ls.Source, Method: opt.Method, Ties: []string{}, Warnings: []results.Warning{}}
	t, err := res.tally(ls, opt.Method)
	if err != nil {
		return nil, err
	}
	var post [][]float64
	if opt.Method == MethodDawidSkene {
		fit := stats.DawidSkene(t.counts, len(res.Classes), stats.DawidSkeneOptions{MaxIter: opt.MaxIter})
		post = fit.Posterior
		res.Marginals, res.LogLik, res.Iterations, res.Converged = fit.Marginals, fit.LogLik, fit.Iterations, fit.Converged
		for k := range res.Raters {
			res.Raters[k].Confusion = fit.Errors[k]
		}
		if !fit.Converged {
			res.Warnings = append(res.Warnings, results.Warning{Code: CodeNotConverged, Count: 1,
				Message: fmt.Sprintf("Dawid-Skene's EM stopped after %d iterations without converging; the figures are those of the last iteration", fit.Iterations)})
		}
	} else {
		post = majorityPosterior(t.counts, len(res.Classes))
	}
	res.decide(post)
	if opt.Method == MethodMajority {
		res.majorityRaters(t)
	} else {
		for k := range res.Raters {
			right, n := 0.0, 0.0
			for i := range t.counts {
				for l, c := range t.counts[i][k] {
					right += c * post[i][l]
					n += c
				}
			}
			res.Raters[k].Accuracy = share(right, n)
		}
	}
	if len(res.Ties) > 0 {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeTies, Count: len(res.Ties),
			Message: fmt.Sprintf("%d of %d items have no single winning label (%s); they get none: adjudicate them, or add a rater", len(res.Ties), len(res.Items), tabular.QuoteList(res.Ties))})
	}
	if res.Errored > 0 {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeErroredLabels, Count: res.Errored,
			Message: fmt.Sprintf("%d labels were empty or error: each is left out of its item, not counted as a wrong label", res.Errored)})
	}
	return res, nil
}

// tallied is the labels counted: counts[i][k][j] is how many times rater
// k labelled item i as class j; classIdx is a class's index in the
// sorted Result.Classes.
type tallied struct {
	counts   [][][]float64
	classIdx map[string]int
}

// tally lists the items and raters (in order of first appearance) and
// the classes (sorted) of res, counts every label, and refuses labels
// that cannot be aggregated: fewer than two classes, an item with no
// label, under Dawid-Skene an item of one rater.
func (res *Result) tally(ls *Labels, method string) (*tallied, error) {
	itemIdx, raterIdx, classIdx := map[string]int{}, map[string]int{}, map[string]int{}
	var firstLine []int
	for _, l := range ls.Labels {
		if _, ok := itemIdx[l.Item]; !ok {
			itemIdx[l.Item] = len(res.Items)
			res.Items = append(res.Items, Item{Item: l.Item})
			firstLine = append(firstLine, l.Line)
		}
		if _, ok := raterIdx[l.Rater]; !ok {
			raterIdx[l.Rater] = len(res.Raters)
			res.Raters = append(res.Raters, Rater{Rater: l.Rater})
		}
		if !l.Errored {
			if _, ok := classIdx[l.Label]; !ok {
				classIdx[l.Label] = len(res.Classes)
				res.Classes = append(res.Classes, l.Label)
			}
		}
	}
	if len(res.Classes) < 2 {
		what := "no label other than empty or error"
		if len(res.Classes) == 1 {
			what = fmt.Sprintf("only the class %s", tabular.Quote(res.Classes[0]))
		}
		return nil, &tabular.ParseError{File: ls.Source, Line: 1, Field: ColLabel, Err: fmt.Errorf("%s among %d labels: a jury needs at least two classes", what, len(ls.Labels))}
	}
	sortClasses(res.Classes)
	for j, c := range res.Classes {
		classIdx[c] = j
	}
	I, K, C := len(res.Items), len(res.Raters), len(res.Classes)
	counts := make([][][]float64, I)
	for i := range counts {
		counts[i] = make([][]float64, K)
		for k := range counts[i] {
			counts[i][k] = make([]float64, C)
		}
	}
	seen := make([][]bool, I)
	for i := range seen {
		seen[i] = make([]bool, K)
	}
	for _, l := range ls.Labels {
		i, k := itemIdx[l.Item], raterIdx[l.Rater]
		if l.Errored {
			res.Items[i].Errored++
			res.Raters[k].Errored++
			res.Errored++
			continue
		}
		counts[i][k][classIdx[l.Label]]++
		res.Items[i].Labels++
		res.Raters[k].Labels++
		res.Labels++
		if !seen[i][k] {
			seen[i][k] = true
			res.Items[i].Raters++
			res.Raters[k].Items++
		}
	}
	for i, it := range res.Items {
		if it.Labels == 0 {
			return nil, &tabular.ParseError{File: ls.Source, Line: firstLine[i], Field: ColLabel, Err: fmt.Errorf("item %s has no label other than empty or error; drop it or relabel it", tabular.Quote(it.Item))}
		}
		if method == MethodDawidSkene && it.Raters < 2 {
			return nil, &tabular.ParseError{File: ls.Source, Line: firstLine[i], Field: RaterColumns[0], Err: fmt.Errorf("item %s has labels from one rater only: "+
				"Dawid-Skene cannot tell that rater's errors from the item's class (drop the item, add a rater, or use --method majority)", tabular.Quote(it.Item))}
		}
	}
	return &tallied{counts: counts, classIdx: classIdx}, nil
}

// majorityPosterior is each item's share of the vote per class: each
// rater of the item has one vote, split evenly among its labels of it.
func majorityPosterior(counts [][][]float64, classes int) [][]float64 {
	post := make([][]float64, len(counts))
	for i := range counts {
		post[i] = make([]float64, classes)
		tot := 0.0
		for k := range counts[i] {
			n := 0.0
			for _, c := range counts[i][k] {
				n += c
			}
			for j, c := range counts[i][k] {
				if n > 0 {
					post[i][j] += c / n
				}
			}
			if n > 0 {
				tot++
			}
		}
		for j := range post[i] {
			post[i][j] /= tot
		}
	}
	return post
}

// decide gives each item its posterior and the class of the largest
// one; an item whose largest is shared (within tieTol) is a tie and gets
// no label.
func (res *Result) decide(post [][]float64) {
	for i := range res.Items {
		it := &res.Items[i]
		it.Posterior = post[i]
		best, n := 0, 0
		for j, p := range post[i] {
			switch {
			case p > post[i][best]+tieTol:
				best, n = j, 1
			case math.Abs(p-post[i][best]) <= tieTol:
				n++
			}
		}
		if n > 1 {
			it.Tie = true
			res.Ties = append(res.Ties, it.Item)
		} else {
			it.Label = res.Classes[best]
		}
	}
}

// majorityRaters gives, under majority, the class marginals (the share
// of the untied items each label wins) and each rater's confusion and
// accuracy against the winning labels of the untied items.
func (res *Result) majorityRaters(t *tallied) {
	C := len(res.Classes)
	res.Marginals = make([]float64, C)
	decided := 0
	for _, it := range res.Items {
		if !it.Tie {
			res.Marginals[t.classIdx[it.Label]]++
			decided++
		}
	}
	for k := range res.Raters {
		conf := make([][]float64, C)
		for j := range conf {
			conf[j] = make([]float64, C)
		}
		right, n := 0.0, 0.0
		for i, it := range res.Items {
			if it.Tie {
				continue
			}
			j := t.classIdx[it.Label]
			for l, c := range t.counts[i][k] {
				conf[j][l] += c
				n += c
				if l == j {
					right += c
				}
			}
		}
		for j := range conf {
			normalise(conf[j])
		}
		res.Raters[k].Confusion = conf
		res.Raters[k].Accuracy = share(right, n)
	}
	if decided > 0 {
		normalise(res.Marginals)
	}
}

func share(a, n float64) *float64 {
	if n == 0 {
		return nil
	}
	x := a / n
	return &x
}

func normalise(x []float64) {
	s := 0.0
	for _, v := range x {
		s += v
	}
	if s > 0 {
		for i := range x {
			x[i] /= s
		}
	}
}

// sortClasses sorts numerically when every class is a number, else as
// text.
func sortClasses(cs []string) {
	num := true
	for _, c := range cs {
		if _, err := strconv.ParseFloat(c, 64); err != nil {
			num = false
			break
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if num {
			a, _ := strconv.ParseFloat(cs[i], 64)
			b, _ := strconv.ParseFloat(cs[j], 64)
			return a < b
		}
		return cs[i] < cs[j]
	})
}

// File reads a label file (ReadLabels) and aggregates it.
func File(r io.Reader, name string, opt Options) (*Result, error) {
	ls, err := ReadLabels(r, name)
	if err != nil {
		return nil, err
	}
	return Analyze(ls, opt)
}
