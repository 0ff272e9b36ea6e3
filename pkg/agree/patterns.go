package agree

import (
	"encoding/binary"
	"slices"
)

// unitPatterns groups units by their pattern: the multiset of values
// (label positions) they received, whichever raters gave them. Every
// statistic of this package that works on units (Fleiss' kappa,
// Krippendorff's alpha) depends on a unit only through its pattern, so
// units with one pattern contribute identically, and resampling n units
// with replacement is, in law, a multinomial draw of n over the patterns
// with probabilities count/n: a bootstrap resample costs O(patterns),
// not O(units).
type unitPatterns struct {
	// sparse holds, per pattern, (position, count) pairs with positions
	// ascending.
	sparse [][]int
	m      []int   // ratings per pattern
	count  []int   // units per pattern
	seq    []int32 // the pattern of each unit, in unit order
}

// groupUnits finds the patterns of t's rows, with pos[c] the position of
// the label of code c + 1 (every code of t must have one).
func groupUnits(t *codedTable, pos []int) *unitPatterns {
	p := &unitPatterns{seq: make([]int32, 0, t.n)}
	index := map[string]int32{}
	r := len(t.raters)
	vals := make([]int, 0, r)
	key := make([]byte, 0, 4*r)
	buf := make([]uint32, r)
	for i := range t.n {
		vals = vals[:0]
		for _, c := range t.row(i, buf) {
			if c != 0 {
				vals = append(vals, pos[c-1])
			}
		}
		if len(vals) > 1 {
			slices.Sort(vals)
		}
		key = key[:0]
		for _, v := range vals {
			key = binary.LittleEndian.AppendUint32(key, uint32(v))
		}
		id, ok := index[string(key)]
		if !ok {
			id = int32(len(p.m))
			index[string(key)] = id
			var sp []int
			for x := 0; x < len(vals); {
				y := x
				for y < len(vals) && vals[y] == vals[x] {
					y++
				}
				sp = append(sp, vals[x], y-x)
				x = y
			}
			p.sparse = append(p.sparse, sp)
			p.m = append(p.m, len(vals))
			p.count = append(p.count, 0)
		}
		p.count[id]++
		p.seq = append(p.seq, id)
	}
	return p
}

// dense returns each pattern's counts of the k positions.
func (p *unitPatterns) dense(k int) [][]int {
	out := make([][]int, len(p.sparse))
	for i, sp := range p.sparse {
		out[i] = make([]int, k)
		for x := 0; x < len(sp); x += 2 {
			out[i][sp[x]] = sp[x+1]
		}
	}
	return out
}

// fleissData is Fleiss' kappa's view of a coded table: the categories in
// LabelOrder and the units by pattern.
type fleissData struct {
	categories []string
	pat        *unitPatterns
	counts     [][]int // per pattern, the count of each category
}

func fleissPatterns(t *codedTable) *fleissData {
	cats := sortLabels(slices.Clone(t.labels))
	at := make(map[string]int, len(cats))
	for i, c := range cats {
		at[c] = i
	}
	pos := make([]int, len(t.labels))
	for c, l := range t.labels {
		pos[c] = at[l]
	}
	p := groupUnits(t, pos)
	return &fleissData{categories: cats, pat: p, counts: p.dense(len(cats))}
}

// fleiss is FleissKappa of the table: the items in order, as
// FleissCounts adds them up.
func (d *fleissData) fleiss() (Fleiss, error) {
	acc := newFleissAcc(len(d.categories))
	for _, id := range d.pat.seq {
		acc.add(d.counts[id])
	}
	f, err := acc.finish()
	f.Categories = d.categories
	return f, err
}

// bootstrapFleiss is BootstrapFleiss of the table, f its Fleiss' kappa:
// each resample is a multinomial draw over the patterns.
func (d *fleissData) bootstrapFleiss(f Fleiss, resamples int, confidence float64, seed uint64) (Interval, error) {
	if err := checkBootstrap(resamples, confidence); err != nil {
		return Interval{}, err
	}
	n := len(d.pat.seq)
	weights := make([]int, len(d.counts))
	iv := bootstrap(n, resamples, confidence, seed, func(r *rng) (float64, bool) {
		multinomial(r, n, d.pat.count, weights)
		return fleissFromWeights(d.counts, weights)
	})
	agreeing := 0
	for i, row := range d.counts {
		if n, top := sumMax(row); n >= 2 && top == n {
			agreeing += d.pat.count[i]
		}
	}
	allAgree(&iv, "Fleiss' kappa", agreeing, f.Items, "items")
	return iv, nil
}
