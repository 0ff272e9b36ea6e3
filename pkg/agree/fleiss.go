package agree

import (
	"fmt"
	"slices"
)

// Fleiss is the agreement of many raters by Fleiss' kappa.
type Fleiss struct {
	// Items counts the items with at least two ratings (the others carry
	// no information about agreement and are left out, with a warning).
	Items int
	// Ratings counts the ratings on those items.
	Ratings int
	// Categories lists the labels in order (the columns of Counts).
	Categories []string
	// Counts[i][j] is how many raters put item i in category j.
	Counts [][]int
	// Observed is P̄, the mean share of agreeing rater pairs per item;
	// Expected is P̄ₑ, the same share expected by chance.
	Observed, Expected float64
	Kappa              float64
	Warnings           []string
	meta               []warnMeta // Warnings' codes and counts, in step
}

// FleissKappa returns Fleiss' kappa (Fleiss 1971, "Measuring nominal scale
// agreement among many raters") for ratings[i], the labels item i
// received from its raters; empty strings are missing ratings. See
// FleissCounts for the formula.
func FleissKappa(ratings [][]string) (Fleiss, error) {
	if len(ratings) == 0 {
		return Fleiss{}, ErrNoItems
	}
	var all []string
	for _, r := range ratings {
		all = append(all, r...)
	}
	cats := LabelOrder(all)
	index := make(map[string]int, len(cats))
	for i, c := range cats {
		index[c] = i
	}
	counts := make([][]int, len(ratings))
	for i, r := range ratings {
		counts[i] = make([]int, len(cats))
		for _, l := range r {
			if l != "" {
				counts[i][index[l]]++
			}
		}
	}
	f, err := FleissCounts(counts)
	f.Categories = cats
	return f, err
}

// FleissCounts returns Fleiss' kappa from counts[i][j], the number of
// raters who put item i in category j. With nᵢ = Σⱼ nᵢⱼ raters on item i,
//
//	Pᵢ = Σⱼ nᵢⱼ(nᵢⱼ − 1) / (nᵢ(nᵢ − 1))     agreeing pairs on item i
//	P̄ = mean of Pᵢ over the items
//	pⱼ = Σᵢ nᵢⱼ / Σᵢ nᵢ                     share of ratings in category j
//	P̄ₑ = Σⱼ pⱼ²
//	κ = (P̄ − P̄ₑ) / (1 − P̄ₑ)
//
// Fleiss defined it for the same number of raters on every item. When
// the number varies (missing ratings) the same formulas are applied item
// by item, a common extension, and a warning suggests Krippendorff's
// alpha, which was built for missing data. Items with fewer than two
// ratings are left out with a warning. Errors: ErrNoItems when no item has
// two ratings, ErrOneLabel when every rating is in one category.
func FleissCounts(counts [][]int) (Fleiss, error) {
	if len(counts) == 0 {
		return Fleiss{Counts: counts}, ErrNoItems
	}
	k := len(counts[0])
	for i, row := range counts {
		if len(row) != k {
			return Fleiss{Counts: counts}, fmt.Errorf("agree: item %d has %d %s, item 1 has %d", i+1, len(row), plural(len(row), "category", "categories"), k)
		}
		for _, c := range row {
			if c < 0 {
				return Fleiss{Counts: counts}, fmt.Errorf("agree: item %d has a negative count", i+1)
			}
		}
	}
	acc := newFleissAcc(k)
	for _, row := range counts {
		acc.add(row)
	}
	f, err := acc.finish()
	f.Counts = counts
	return f, err
}

// fleissAcc adds up Fleiss' kappa item by item, in one pass.
type fleissAcc struct {
	f                   Fleiss
	totals              []float64
	minR, maxR, skipped int
	sumP                float64
	withRatings         map[int]int // items by number of ratings (two or more)
}

func newFleissAcc(k int) *fleissAcc {
	return &fleissAcc{totals: make([]float64, k), minR: -1, withRatings: map[int]int{}}
}

// add adds an item with the given count of each category (no negative
// count, as many categories as the others).
func (a *fleissAcc) add(row []int) {
	ni, pairs := 0, 0
	for _, c := range row {
		ni += c
		pairs += c * (c - 1)
	}
	if ni < 2 {
		a.skipped++
		return
	}
	a.f.Items++
	a.f.Ratings += ni
	if a.minR < 0 || ni < a.minR {
		a.minR = ni
	}
	a.maxR = max(a.maxR, ni)
	a.sumP += float64(pairs) / float64(ni*(ni-1))
	for j, c := range row {
		a.totals[j] += float64(c)
	}
	a.withRatings[ni]++
}

// finish returns Fleiss' kappa of the items added (FleissCounts).
func (a *fleissAcc) finish() (Fleiss, error) {
	f := a.f
	if f.Items == 0 {
		return f, fmt.Errorf("%w: no item has two ratings", ErrNoItems)
	}
	f.Observed = a.sumP / float64(f.Items)
	used := 0
	for _, t := range a.totals {
		p := t / float64(f.Ratings)
		f.Expected += p * p
		if t > 0 {
			used++
		}
	}
	if used < 2 {
		return f, ErrOneLabel
	}
	f.Kappa = (f.Observed - f.Expected) / (1 - f.Expected)
	if a.skipped > 0 {
		warn(&f.Warnings, &f.meta, CodeUnpairable, a.skipped, fmt.Sprintf("%d %s with fewer than two ratings left out", a.skipped, plural(a.skipped, "item", "items")))
	}
	if a.minR != a.maxR {
		fewer := 0 // items with fewer ratings than the most rated: the count the warning carries
		for ni, c := range a.withRatings {
			if ni < a.maxR {
				fewer += c
			}
		}
		warn(&f.Warnings, &f.meta, CodeUnequalRatings, fewer, fmt.Sprintf("items have between %d and %d ratings: Fleiss' kappa assumes the same number; Krippendorff's alpha is built for missing ratings", a.minR, a.maxR))
	}
	if f.Items < minItems {
		warn(&f.Warnings, &f.meta, CodeFewItems, f.Items, fmt.Sprintf("only %d items: kappa is very uncertain", f.Items))
	}
	return f, nil
}

// fleissFromWeights recomputes κ for a bootstrap resample in which item i
// appears weights[i] times; ok is false when the resample is undefined.
func fleissFromWeights(counts [][]int, weights []int) (float64, bool) {
	k := len(counts[0])
	totals := make([]float64, k)
	var sumP, items, ratings float64
	for i, row := range counts {
		if weights[i] == 0 {
			continue
		}
		ni, pairs := 0, 0
		for _, c := range row {
			ni += c
			pairs += c * (c - 1)
		}
		if ni < 2 {
			continue
		}
		w := float64(weights[i])
		items += w
		ratings += w * float64(ni)
		sumP += w * float64(pairs) / float64(ni*(ni-1))
		for j, c := range row {
			totals[j] += w * float64(c)
		}
	}
	if items == 0 {
		return 0, false
	}
	pe := 0.0
	for _, t := range totals {
		p := t / ratings
		pe += p * p
	}
	if slices.Max(totals) == ratings {
		return 0, false
	}
	po := sumP / items
	return (po - pe) / (1 - pe), true
}

// Disagreements returns the indices of the items whose ratings are not all
// the same, ignoring missing ratings (""): the items to send to
// adjudication. An item with fewer than two ratings cannot disagree.
func Disagreements(items [][]string) []int {
	var out []int
	for i, r := range items {
		first := ""
		for _, l := range r {
			if l == "" {
				continue
			}
			if first == "" {
				first = l
			} else if l != first {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
