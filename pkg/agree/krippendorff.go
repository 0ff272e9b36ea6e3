package agree

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// Level is the level of measurement of Krippendorff's alpha: it chooses
// the difference function δ²(c, k) between two values.
type Level int

const (
	LevelNominal  Level = iota // δ² = 0 if c = k, else 1
	LevelOrdinal               // δ² = (Σ_{g=c}^{k} n_g − (n_c + n_k)/2)², ranks by the order of values
	LevelInterval              // δ² = (c − k)², values are numbers
	LevelRatio                 // δ² = ((c − k)/(c + k))², values are non-negative numbers
)

// ParseLevel reads "nominal", "ordinal", "interval" or "ratio".
func ParseLevel(s string) (Level, error) {
	switch s {
	case "", "nominal":
		return LevelNominal, nil
	case "ordinal":
		return LevelOrdinal, nil
	case "interval":
		return LevelInterval, nil
	case "ratio":
		return LevelRatio, nil
	}
	return 0, fmt.Errorf("agree: unknown level %q (want nominal, ordinal, interval or ratio)", s)
}

// String returns "nominal", "ordinal", "interval" or "ratio", and
// "Level(n)" for a value that is not one of the constants.
func (l Level) String() string {
	if l.check() != nil {
		return fmt.Sprintf("Level(%d)", int(l))
	}
	return [...]string{"nominal", "ordinal", "interval", "ratio"}[l]
}

// check returns an error wrapping ErrInvalid for a level that is not one
// of the constants.
func (l Level) check() error {
	if l < LevelNominal || l > LevelRatio {
		return fmt.Errorf("%w: level %d is not LevelNominal, LevelOrdinal, LevelInterval or LevelRatio", ErrInvalid, int(l))
	}
	return nil
}

// ValueError reports a rating that the interval or ratio level cannot
// use: not a number, not finite, or (ratio level) negative. Unit and Rater
// are 0-based indices into the ratings.
type ValueError struct {
	Unit, Rater int
	Value       string
	Level       Level
	code        uint32 // the value's code in the coded table
}

// Problem says what is wrong with the value, for messages that name the
// rating their own way: "not a number, as the interval level needs",
// "not a finite number, ..." or "negative, and the ratio level needs
// numbers of 0 or more".
func (e *ValueError) Problem() string {
	v, err := strconv.ParseFloat(e.Value, 64)
	switch {
	case err != nil:
		return fmt.Sprintf("not a number, as the %s level needs", e.Level)
	case math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Sprintf("not a finite number, as the %s level needs", e.Level)
	case v < 0 && e.Level == LevelRatio:
		return "negative, and the ratio level needs numbers of 0 or more"
	}
	return fmt.Sprintf("not usable at the %s level", e.Level)
}

func (e *ValueError) Error() string {
	return fmt.Sprintf("agree: unit %d, rater %d: %s is %s", e.Unit+1, e.Rater+1, tabular.Quote(e.Value), e.Problem())
}

// Alpha is Krippendorff's alpha with the quantities it is made of.
type Alpha struct {
	Level Level
	// Units counts the pairable units (two or more ratings); Values the
	// ratings in them (n in Krippendorff's notation).
	Units, Values int
	// Observed and Expected are the disagreements Dₒ and Dₑ.
	Observed, Expected float64
	Alpha              float64
	// Agreement and ChanceAgreement are the nominal observed and chance
	// agreement over pairable values (Σ o_cc / n and
	// Σ n_c(n_c − 1) / (n(n − 1))), reported at every level so that alpha
	// can be read next to kappa.
	Agreement, ChanceAgreement float64
	// Labels lists the values in order.
	Labels   []string
	Warnings []string
	meta     []warnMeta // Warnings' codes and counts, in step
}

// KrippendorffAlpha returns Krippendorff's alpha for ratings[u], the
// values unit u received from its raters ("" is a missing rating), at the
// given level of measurement. order fixes the order of values for the
// ordinal level (nil: LabelOrder; without it, values that are not all
// numbers are taken alphabetically, with a warning) and may not list a
// value twice. It follows K. Krippendorff, "Computing
// Krippendorff's Alpha-Reliability" (2011). With m_u the number of values
// in unit u (units with m_u < 2 are not pairable and are left out),
//
//	o_ck = Σ_u (number of c-k pairs of values in u, ordered, from different raters) / (m_u − 1)
//	n_c  = Σ_k o_ck,  n = Σ_c n_c
//	Dₒ   = (1/n) Σ_c Σ_k o_ck δ²(c, k)
//	Dₑ   = (1/(n(n − 1))) Σ_c Σ_k n_c n_k δ²(c, k)
//	α    = 1 − Dₒ/Dₑ
//
// Errors: ErrNoItems when no unit has two values, ErrOneLabel when all
// pairable values are equal (Dₑ = 0: alpha is undefined), a *ValueError
// for a non-number at the interval or ratio level (or a negative number
// at the ratio level), and ErrInvalid for a level that is not one of the
// constants or an order that lists a value twice.
func KrippendorffAlpha(ratings [][]string, level Level, order []string) (Alpha, error) {
	a, _, err := krippendorffAlpha(ratings, level, order)
	return a, err
}

// krippendorffAlpha is KrippendorffAlpha, with the data for the
// bootstrap.
func krippendorffAlpha(ratings [][]string, level Level, order []string) (Alpha, *alphaData, error) {
	if err := level.check(); err != nil {
		return Alpha{}, nil, err
	}
	if order != nil {
		if err := checkOrder(order); err != nil {
			return Alpha{}, nil, err
		}
	}
	if len(ratings) == 0 {
		return Alpha{}, nil, ErrNoItems
	}
	return krippendorffCoded(codeRatings(ratings), level, order)
}

// krippendorffCoded is KrippendorffAlpha of a coded table, in one pass
// over its units (after grouping them by pattern); a *ValueError names
// the row and rater where the value first appears.
func krippendorffCoded(t *codedTable, level Level, order []string) (Alpha, *alphaData, error) {
	d, err := newAlphaData(t, level, order)
	if err != nil {
		return Alpha{}, nil, err
	}
	a, ok := d.pointAlpha()
	if !ok {
		if a.Values == 0 {
			return a, nil, fmt.Errorf("%w: no unit has two ratings", ErrNoItems)
		}
		return a, nil, ErrOneLabel
	}
	if a.Units < minItems {
		warn(&a.Warnings, &a.meta, CodeFewItems, a.Units, fmt.Sprintf("only %d pairable units: alpha is very uncertain", a.Units))
	}
	if left := t.n - a.Units; left > 0 {
		warn(&a.Warnings, &a.meta, CodeUnpairable, left, fmt.Sprintf("%d %s with fewer than two ratings left out (not pairable)", left, plural(left, "unit", "units")))
	}
	if level == LevelOrdinal && order == nil && !allNumbers(d.labels) {
		warn(&a.Warnings, &a.meta, CodeOrderGuessed, len(d.labels), guessedOrderWarning("ordinal alpha", d.labels))
	}
	return a, d, nil
}

// alphaData holds the units grouped by pattern, ready for repeated
// evaluation (the bootstrap reweights patterns).
type alphaData struct {
	level  Level
	labels []string
	values []float64 // numeric value of each label (interval, ratio)
	pat    *unitPatterns
	delta  [][]float64 // δ² for nominal, interval, ratio; ordinal is recomputed per sample
}

func newAlphaData(t *codedTable, level Level, order []string) (*alphaData, error) {
	if err := level.check(); err != nil {
		return nil, err
	}
	if order != nil {
		if err := checkOrder(order); err != nil {
			return nil, err
		}
	}
	if t.n == 0 {
		return nil, ErrNoItems
	}
	d := &alphaData{level: level}
	if order != nil && level == LevelOrdinal {
		d.labels = slices.Clone(order)
	} else {
		d.labels = sortLabels(slices.Clone(t.labels))
	}
	index := make(map[string]int, len(d.labels))
	for i, l := range d.labels {
		index[l] = i
	}
	code := make(map[string]uint32, len(t.labels))
	for c, l := range t.labels {
		code[l] = uint32(c + 1)
	}
	if level == LevelInterval || level == LevelRatio {
		d.values = make([]float64, len(d.labels))
		for i, l := range d.labels {
			v, err := parseNumber(l)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || (level == LevelRatio && v < 0) {
				c := code[l]
				p := t.first[c-1]
				return nil, &ValueError{Unit: p.row, Rater: p.rater, Value: l, Level: level, code: c}
			}
			d.values[i] = v
		}
	}
	pos := make([]int, len(t.labels))
	for c, l := range t.labels {
		i, ok := index[l]
		if !ok {
			// t.first is in order of appearance, so this is the first
			// rating whose value is not in the order.
			p := t.first[c]
			return nil, fmt.Errorf("agree: unit %d, rater %d: value %s is not in the given order %q", p.row+1, p.rater+1, tabular.Quote(l), order)
		}
		pos[c] = i
	}
	d.pat = groupUnits(t, pos)
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

// add adds pattern p, counted w times, to the coincidences o.
func (d *alphaData) add(o [][]float64, p, w int) {
	sp := d.pat.sparse[p]
	scale := float64(w) / float64(d.pat.m[p]-1)
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

func (d *alphaData) coincidences() [][]float64 {
	k := len(d.labels)
	o := make([][]float64, k)
	for i := range o {
		o[i] = make([]float64, k)
	}
	return o
}

// pointAlpha evaluates α with every unit once, adding the units up in
// their order; ok is false when α is undefined (no pairable values, or
// Dₑ = 0).
func (d *alphaData) pointAlpha() (Alpha, bool) {
	o := d.coincidences()
	units := 0
	for _, p := range d.pat.seq {
		if d.pat.m[p] < 2 {
			continue
		}
		units++
		d.add(o, int(p), 1)
	}
	return d.finish(o, units)
}

// alpha evaluates α with pattern p counted weights[p] times (a
// bootstrap resample); ok as for pointAlpha.
func (d *alphaData) alpha(weights []int) (Alpha, bool) {
	o := d.coincidences()
	units := 0
	for p, w := range weights {
		if w == 0 || d.pat.m[p] < 2 {
			continue
		}
		units += w
		d.add(o, p, w)
	}
	return d.finish(o, units)
}

// finish computes α from the coincidences o of the given number of
// pairable units.
func (d *alphaData) finish(o [][]float64, units int) (Alpha, bool) {
	k := len(d.labels)
	a := Alpha{Level: d.level, Labels: d.labels, Units: units}
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

// ordinalDelta returns δ²(c, k) = (Σ_{g=c}^{k} n_g − (n_c + n_k)/2)² for
// the marginal counts n_g of the values in order.
func ordinalDelta(nc []float64) [][]float64 {
	k := len(nc)
	m := make([][]float64, k)
	for c := range k {
		m[c] = make([]float64, k)
	}
	for c := range k {
		sum := 0.0
		for j := c; j < k; j++ {
			sum += nc[j]
			v := sum - (nc[c]+nc[j])/2
			m[c][j] = v * v
			m[j][c] = v * v
		}
	}
	return m
}
