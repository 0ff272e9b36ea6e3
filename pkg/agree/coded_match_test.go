package agree

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The code below, down to oldAlpha, is Krippendorff's alpha as evalbook
// computed it before the coded, one-pass version (a map and a scan of
// every label per unit): kept here as the reference the point estimates
// must equal bit for bit.

// oldAlphaData holds the units in coded form, ready for repeated evaluation
// (the bootstrap reweights units).
type oldAlphaData struct {
	level  Level
	labels []string
	values []float64   // numeric value of each label (interval, ratio)
	units  [][]int     // per unit: how many of its ratings are each label (sparse: label, count pairs)
	m      []int       // per unit: number of ratings
	delta  [][]float64 // δ² for nominal, interval, ratio; ordinal is recomputed per sample
}

func newOldAlphaData(ratings [][]string, level Level, order []string) (*oldAlphaData, error) {
	if err := level.check(); err != nil {
		return nil, err
	}
	if order != nil {
		if err := checkOrder(order); err != nil {
			return nil, err
		}
	}
	if len(ratings) == 0 {
		return nil, ErrNoItems
	}
	d := &oldAlphaData{level: level}
	var all []string
	for _, r := range ratings {
		all = append(all, r...)
	}
	if order != nil && level == LevelOrdinal {
		d.labels = slices.Clone(order)
	} else {
		d.labels = LabelOrder(all)
	}
	index := make(map[string]int, len(d.labels))
	for i, l := range d.labels {
		index[l] = i
	}
	if level == LevelInterval || level == LevelRatio {
		d.values = make([]float64, len(d.labels))
		for i, l := range d.labels {
			v, err := strconv.ParseFloat(l, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || (level == LevelRatio && v < 0) {
				u, r := oldLocate(ratings, l)
				return nil, &ValueError{Unit: u, Rater: r, Value: l, Level: level}
			}
			d.values[i] = v
		}
	}
	for u, r := range ratings {
		counts := map[int]int{}
		m := 0
		for rater, l := range r {
			if l == "" {
				continue
			}
			i, ok := index[l]
			if !ok {
				return nil, fmt.Errorf("agree: unit %d, rater %d: value %q is not in the given order %q", u+1, rater+1, l, order)
			}
			counts[i]++
			m++
		}
		var sparse []int
		for i := range d.labels {
			if c := counts[i]; c > 0 {
				sparse = append(sparse, i, c)
			}
		}
		d.units = append(d.units, sparse)
		d.m = append(d.m, m)
	}
	k := len(d.labels)
	d.delta = make([][]float64, k)
	for c := range k {
		d.delta[c] = make([]float64, k)
		for j := range k {
			switch level {
			case LevelNominal:
				if c != j {
					d.delta[c][j] = 1
				}
			case LevelInterval:
				diff := d.values[c] - d.values[j]
				d.delta[c][j] = diff * diff
			case LevelRatio:
				if s := d.values[c] + d.values[j]; s != 0 {
					r := (d.values[c] - d.values[j]) / s
					d.delta[c][j] = r * r
				}
			}
		}
	}
	return d, nil
}

// locate finds the first place a value occurs.
func oldLocate(ratings [][]string, v string) (unit, rater int) {
	for u, r := range ratings {
		for i, l := range r {
			if l == v {
				return u, i
			}
		}
	}
	return 0, 0
}

// alpha evaluates α with unit u counted weights[u] times; ok is false
// when α is undefined (no pairable values, or Dₑ = 0).
func (d *oldAlphaData) alpha(weights []int) (Alpha, bool) {
	k := len(d.labels)
	a := Alpha{Level: d.level, Labels: d.labels}
	o := make([][]float64, k)
	for i := range o {
		o[i] = make([]float64, k)
	}
	for u, sp := range d.units {
		w := weights[u]
		if w == 0 || d.m[u] < 2 {
			continue
		}
		a.Units += w
		scale := float64(w) / float64(d.m[u]-1)
		for x := 0; x < len(sp); x += 2 {
			c, nc := sp[x], sp[x+1]
			for y := 0; y < len(sp); y += 2 {
				j, nj := sp[y], sp[y+1]
				pairs := nc * nj
				if c == j {
					pairs = nc * (nc - 1)
				}
				o[c][j] += float64(pairs) * scale
			}
		}
	}
	nc := make([]float64, k)
	var n float64
	for c := range k {
		for j := range k {
			nc[c] += o[c][j]
		}
		n += nc[c]
	}
	a.Values = int(math.Round(n))
	if a.Units == 0 || n <= 1 {
		return a, false
	}
	delta := d.delta
	if d.level == LevelOrdinal {
		delta = ordinalDelta(nc)
	}
	var do, de, diag, chance float64
	for c := range k {
		diag += o[c][c]
		chance += nc[c] * (nc[c] - 1)
		for j := range k {
			do += o[c][j] * delta[c][j]
			de += nc[c] * nc[j] * delta[c][j]
		}
	}
	a.Observed = do / n
	a.Expected = de / (n * (n - 1))
	a.Agreement = diag / n
	a.ChanceAgreement = chance / (n * (n - 1))
	if de == 0 {
		return a, false
	}
	a.Alpha = 1 - (n-1)*do/de
	return a, true
}

// oldAlpha is KrippendorffAlpha's figures by the code above.
func oldAlpha(ratings [][]string, level Level, order []string) (Alpha, bool, error) {
	d, err := newOldAlphaData(ratings, level, order)
	if err != nil {
		return Alpha{}, false, err
	}
	w := make([]int, len(d.units))
	for i := range w {
		w[i] = 1
	}
	a, ok := d.alpha(w)
	return a, ok, nil
}

// randomTable writes a random label table: an id column, a note column
// whose quoted text sometimes spans two lines (so rows and lines part
// ways), raters with labels from a small scale, some missing (empty, NA
// or "-").
func randomTable(r *rand.Rand, rows, raters int, labels []string) string {
	var b strings.Builder
	b.WriteString("id,note")
	for j := range raters {
		fmt.Fprintf(&b, ",r%d", j+1)
	}
	b.WriteString("\n")
	missing := []string{"", "NA", "-"}
	for i := range rows {
		fmt.Fprintf(&b, "u%d,", r.IntN(1000000)*1000+i)
		if r.IntN(5) == 0 {
			b.WriteString("\"two\nlines\"")
		}
		truth := r.IntN(len(labels))
		for range raters {
			b.WriteString(",")
			switch x := r.Float64(); {
			case x < 0.1:
				b.WriteString(missing[r.IntN(len(missing))])
			case x < 0.7:
				b.WriteString(labels[truth])
			default:
				b.WriteString(labels[r.IntN(len(labels))])
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// AnalyzeCSV (the streaming reader into integer codes, patterns, count
// resampling) gives exactly what Analyze of ReadLabels' table gives, and
// its point estimates equal, bit for bit, those of the string-based
// statistics: WeightedKappa over the items both raters rated,
// FleissKappa, and alpha by the code evalbook used before the one-pass
// version.
func TestCodedAnalysisMatchesStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	scales := [][]string{{"a", "b", "tie"}, {"1", "2", "3", "4", "5"}, {"0", "2.5", "10"}}
	checked := 0
	for round := range 40 {
		raters := 2 + round%3
		labels := scales[round%len(scales)]
		text := randomTable(r, 5+r.IntN(60), raters, labels)
		var names []string
		for j := range raters {
			names = append(names, "r"+strconv.Itoa(j+1))
		}
		tab, err := ReadLabels(strings.NewReader(text), "t.csv", names, "id")
		if err != nil {
			t.Fatal(err)
		}
		opts := []Options{{Metric: MetricFleiss}, {Metric: MetricAlpha}, {Metric: MetricAlpha, Level: LevelOrdinal}}
		if labels[0] != "a" {
			opts = append(opts, Options{Metric: MetricAlpha, Level: LevelInterval}, Options{Metric: MetricAlpha, Level: LevelRatio})
		}
		if raters == 2 {
			opts = append(opts, Options{}, Options{Weights: Linear}, Options{Weights: Quadratic, Order: labels})
		}
		for _, opt := range opts {
			opt.Resamples, opt.Seed = 200, uint64(round)
			fromTable, err1 := Analyze(tab, opt)
			streamed, err2 := AnalyzeCSV(bytes.NewReader([]byte(text)), "t.csv", names, "id", opt)
			if fmt.Sprint(err1) != fmt.Sprint(err2) {
				t.Fatalf("round %d %+v: errors %v and %v", round, opt, err1, err2)
			}
			if err1 != nil {
				continue
			}
			if !reflect.DeepEqual(fromTable, streamed) {
				t.Fatalf("round %d %+v: Analyze %+v, AnalyzeCSV %+v", round, opt, fromTable, streamed)
			}
			checked++
			switch opt.Metric.For(raters) {
			case MetricKappa:
				var x, y []string
				for _, row := range tab.Rows {
					if row.Ratings[0] != "" && row.Ratings[1] != "" {
						x, y = append(x, row.Ratings[0]), append(y, row.Ratings[1])
					}
				}
				order := opt.Order
				if order == nil {
					order = LabelOrder(x, y)
				}
				k, err := WeightedKappa(x, y, order, opt.Weights)
				if err != nil || *streamed.Kappa != k.Kappa || streamed.Observed != k.Observed || streamed.Expected != k.Expected || !reflect.DeepEqual(streamed.Confusion.Rows, k.Confusion.Counts) {
					t.Errorf("round %d %+v: kappa %v %v %v, strings %+v %v", round, opt, *streamed.Kappa, streamed.Observed, streamed.Expected, k, err)
				}
			case MetricFleiss:
				f, err := FleissKappa(tab.Items())
				if err != nil || *streamed.FleissKappa != f.Kappa || streamed.Observed != f.Observed || streamed.Expected != f.Expected || streamed.N != f.Items {
					t.Errorf("round %d: Fleiss %v, strings %+v %v", round, *streamed.FleissKappa, f, err)
				}
			case MetricAlpha:
				order := opt.Order
				if order == nil && opt.Level == LevelOrdinal {
					order = LabelOrder(tab.Items()...)
				}
				a, ok, err := oldAlpha(tab.Items(), opt.Level, order)
				if err != nil || !ok || *streamed.Alpha != a.Alpha || *streamed.ObservedDisagreement != a.Observed || *streamed.ExpectedDisagreement != a.Expected ||
					streamed.Observed != a.Agreement || streamed.Expected != a.ChanceAgreement || streamed.N != a.Units {
					t.Errorf("round %d %v: alpha %v, before %+v %v %v", round, opt.Level, *streamed.Alpha, a, ok, err)
				}
			}
			var want []int
			for _, i := range Disagreements(tab.Items()) {
				want = append(want, tab.Rows[i].Line)
			}
			var got []int
			for _, d := range streamed.Disagreements {
				got = append(got, d.Line)
			}
			if !slices.Equal(got, want) {
				t.Errorf("round %d: disagreements on lines %v, want %v", round, got, want)
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d analyses compared", checked)
	}
}

// The id set finds every duplicate a map finds, through many growths of
// its table, and names the row of the first occurrence.
func TestIDSet(t *testing.T) {
	s := newIDSet()
	ref := map[string]int{}
	r := rand.New(rand.NewPCG(1, 1))
	for range 20000 {
		id := "x" + strconv.Itoa(r.IntN(15000))
		first, dup, _ := s.add([]byte(id))
		want, wantDup := ref[id]
		if dup != wantDup || (dup && first != want) {
			t.Fatalf("%q: (%d, %v), want (%d, %v)", id, first, dup, want, wantDup)
		}
		if !dup {
			ref[id] = len(ref)
		}
	}
	for id, i := range ref {
		if s.get(i) != id {
			t.Fatalf("id %d is %q, want %q", i, s.get(i), id)
		}
	}
}

// A table with more than 65,535 distinct labels moves its codes from 16
// to 32 bits mid-read; every row still decodes to its ratings (the codes'
// width is all that changes).
func TestWideCodes(t *testing.T) {
	units := make([][]string, 70000)
	for i := range units {
		units[i] = []string{strconv.Itoa(i), strconv.Itoa(i + i%3), ""}
	}
	ct := codeRatings(units)
	if ct.codes32 == nil || ct.codes16 != nil {
		t.Fatalf("codes not widened: %d labels", len(ct.labels))
	}
	buf := make([]uint32, 3)
	for i, u := range units {
		r := ct.row(i, buf)
		for j := range u {
			if ct.label(r[j]) != u[j] {
				t.Fatalf("row %d rater %d decodes to %q, want %q", i, j, ct.label(r[j]), u[j])
			}
		}
	}
}
