package chart

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Series is one series of Bars: a value per category and, optionally,
// the interval around each value (Low and High, both nil or both of the
// categories' length; a NaN bound draws no whisker for that category).
type Series struct {
	Name      string
	Values    []float64
	Low, High []float64
}

// Bars draws one's own numbers in the library's style: one horizontal
// bar per series and category, the first category at the top, the
// series in the library's colours with a legend, and each interval as a
// whisker. When every value and bound lies in [0, 1], the axis is a
// percentage axis from 0 to 100% (rates); otherwise a plain axis that
// starts at 0 (or below, for negative values). Set the axis label with
// f.Plot.X.Label.Text.
func Bars(title string, categories []string, series ...Series) (*Figure, error) {
	if len(categories) == 0 {
		return nil, fmt.Errorf("chart: Bars %q has no categories", title)
	}
	if len(series) == 0 {
		return nil, fmt.Errorf("chart: Bars %q has no series", title)
	}
	rate := true
	out := make([]rateSeries, len(series))
	for j, s := range series {
		if len(s.Values) != len(categories) {
			return nil, fmt.Errorf("chart: series %q has %d values for %d categories", s.Name, len(s.Values), len(categories))
		}
		if (s.Low == nil) != (s.High == nil) || s.Low != nil && (len(s.Low) != len(categories) || len(s.High) != len(categories)) {
			return nil, fmt.Errorf("chart: series %q: Low and High must both be nil or both have %d values", s.Name, len(categories))
		}
		sr := rateSeries{name: s.Name, vals: s.Values}
		for i, v := range s.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("chart: series %q, category %q: the value is %v", s.Name, categories[i], v)
			}
			rate = rate && v >= 0 && v <= 1
		}
		if s.Low != nil {
			sr.lo, sr.hi, sr.whisker = s.Low, s.High, make([]bool, len(categories))
			for i := range s.Low {
				lo, hi := s.Low[i], s.High[i]
				if math.IsNaN(lo) || math.IsNaN(hi) {
					continue
				}
				if math.IsInf(lo, 0) || math.IsInf(hi, 0) || lo > hi {
					return nil, fmt.Errorf("chart: series %q, category %q: the interval %v to %v", s.Name, categories[i], lo, hi)
				}
				sr.whisker[i] = true
				rate = rate && lo >= 0 && hi <= 1
			}
		}
		out[j] = sr
	}
	return bars(title, "", categories, out, rate)
}

// Frame is a table given as text records, the header first: a gota
// DataFrame (dataframe.DataFrame.Records) or any table a notebook holds.
// pkg/chart reads it through this method so that it needs no gota.
type Frame interface {
	Records() [][]string
}

// FromFrame draws columns of a table as Bars: one category per row, named
// by the label column, and one series per value column. A value column
// V gets whiskers from the columns that bound it, when the table has
// them: V_low and V_high, "V low" and "V high", or, for V named
// X_accuracy (frame.Groups), X_ci_low and X_ci_high. The title names the
// columns; change it with f.Plot.Title.Text.
func FromFrame(df Frame, label string, values ...string) (*Figure, error) {
	recs := df.Records()
	if len(recs) == 0 {
		return nil, fmt.Errorf("chart: FromFrame: no header")
	}
	head, rows := recs[0], recs[1:]
	col := func(name string) int { return slices.Index(head, name) }
	li := col(label)
	if li < 0 {
		return nil, fmt.Errorf("chart: FromFrame: no column %q (columns: %s)", label, strings.Join(head, ", "))
	}
	if len(values) == 0 {
		return nil, fmt.Errorf("chart: FromFrame: name the columns to draw (columns: %s)", strings.Join(head, ", "))
	}
	num := func(c int) ([]float64, error) {
		out := make([]float64, len(rows))
		for i, r := range rows {
			x, err := strconv.ParseFloat(strings.TrimSpace(r[c]), 64)
			if err != nil {
				if r[c] == "" || r[c] == "NaN" {
					x = math.NaN()
				} else {
					return nil, fmt.Errorf("chart: FromFrame: column %q, row %d: %q is not a number", head[c], i+1, r[c])
				}
			}
			out[i] = x
		}
		return out, nil
	}
	cats := make([]string, len(rows))
	for i, r := range rows {
		cats[i] = r[li]
	}
	var series []Series
	for _, v := range values {
		vi := col(v)
		if vi < 0 {
			return nil, fmt.Errorf("chart: FromFrame: no column %q (columns: %s)", v, strings.Join(head, ", "))
		}
		s := Series{Name: v}
		var err error
		if s.Values, err = num(vi); err != nil {
			return nil, err
		}
		for _, b := range boundNames(v) {
			lo, hi := col(b[0]), col(b[1])
			if lo < 0 || hi < 0 {
				continue
			}
			if s.Low, err = num(lo); err != nil {
				return nil, err
			}
			if s.High, err = num(hi); err != nil {
				return nil, err
			}
			break
		}
		series = append(series, s)
	}
	return Bars(strings.Join(values, ", ")+" by "+label, cats, series...)
}

// boundNames lists the pairs of column names that may bound column v.
func boundNames(v string) [][2]string {
	out := [][2]string{{v + "_low", v + "_high"}, {v + " low", v + " high"}}
	if x, ok := strings.CutSuffix(v, "_accuracy"); ok {
		out = append(out, [2]string{x + "_ci_low", x + "_ci_high"})
	}
	return out
}

// Style gives a plot of one's own (gonum/plot) the library's look: its
// fonts and sizes, Hindi and Bengali labels shaped, the legend inside the
// plot at the top right; and returns it as a Figure of
// 460 by 300 points, whose Warnings name labels the fonts cannot draw.
// Call it after setting the title and labels and adding the plotters;
// give bars and lines the series colours (chart.Colors) yourself, as
// gonum/plot cannot recolour what was added.
func Style(p *plot.Plot) *Figure {
	q := newPlot(p.Title.Text)
	p.Title.TextStyle, p.Title.Padding = q.Title.TextStyle, q.Title.Padding
	for i, ax := range []*plot.Axis{&p.X, &p.Y} {
		qa := []*plot.Axis{&q.X, &q.Y}[i]
		ax.Label.TextStyle.Font = qa.Label.TextStyle.Font
		ax.Label.TextStyle.Handler = qa.Label.TextStyle.Handler
		ax.Tick.Label.Font = qa.Tick.Label.Font
		ax.Tick.Label.Handler = qa.Tick.Label.Handler
	}
	p.Legend.TextStyle = q.Legend.TextStyle
	p.Legend.XOffs, p.Legend.YOffs, p.Legend.Padding, p.Legend.ThumbnailWidth = q.Legend.XOffs, q.Legend.YOffs, q.Legend.Padding, q.Legend.ThumbnailWidth
	p.Legend.Top = true
	if q.TextHandler != nil {
		p.TextHandler = q.TextHandler
	}
	return &Figure{Plot: p, Width: vg.Points(460), Height: vg.Points(300), Warnings: textWarnings(labelsOf(p))}
}
