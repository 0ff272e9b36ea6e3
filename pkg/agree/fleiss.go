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
	f := Fleiss{Counts: counts}
	if len(counts) == 0 {
		return f, ErrNoItems
	}
	k := len(counts[0])
	totals := make([]float64, k)
	minR, maxR, skipped := -1, 0, 0
	var sumP float64
	for i, row := range counts {
		if len(row) != k {
			return f, fmt.Errorf("agree: item %d has %d %s, item 1 has %d", i+1, len(row), plural(len(row), "category", "categories"), k)
		}
		ni, pairs := 0, 0
		for _, c := range row {
			if c < 0 {
				return f, fmt.Errorf("agree: item %d has a negative count", i+1)
			}
			ni += c
			pairs += c * (c - 1)
		}
		if ni < 2 {
			skipped++
			continue
		}
		f.Items++
		f.Ratings += ni
		if minR < 0 || ni < minR {
			minR = ni
		}
		maxR = max(maxR, ni)
		sumP += float64(pairs) / float64(ni*(ni-1))
		for j, c := range row {
			totals[j] += float64(c)
		}
	}
	if f.Items == 0 {
		return f, fmt.Errorf("%w: no item has two ratings", ErrNoItems)
	}
	f.Observed = sumP / float64(f.Items)
	used := 0
	for _, t := range totals {
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
	if skipped > 0 {
		warn(&f.Warnings, &f.meta, WarnUnpairable, skipped, fmt.Sprintf("%d %s with fewer than two ratings left out", skipped, plural(skipped, "item", "items")))
	}
	if minR != maxR {
		fewer := 0 // items with fewer ratings than the most rated: the count the warning carries
		for _, row := range counts {
			if ni, _ := sumMax(row); ni >= 2 && ni < maxR {
				fewer++
			}
		}
		warn(&f.Warnings, &f.meta, WarnUnequalRatings, fewer, fmt.Sprintf("items have between %d and %d ratings: Fleiss' kappa assumes the same number; Krippendorff's alpha is built for missing ratings", minR, maxR))
	}
	if f.Items < minItems {
		warn(&f.Warnings, &f.meta, WarnFewItems, f.Items, fmt.Sprintf("only %d items: kappa is very uncertain", f.Items))
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
