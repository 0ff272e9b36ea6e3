package agree

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// Errors callers can branch on with errors.Is.
var (
	ErrLength   = errors.New("agree: raters rated different numbers of items")
	ErrNoItems  = errors.New("agree: no items to compare")
	ErrOneLabel = errors.New("agree: every rating is the same label, so chance agreement is 1 and the statistic is undefined")
	// ErrInvalid is wrapped by the error for an argument outside its
	// domain: weights or a level that is not one of the constants, an
	// order that lists a label twice, fewer than one bootstrap resample,
	// or a confidence not strictly between 0 and 1.
	ErrInvalid = errors.New("agree: invalid argument")
)

// Weights selects the agreement weights of WeightedKappa.
type Weights int

const (
	Unweighted Weights = iota // only identical labels agree
	Linear                    // wᵢⱼ = 1 − |i − j|/(k − 1)
	Quadratic                 // wᵢⱼ = 1 − (i − j)²/(k − 1)²
)

// ParseWeights reads "", "none", "linear" or "quadratic".
func ParseWeights(s string) (Weights, error) {
	switch s {
	case "", "none":
		return Unweighted, nil
	case "linear":
		return Linear, nil
	case "quadratic":
		return Quadratic, nil
	}
	return 0, fmt.Errorf("agree: unknown weights %q (want linear or quadratic)", s)
}

// String returns "none", "linear" or "quadratic", and "Weights(n)" for a
// value that is not one of the constants.
func (w Weights) String() string {
	switch w {
	case Unweighted:
		return "none"
	case Linear:
		return "linear"
	case Quadratic:
		return "quadratic"
	}
	return fmt.Sprintf("Weights(%d)", int(w))
}

// check returns an error wrapping ErrInvalid for weights that are not
// one of the constants.
func (w Weights) check() error {
	switch w {
	case Unweighted, Linear, Quadratic:
		return nil
	}
	return fmt.Errorf("%w: weights %d are not Unweighted, Linear or Quadratic", ErrInvalid, int(w))
}

// checkOrder returns an error wrapping ErrOrder (and so ErrInvalid) when
// an explicit order lists a label twice (the label would get two
// positions, and counts and distances would depend on which one a lookup
// found) or holds the empty string, which is a missing rating, not a
// label.
func checkOrder(order []string) error {
	seen := make(map[string]bool, len(order))
	for i, l := range order {
		if l == "" {
			return fmt.Errorf("%w: position %d is empty (the empty string is a missing rating)", ErrOrder, i+1)
		}
		if seen[l] {
			return fmt.Errorf("%w: %q lists %q twice", ErrOrder, order, l)
		}
		seen[l] = true
	}
	return nil
}

// allNumbers reports whether every label parses as a number, so that
// LabelOrder puts them in numeric order.
// errNotNumber is parseNumber's error for text with a character no
// number has.
var errNotNumber = errors.New("not a number")

// parseNumber is strconv.ParseFloat(s, 64), but for text holding a
// character that no text ParseFloat takes can hold (it takes digits,
// signs, points, underscores, exponents, hexadecimal and inf, infinity
// and nan in any case) it returns errNotNumber without calling it:
// ParseFloat's error holds a copy of its input, which for a label of
// 50 MiB is 50 MiB each time the labels are sorted.
func parseNumber(s string) (float64, error) {
	for i := range len(s) {
		switch c := s[i] | 0x20; { // lower case, for letters
		case s[i] >= '0' && s[i] <= '9', s[i] == '+', s[i] == '-', s[i] == '.', s[i] == '_':
		case c >= 'a' && c <= 'f', c == 'x', c == 'p', c == 'i', c == 'n', c == 't', c == 'y':
		default:
			return 0, errNotNumber
		}
	}
	return strconv.ParseFloat(s, 64)
}

func allNumbers(labels []string) bool {
	for _, l := range labels {
		if _, err := parseNumber(l); err != nil {
			return false
		}
	}
	return true
}

// guessedOrderWarning is the warning of a statistic that needs the order
// of the labels (what), got none, and took labels that are not all
// numbers in byte order.
func guessedOrderWarning(what string, labels []string) string {
	return fmt.Sprintf("%s needs the order of the labels; none was given and the labels are not all numbers, so they were taken alphabetically: %s; if that is not the order of the scale, pass the order explicitly",
		what, strings.Join(labels, ", "))
}

// LabelOrder returns the distinct non-empty labels of all the lists in a
// stable order: numeric order when every label parses as a number (so "10"
// follows "9"), byte order otherwise.
func LabelOrder(lists ...[]string) []string {
	seen := map[string]bool{}
	var labels []string
	for _, l := range lists {
		for _, s := range l {
			if s != "" && !seen[s] {
				seen[s] = true
				labels = append(labels, s)
			}
		}
	}
	return sortLabels(labels)
}

func sortLabels(labels []string) []string {
	nums := make(map[string]float64, len(labels))
	numeric := true
	for _, s := range labels {
		v, err := parseNumber(s)
		if err != nil {
			numeric = false
			break
		}
		nums[s] = v
	}
	slices.SortFunc(labels, func(a, b string) int {
		if numeric {
			if c := cmp.Compare(nums[a], nums[b]); c != 0 {
				return c
			}
		}
		return cmp.Compare(a, b)
	})
	return labels
}

// Confusion is the cross-table of two raters' labels.
type Confusion struct {
	// Labels gives the order of rows and columns.
	Labels []string
	// Counts[i][j] is the number of items the first rater labelled
	// Labels[i] and the second Labels[j].
	Counts [][]int
}

// N returns the number of items in the table.
func (c Confusion) N() int {
	n := 0
	for _, row := range c.Counts {
		for _, v := range row {
			n += v
		}
	}
	return n
}

// NewConfusion cross-tabulates a against b. The rows and columns follow
// order if it is non-nil (every label must appear in it; labels of order
// that nobody used get zero rows, and no label may appear twice), else
// LabelOrder(a, b). Missing ratings (empty strings) are an error here:
// drop incomplete items first.
func NewConfusion(a, b []string, order []string) (Confusion, error) {
	if len(a) != len(b) {
		return Confusion{}, fmt.Errorf("%w: %d and %d", ErrLength, len(a), len(b))
	}
	if len(a) == 0 {
		return Confusion{}, ErrNoItems
	}
	codes, labels, err := encodePairs(a, b, order)
	if err != nil {
		return Confusion{}, err
	}
	k := len(labels)
	flat := make([]int, k*k)
	for _, c := range codes {
		flat[c]++
	}
	c := Confusion{Labels: labels, Counts: make([][]int, k)}
	for i := range k {
		c.Counts[i] = flat[i*k : (i+1)*k : (i+1)*k]
	}
	return c, nil
}

// encodePairs returns, for each item, the cell index i·k + j of its pair
// of labels, with the label order.
func encodePairs(a, b []string, order []string) (codes []int32, labels []string, err error) {
	index := map[string]int32{}
	if order != nil {
		if err := checkOrder(order); err != nil {
			return nil, nil, err
		}
		labels = slices.Clone(order)
		for i, l := range labels {
			index[l] = int32(i)
		}
	}
	// First pass: label indices in order of appearance (or of order).
	// Each rater's previous label is remembered: runs of one label skip
	// the map.
	ia := make([]int32, len(a))
	ib := make([]int32, len(b))
	look := func(s string, item int) (int32, error) {
		if s == "" {
			return 0, fmt.Errorf("agree: item %d has a missing rating", item+1)
		}
		i, ok := index[s]
		if !ok {
			if order != nil {
				return 0, fmt.Errorf("agree: label %s of item %d is not in the given order %q", tabular.Quote(s), item+1, order)
			}
			i = int32(len(labels))
			index[s] = i
			labels = append(labels, s)
		}
		return i, nil
	}
	lastA, lastB := "", ""
	var idxA, idxB int32
	for i := range a {
		if a[i] != lastA || lastA == "" {
			if idxA, err = look(a[i], i); err != nil {
				return nil, nil, err
			}
			lastA = a[i]
		}
		if b[i] != lastB || lastB == "" {
			if idxB, err = look(b[i], i); err != nil {
				return nil, nil, err
			}
			lastB = b[i]
		}
		ia[i], ib[i] = idxA, idxB
	}
	// Renumber into the stable order.
	perm := make([]int32, len(labels))
	if order == nil {
		sorted := sortLabels(slices.Clone(labels))
		pos := make(map[string]int32, len(sorted))
		for i, l := range sorted {
			pos[l] = int32(i)
		}
		for i, l := range labels {
			perm[i] = pos[l]
		}
		labels = sorted
	} else {
		for i := range perm {
			perm[i] = int32(i)
		}
	}
	k := int32(len(labels))
	codes = ia // reuse
	for i := range ia {
		codes[i] = perm[ia[i]]*k + perm[ib[i]]
	}
	return codes, labels, nil
}

// Kappa is the agreement of two raters.
type Kappa struct {
	N int
	// Observed is the share of items on which the raters agree, and
	// Expected the share expected by chance from their label frequencies
	// (both weighted when Weights is not Unweighted).
	Observed, Expected float64
	Kappa              float64
	Weights            Weights
	Confusion          Confusion
	Warnings           []string
	meta               []warnMeta // Warnings' codes and counts, in step
}

// CodedWarnings returns Warnings as result warnings, each with its stable
// code (CodeFewItems, CodeOneLabel, ...) and count, as Analyze hands them
// on; nil when there are none.
func (k Kappa) CodedWarnings() []results.Warning { return codedWarnings(k.Warnings, k.meta) }

// CodedWarnings returns Warnings as result warnings with their codes, as
// Kappa's; nil when there are none.
func (iv Interval) CodedWarnings() []results.Warning { return codedWarnings(iv.Warnings, iv.meta) }

// CodedWarnings returns Warnings as result warnings with their codes, as
// Kappa's; nil when there are none.
func (f Fleiss) CodedWarnings() []results.Warning { return codedWarnings(f.Warnings, f.meta) }

// Observed returns the share of items on which a and b carry the same
// label:
//
//	pₒ = (1/n) Σᵢ [aᵢ = bᵢ]
func Observed(a, b []string) (float64, error) {
	k, err := CohenKappa(a, b)
	return k.Observed, err
}

// Expected returns the agreement two raters would reach by chance with
// these label frequencies: with pₐ(l) and p_b(l) the shares of items each
// rater gave label l,
//
//	pₑ = Σ_l pₐ(l) · p_b(l)
func Expected(a, b []string) (float64, error) {
	k, err := CohenKappa(a, b)
	return k.Expected, err
}

// CohenKappa returns Cohen's kappa of two raters over the same items:
//
//	κ = (pₒ − pₑ) / (1 − pₑ)
//
// with pₒ and pₑ as in Observed and Expected. κ = 1 is perfect agreement,
// 0 is no better than chance, below 0 worse than chance. When pₑ = 1 (both
// raters gave one and the same label to every item) κ is defined as 1 and
// a warning says so. Errors: ErrLength, ErrNoItems, and a missing rating.
func CohenKappa(a, b []string) (Kappa, error) {
	return WeightedKappa(a, b, nil, Unweighted)
}

// WeightedKappa returns Cohen's weighted kappa for ordered labels. With
// the k labels in order (order, or LabelOrder(a, b) when order is nil),
// pᵢⱼ the share of items labelled i by a and j by b, rᵢ and cⱼ the row
// and column shares, and agreement weights
//
//	linear:     wᵢⱼ = 1 − |i − j|/(k − 1)
//	quadratic:  wᵢⱼ = 1 − (i − j)²/(k − 1)²
//	unweighted: wᵢⱼ = [i = j]
//
// it is
//
//	pₒ = Σᵢⱼ wᵢⱼ pᵢⱼ,  pₑ = Σᵢⱼ wᵢⱼ rᵢ cⱼ,  κ_w = (pₒ − pₑ)/(1 − pₑ)
//
// Distances are positions in the order, not numeric differences, so a
// scale 1, 2, 3, 5 counts 3 against 5 as one step; pass the full scale as
// order when some points went unused. This matches scikit-learn's
// cohen_kappa_score(weights=...). Quadratic weighted kappa is close to an
// intraclass correlation.
//
// With Linear or Quadratic weights and a nil order, labels that are not
// all numbers are taken alphabetically, which is rarely the order of a
// scale (high < low < mid); Warnings then says so and lists the order
// used. Errors: those of NewConfusion, and ErrInvalid for weights that are
// not one of the constants or an order that lists a label twice.
func WeightedKappa(a, b []string, order []string, w Weights) (Kappa, error) {
	if err := w.check(); err != nil {
		return Kappa{}, err
	}
	c, err := NewConfusion(a, b, order)
	if err != nil {
		return Kappa{}, err
	}
	return weightedKappa(c, order, w), nil
}

// weightedKappa is WeightedKappa from the table of the labels in order.
func weightedKappa(c Confusion, order []string, w Weights) Kappa {
	k := c.Kappa(w)
	if w != Unweighted && order == nil && !allNumbers(c.Labels) {
		warn(&k.Warnings, &k.meta, CodeOrderGuessed, len(c.Labels), guessedOrderWarning(w.String()+" weighted kappa", c.Labels))
	}
	return k
}

// Kappa computes (weighted) Cohen's kappa from the table. A table with no
// items, or weights that are not one of the constants, gives a zero Kappa
// with a warning saying why.
func (c Confusion) Kappa(w Weights) Kappa {
	k := Kappa{N: c.N(), Weights: w, Confusion: c}
	if err := w.check(); err != nil {
		warn(&k.Warnings, &k.meta, CodeNoKappa, 0, err.Error()+": no kappa")
		return k
	}
	if k.N == 0 {
		warn(&k.Warnings, &k.meta, CodeNoKappa, 0, "no items")
		return k
	}
	k.Observed, k.Expected, k.Kappa = kappaFromCounts(c.Counts, w)
	if used := usedLabels(c.Counts); used == 1 {
		k.Kappa = 1
		warn(&k.Warnings, &k.meta, CodeOneLabel, k.N, fmt.Sprintf("both raters gave the label %s to every item: chance agreement is 1 and kappa is set to 1, which says nothing about the raters", tabular.Quote(c.Labels[onlyLabel(c.Counts)])))
	}
	if k.N < minItems {
		warn(&k.Warnings, &k.meta, CodeFewItems, k.N, fmt.Sprintf("only %d items: kappa is very uncertain", k.N))
	}
	return k
}

// minItems is the number of items below which a statistic warns.
const minItems = 10

func usedLabels(counts [][]int) int {
	used := 0
	for i := range counts {
		rowOrCol := 0
		for j := range counts {
			rowOrCol += counts[i][j] + counts[j][i]
		}
		if rowOrCol > 0 {
			used++
		}
	}
	return used
}

func onlyLabel(counts [][]int) int {
	for i := range counts {
		if counts[i][i] > 0 {
			return i
		}
	}
	return 0
}

// kappaFromCounts returns pₒ, pₑ and κ of a k×k table of counts. When
// pₑ = 1 κ is 1.
func kappaFromCounts(counts [][]int, w Weights) (po, pe, kappa float64) {
	k := len(counts)
	n := 0
	rows := make([]float64, k)
	cols := make([]float64, k)
	for i := range k {
		for j := range k {
			rows[i] += float64(counts[i][j])
			cols[j] += float64(counts[i][j])
			n += counts[i][j]
		}
	}
	nf := float64(n)
	if w == Unweighted {
		var diag, chance float64
		for i := range k {
			diag += float64(counts[i][i])
			chance += rows[i] * cols[i]
		}
		po, pe = diag/nf, chance/(nf*nf)
		if chance == nf*nf {
			return po, 1, 1
		}
		return po, pe, (po - pe) / (1 - pe)
	}
	wt := weightMatrix(k, w)
	var obs, chance float64
	for i := range k {
		for j := range k {
			obs += wt[i][j] * float64(counts[i][j])
			chance += wt[i][j] * rows[i] * cols[j]
		}
	}
	po, pe = obs/nf, chance/(nf*nf)
	if usedLabels(counts) == 1 {
		return po, 1, 1
	}
	return po, pe, (po - pe) / (1 - pe)
}

func weightMatrix(k int, w Weights) [][]float64 {
	m := make([][]float64, k)
	for i := range m {
		m[i] = make([]float64, k)
		for j := range m[i] {
			if k == 1 {
				m[i][j] = 1
				continue
			}
			d := float64(i-j) / float64(k-1)
			switch w {
			case Linear:
				m[i][j] = 1 - max(d, -d)
			case Quadratic:
				m[i][j] = 1 - d*d
			default:
				if i == j {
					m[i][j] = 1
				}
			}
		}
	}
	return m
}
