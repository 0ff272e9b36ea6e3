package compare

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// Outcome is one row of a long table of outcomes: model Model's 0/1
// result Pass on case Key, which belongs to group Group ("" without
// groups).
type Outcome struct {
	Key, Model, Group string
	Pass              float64
}

// ErrPairing is the error of Models when the rows do not pair up: a case
// of one model missing from the other, a case listed twice for a model,
// or a case in different groups for the two models.
var ErrPairing = errors.New("the two models' cases do not pair up")

// ErrModels is the error of Models when the models to compare cannot be
// told: the rows hold other than two models and Options does not name
// them, or a named model has no rows.
var ErrModels = errors.New("not two models to compare")

// Models compares two models whose outcomes sit in one long table (a row
// per case and model, as a verdict file with a model column has them),
// over all cases and within each group: each model's pass rate with an
// interval, the change B − A with its paired bootstrap interval, the
// flips, the exact sign test and McNemar's test, and the groups'
// sign-test p-values adjusted by Holm's method for the number of groups.
//
// opt.OldName and opt.NewName are the models A and B; when both are
// empty, the rows must hold exactly two models, taken in the order they
// first appear. Rows of other models are ignored. Every case (Key) of A
// must appear exactly once for A and once for B, in the same group: the
// pairing is checked, never assumed from the order of the rows, and a
// case that does not pair is an error wrapping ErrPairing that names it.
// opt.Key, Metric and By label the result (defaults "id", "pass", and
// "group" when any row has a group); opt.CI, Confidence, Resamples and
// Seed make the intervals as in Versions (each group uses Seed too).
func Models(rows []Outcome, opt Options) (*results.ModelComparison, error) {
	opt = opt.WithDefaults()
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	a, b, err := twoModels(rows, opt.OldName, opt.NewName)
	if err != nil {
		return nil, err
	}
	_, old, new, groups, err := pairModels(rows, a, b)
	if err != nil {
		return nil, err
	}
	if opt.Metric == "" {
		opt.Metric = "pass"
	}
	hasGroups := slices.ContainsFunc(groups, func(g string) bool { return g != "" })
	if hasGroups && opt.By == "" {
		opt.By = "group"
	}
	so := stats.CompareOptions{Method: opt.CI, Confidence: opt.Confidence, Resamples: opt.Resamples, Seed: opt.Seed}
	rep := &results.ModelComparison{
		Kind: "compare-models", A: a, B: b, Key: strings.Join(opt.Key, ","), Metric: opt.Metric, By: opt.By,
		CI: opt.CI, Confidence: opt.Confidence, Resamples: opt.Resamples, Seed: opt.Seed,
		Groups: []results.ModelGroup{}, Warnings: []results.Warning{},
	}
	var c stats.Comparison
	rep.All, c = modelGroup("all", old, new, so)
	rep.All.PHolm = rep.All.PSign
	rep.Warnings = append(rep.Warnings, intervalWarnings(c)...)
	if flips := rep.All.Better + rep.All.Worse; flips > 0 && flips < stats.McNemarMinFlips {
		rep.Warnings = append(rep.Warnings, results.Warning{Code: CodeFewFlips, Count: flips,
			Message: fmt.Sprintf("only %s changed: McNemar's chi-square is rough; quote the exact sign test", count(flips, "case", "cases"))})
	}
	if !hasGroups {
		return rep, nil
	}
	var names []string
	idx := map[string][]int{}
	for i, g := range groups {
		if _, ok := idx[g]; !ok {
			names = append(names, g)
		}
		idx[g] = append(idx[g], i)
	}
	slices.Sort(names)
	ps := make([]float64, len(names))
	small := 0
	for j, name := range names {
		var o, n []float64
		for _, i := range idx[name] {
			o, n = append(o, old[i]), append(n, new[i])
		}
		g, _ := modelGroup(name, o, n, so)
		if flips := g.Better + g.Worse; flips > 0 && flips < stats.McNemarMinFlips {
			small++
		}
		rep.Groups = append(rep.Groups, g)
		ps[j] = g.PSign
	}
	for j, p := range stats.AdjustP(ps, stats.CorrectionHolm) {
		rep.Groups[j].PHolm = p
	}
	if len(names) > 1 {
		rep.Warnings = append(rep.Warnings, results.Warning{Code: CodeManyGroups, Count: len(names),
			Message: fmt.Sprintf("%d groups: with many slices some will differ by chance; read p Holm, which allows for the number of groups", len(names))})
	}
	if small > 0 {
		rep.Warnings = append(rep.Warnings, results.Warning{Code: CodeFewFlips, Count: small,
			Message: fmt.Sprintf("%s %s fewer than %d flips: McNemar's p is rough there; read the sign test", count(small, "group", "groups"), hasHave(small), stats.McNemarMinFlips)})
	}
	return rep, nil
}

// modelGroup compares the paired outcomes of one set of cases.
func modelGroup(name string, old, new []float64, so stats.CompareOptions) (results.ModelGroup, stats.Comparison) {
	c := stats.ComparePaired(old, new, so)
	return results.ModelGroup{
		Group: name, N: c.N, APass: c.OldPass, BPass: c.NewPass,
		A: c.OldMean, ALow: c.Old.Lo, AHigh: c.Old.Hi,
		B: c.NewMean, BLow: c.New.Lo, BHigh: c.New.Hi,
		Diff: c.Diff, DiffLow: c.DiffInterval.Lo, DiffHigh: c.DiffInterval.Hi,
		Better: len(c.Better), Worse: len(c.Worse), PSign: c.SignP, PMcNemar: c.McNemarP,
	}, c
}

// twoModels returns the models to compare: a and b if given, or the two
// models of rows in order of appearance.
func twoModels(rows []Outcome, a, b string) (string, string, error) {
	var seen []string
	for _, r := range rows {
		if !slices.Contains(seen, r.Model) {
			seen = append(seen, r.Model)
		}
	}
	switch {
	case a == "" && b == "":
		if len(seen) != 2 {
			return "", "", errorf(ErrModels, "compare: the rows hold %d models (%s); name the two to compare (Options.OldName and NewName)", len(seen), firstFew(quoteAll(seen), 5))
		}
		return seen[0], seen[1], nil
	case a == "" || b == "":
		return "", "", errorf(ErrModels, "compare: name both models (Options.OldName %q, NewName %q)", a, b)
	case a == b:
		return "", "", errorf(ErrModels, "compare: both models are %s", tabular.Quote(a))
	}
	for _, m := range []string{a, b} {
		if !slices.Contains(seen, m) {
			return "", "", errorf(ErrModels, "compare: no rows of model %s (models: %s)", tabular.Quote(m), firstFew(quoteAll(seen), 5))
		}
	}
	return a, b, nil
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = tabular.Quote(x)
	}
	return out
}

// pairModels pairs A's and B's rows by key, in A's order, and checks the
// pairing: each key once per model, the same keys for both, and the same
// group.
func pairModels(rows []Outcome, a, b string) (keys []string, old, new []float64, groups []string, err error) {
	type side struct {
		pass  float64
		group string
		row   int
	}
	sides := [2]map[string]side{{}, {}}
	for i, r := range rows {
		s := slices.Index([]string{a, b}, r.Model)
		if s < 0 {
			continue
		}
		if r.Pass != 0 && r.Pass != 1 {
			return nil, nil, nil, nil, errorf(ErrNotBinary, "compare: row %d (model %s, case %s) has outcome %v, not 0 or 1", i+1, tabular.Quote(r.Model), tabular.Quote(r.Key), r.Pass)
		}
		if prev, dup := sides[s][r.Key]; dup {
			return nil, nil, nil, nil, errorf(ErrPairing, "compare: case %s of model %s is on rows %d and %d: a case must appear once per model (add the column that tells them apart to the key)", tabular.Quote(r.Key), tabular.Quote(r.Model), prev.row+1, i+1)
		}
		sides[s][r.Key] = side{r.Pass, r.Group, i}
		if s == 0 {
			keys = append(keys, r.Key)
		}
	}
	var missing []string
	for _, k := range keys {
		if _, ok := sides[1][k]; !ok {
			missing = append(missing, tabular.Quote(k))
		}
	}
	if len(missing) > 0 {
		return nil, nil, nil, nil, errorf(ErrPairing, "compare: %s of model %s %s no row for model %s: %s", count(len(missing), "case", "cases"), tabular.Quote(a), hasHave(len(missing)), tabular.Quote(b), firstFew(missing, 5))
	}
	if len(sides[1]) > len(keys) {
		for i, r := range rows {
			if _, ok := sides[0][r.Key]; !ok && r.Model == b {
				missing = append(missing, fmt.Sprintf("%s (row %d)", tabular.Quote(r.Key), i+1))
			}
		}
		return nil, nil, nil, nil, errorf(ErrPairing, "compare: %s of model %s %s no row for model %s: %s", count(len(missing), "case", "cases"), tabular.Quote(b), hasHave(len(missing)), tabular.Quote(a), firstFew(missing, 5))
	}
	for _, k := range keys {
		x, y := sides[0][k], sides[1][k]
		if x.group != y.group {
			return nil, nil, nil, nil, errorf(ErrPairing, "compare: case %s is in group %s for model %s (row %d) but %s for model %s (row %d)", tabular.Quote(k), tabular.Quote(x.group), tabular.Quote(a), x.row+1, tabular.Quote(y.group), tabular.Quote(b), y.row+1)
		}
		old, new, groups = append(old, x.pass), append(new, y.pass), append(groups, x.group)
	}
	return keys, old, new, groups, nil
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}
