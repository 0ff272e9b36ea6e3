// Package chart draws the figures of evalbook's results with gonum/plot:
// accuracy per group (metrics side by side, interval error bars), the
// pass rates of two versions compared, the agreement buckets of two
// metrics, a confusion heat map for rater agreement, and per-kind
// calibration bars for a judge. Each function
// returns a Figure, which writes itself as PNG or SVG to an io.Writer.
// One's own numbers get the same look through Bars (slices), FromFrame
// (a table, such as a gota DataFrame) and Style (a gonum plot of one's
// own).
//
// Groups and kinds go down the vertical axis with horizontal bars, and
// the figure grows with their number, so 20 or more labels stay legible.
//
// Text is drawn in Noto Sans, Noto Sans Devanagari and Noto Sans Bengali,
// found on the system (FontDirs; Debian's fonts-noto-core), each label
// split by script and shaped with go-text's HarfBuzz port, and filled as
// glyph outlines, so Hindi and Bengali labels read correctly in PNG and
// PDF (SVG keeps text as text, which the browser shapes). Without those fonts, charts fall back to gonum/plot's
// Liberation Sans (Latin only), and a figure whose labels need the
// missing fonts says so in Figure.Warnings (code chart_font_missing)
// rather than drawing boxes silently.
package chart

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure is a plot with the size it is meant to be drawn at.
type Figure struct {
	Plot          *plot.Plot
	Width, Height vg.Length
	// Warnings says which labels the charts' fonts cannot draw (codes
	// chart_font_missing and chart_text_unshapable); nil when all can.
	Warnings []results.Warning
}

// Write draws the figure in the given format ("png", "svg", "pdf", ...,
// as gonum/plot names them) to w, with a margin of 6 points on the left
// and right and 3 above and below, so no label touches the image's edge.
func (f *Figure) Write(w io.Writer, format string) error {
	c, err := draw.NewFormattedCanvas(f.Width, f.Height, format)
	if err != nil {
		return err
	}
	mx, my := vg.Points(6), vg.Points(3)
	f.Plot.Draw(draw.Crop(draw.New(c), mx, -mx, my, -my))
	_, err = c.WriteTo(w)
	return err
}

// PNG draws the figure as PNG (96 dots per inch) to w.
func (f *Figure) PNG(w io.Writer) error { return f.Write(w, "png") }

// SVG draws the figure as SVG to w.
func (f *Figure) SVG(w io.Writer) error { return f.Write(w, "svg") }

// Bytes returns the figure drawn in the given format.
func (f *Figure) Bytes(format string) ([]byte, error) {
	var buf bytes.Buffer
	err := f.Write(&buf, format)
	return buf.Bytes(), err
}

// Colors are the series colours, one per metric, the same as the
// workbook's and the HTML report's.
var Colors = []color.Color{
	rgb(0x4472C4), rgb(0xED7D31), rgb(0x6E6E6E), rgb(0xFFC000),
	rgb(0x70AD47), rgb(0x9E480E), rgb(0xE377C2), rgb(0x17BECF),
}

func rgb(x uint32) color.RGBA {
	return color.RGBA{R: uint8(x >> 16), G: uint8(x >> 8), B: uint8(x), A: 255}
}

var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// newPlot makes a plot with sans-serif text of readable sizes.
func newPlot(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = sans
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.Title.Padding = vg.Points(6)
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = sans
		ax.Label.TextStyle.Font.Size = vg.Points(11)
		ax.Tick.Label.Font = sans
		ax.Tick.Label.Font.Size = vg.Points(10)
	}
	p.Legend.TextStyle.Font = sans
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	// Inside the plot area, clear of its edges, so no swatch is clipped.
	p.Legend.XOffs = -vg.Points(18)
	p.Legend.YOffs = -vg.Points(6)
	p.Legend.Padding = vg.Points(3)
	p.Legend.ThumbnailWidth = vg.Points(14)
	useText(p)
	return p
}

// labelsOf returns every text of p that a chart draws: title, axis
// labels and the given tick and legend labels.
func labelsOf(p *plot.Plot, more ...[]string) []string {
	out := []string{p.Title.Text, p.X.Label.Text, p.Y.Label.Text}
	for _, m := range more {
		out = append(out, m...)
	}
	return out
}

// percentTicks marks a [0,1] axis every 10% with labels every 20%.
type percentTicks struct{}

func (percentTicks) Ticks(min, max float64) []plot.Tick {
	var t []plot.Tick
	for i := 0; i <= 10; i++ {
		x := float64(i) / 10
		if x < min-1e-9 || x > max+1e-9 {
			continue
		}
		lab := ""
		if i%2 == 0 {
			lab = fmt.Sprintf("%d%%", i*10)
		}
		t = append(t, plot.Tick{Value: x, Label: lab})
	}
	return t
}

// whiskers draws interval bars across horizontal bars: from lo to hi at
// each category's y, moved by the bar's offset, with end caps.
type whiskers struct {
	lo, hi, y []float64
	offset    vg.Length
	cap       vg.Length
	style     draw.LineStyle
}

func (w *whiskers) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i := range w.lo {
		y := trY(w.y[i]) + w.offset
		x0, x1 := trX(w.lo[i]), trX(w.hi[i])
		c.StrokeLine2(w.style, x0, y, x1, y)
		c.StrokeLine2(w.style, x0, y-w.cap, x0, y+w.cap)
		c.StrokeLine2(w.style, x1, y-w.cap, x1, y+w.cap)
	}
}

// Accuracy draws accuracy per group of one grouping of s (by is a value
// of results.Group.By): one horizontal bar per metric and group, the
// first group at the top, and the interval as an error bar when s has
// intervals.
func Accuracy(s *results.Score, by string) (*Figure, error) {
	var groups []results.Group
	for _, g := range s.Groups {
		if g.By == by {
			groups = append(groups, g)
		}
	}
	if len(groups) == 0 {
		return nil, fmt.Errorf("chart: no groups for grouping %q", by)
	}
	metrics := s.Settings.Metrics
	if len(metrics) == 0 {
		return nil, fmt.Errorf("chart: the result has no metrics")
	}
	title := "Accuracy by " + by
	hasCI := s.Settings.CI != "none" && s.Settings.CI != ""
	if hasCI {
		title += fmt.Sprintf(" (whiskers: %g%% %s interval)", 100*s.Settings.Confidence, s.Settings.CI)
	}
	names := make([]string, len(groups))
	series := make([]rateSeries, len(metrics))
	for i, g := range groups {
		names[i] = g.Group
	}
	for j, id := range metrics {
		sr := rateSeries{name: id, vals: make([]float64, len(groups))}
		if hasCI {
			sr.lo, sr.hi = make([]float64, len(groups)), make([]float64, len(groups))
		}
		for i, g := range groups {
			ms := g.Metrics[id]
			sr.vals[i] = ms.Accuracy
			if hasCI {
				sr.lo[i], sr.hi[i] = ms.CILow, ms.CIHigh
			}
		}
		series[j] = sr
	}
	return rateBars(title, "accuracy", names, series)
}

// rateSeries is one series of rateBars: a rate per category and, where
// lo and hi are set (not nil, and whisker[i] true or whisker nil), an
// interval drawn as a whisker.
type rateSeries struct {
	name         string
	vals, lo, hi []float64
	whisker      []bool
}

// rateBars draws rates in [0, 1] as horizontal bars: one category per
// name, the first at the top, and within each one bar per series, in the
// legend's order, with its whiskers.
func rateBars(title, xLabel string, names []string, series []rateSeries) (*Figure, error) {
	return bars(title, xLabel, names, series, true)
}

// bars draws rateBars' figure; with rate false, the values are any
// numbers, on a plain axis from min(0, lowest) to the highest plus a
// tenth.
func bars(title, xLabel string, names []string, series []rateSeries, rate bool) (*Figure, error) {
	p := newPlot(title)
	n, m := len(names), len(series)
	// Each category gets one unit; its bars share 80% of it.
	rowH := vg.Points(float64(min(max(12, 40/m), 16)))
	barW := rowH
	groupH := vg.Length(m)*barW + vg.Points(8)
	legendH := vg.Points(float64(13*m + 10))
	height := vg.Points(90) + vg.Length(n)*groupH + legendH
	labels := make([]string, n)
	ys := make([]float64, n)
	for i, name := range names {
		labels[n-1-i] = name // the first category at the top
		ys[i] = float64(n - 1 - i)
	}
	for j, sr := range series {
		vals := make(plotter.Values, n)
		for i, v := range sr.vals {
			vals[n-1-i] = v
		}
		bars, err := plotter.NewBarChart(vals, barW)
		if err != nil {
			return nil, err
		}
		bars.Horizontal = true
		bars.Color = Colors[j%len(Colors)]
		bars.LineStyle.Width = 0
		// Series stack downwards within a category, in the legend's order.
		bars.Offset = vg.Length(float64(m-1)/2-float64(j)) * barW
		p.Add(bars)
		p.Legend.Add(sr.name, bars)
		if sr.lo != nil {
			w := &whiskers{offset: bars.Offset, cap: barW / 3,
				style: draw.LineStyle{Color: color.Gray{Y: 0x26}, Width: vg.Points(1)}}
			for i := range sr.lo {
				if sr.whisker == nil || sr.whisker[i] {
					w.lo, w.hi, w.y = append(w.lo, sr.lo[i]), append(w.hi, sr.hi[i]), append(w.y, ys[i])
				}
			}
			p.Add(w)
		}
	}
	p.NominalY(labels...)
	if rate {
		p.X.Min, p.X.Max = 0, 1
		p.X.Tick.Marker = percentTicks{}
	} else {
		lo, hi := 0.0, 0.0
		for _, sr := range series {
			for i, v := range sr.vals {
				lo, hi = min(lo, v), max(hi, v)
				if sr.lo != nil && (sr.whisker == nil || sr.whisker[i]) {
					lo, hi = min(lo, sr.lo[i]), max(hi, sr.hi[i])
				}
			}
		}
		if hi == lo {
			hi = lo + 1
		}
		pad := (hi - lo) / 10
		p.X.Min, p.X.Max = lo, hi+pad
		if lo < 0 {
			p.X.Min = lo - pad
		}
	}
	p.X.Label.Text = xLabel
	p.Add(plotter.NewGrid())
	// Leave room above the first category for the legend, at the top right.
	p.Legend.Top = true
	p.Legend.Left = false
	p.Y.Padding = 0
	p.Y.Min = -0.5
	p.Y.Max = float64(n) - 0.5 + float64(legendH/groupH)
	width := vg.Points(460) + labelWidth(labels)
	legend := make([]string, len(series))
	for j, sr := range series {
		legend[j] = sr.name
	}
	return &Figure{Plot: p, Width: width, Height: max(height, vg.Points(200)), Warnings: textWarnings(labelsOf(p, labels, legend))}, nil
}

// Comparison draws the pass rates of the two versions of a comparison
// side by side: over all cases first, with the result's intervals as
// whiskers, then per group (the result has no interval for a group, so
// its bars have none).
func Comparison(c *results.Comparison) (*Figure, error) {
	if c.N == 0 {
		return nil, fmt.Errorf("chart: the comparison has no cases")
	}
	title := "Pass rate"
	if c.By != "" {
		title += " by " + c.By
	}
	title += fmt.Sprintf(" (whiskers: %g%% %s interval, all cases)", 100*c.Confidence, c.CI)
	xLabel := "pass rate"
	if c.Metric != "" {
		xLabel += " (" + c.Metric + ")"
	}
	names, series := comparisonSeries(c)
	return rateBars(title, xLabel, names, series)
}

// comparisonSeries returns Comparison's categories and its two series.
func comparisonSeries(c *results.Comparison) ([]string, []rateSeries) {
	names := []string{"all cases"}
	old := rateSeries{name: c.OldFile, vals: []float64{c.Old}, lo: []float64{c.OldCILow}, hi: []float64{c.OldCIHigh}, whisker: []bool{true}}
	new := rateSeries{name: c.NewFile, vals: []float64{c.New}, lo: []float64{c.NewCILow}, hi: []float64{c.NewCIHigh}, whisker: []bool{true}}
	for _, g := range c.Groups {
		names = append(names, g.Group)
		for _, sr := range []*rateSeries{&old, &new} {
			sr.lo, sr.hi, sr.whisker = append(sr.lo, 0), append(sr.hi, 0), append(sr.whisker, false)
		}
		old.vals, new.vals = append(old.vals, g.Old), append(new.vals, g.New)
	}
	return names, []rateSeries{old, new}
}

// labelWidth estimates the room the longest label needs.
func labelWidth(names []string) vg.Length {
	w := 0
	for _, s := range names {
		w = max(w, len([]rune(s)))
	}
	return vg.Points(float64(min(w, 40) * 6))
}

// Agreement draws the four buckets of two metrics as horizontal bars with
// their counts.
func Agreement(a results.Agreement) (*Figure, error) {
	p := newPlot(fmt.Sprintf("%s (first) and %s (second), %d rows", a.First, a.Second, a.Total()))
	var vals plotter.Values
	var names []string
	var labels []string
	var xys plotter.XYs
	for i := len(results.Buckets) - 1; i >= 0; i-- { // "both" at the top
		b := results.Buckets[i]
		v := a.Count(b.Name)
		name := b.Name
		switch b.Name {
		case "only_first":
			name = "only " + a.First
		case "only_second":
			name = "only " + a.Second
		}
		vals = append(vals, float64(v))
		names = append(names, name)
		share := ""
		if t := a.Total(); t > 0 {
			share = fmt.Sprintf(" (%.1f%%)", 100*float64(v)/float64(t))
		}
		labels = append(labels, fmt.Sprintf(" %d%s", v, share))
		xys = append(xys, plotter.XY{X: float64(v), Y: float64(len(vals) - 1)})
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(22))
	if err != nil {
		return nil, err
	}
	bars.Horizontal = true
	bars.Color = Colors[0]
	bars.LineStyle.Width = 0
	p.Add(bars)
	lab, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
	if err != nil {
		return nil, err
	}
	for i := range lab.TextStyle {
		lab.TextStyle[i].Font = sans
		lab.TextStyle[i].Font.Size = vg.Points(10)
		lab.TextStyle[i].YAlign = draw.YCenter
		shapeLabel(&lab.TextStyle[i])
	}
	p.Add(lab)
	p.NominalY(names...)
	p.X.Min = 0
	p.X.Max = float64(a.Total()) * 1.2
	if p.X.Max == 0 {
		p.X.Max = 1
	}
	p.X.Label.Text = "rows"
	p.Add(plotter.NewGrid())
	return &Figure{Plot: p, Width: vg.Points(460) + labelWidth(names), Height: vg.Points(200), Warnings: textWarnings(labelsOf(p, names))}, nil
}

// Slug turns a grouping or metric name into a file-name part: lower-case
// letters, digits and dashes.
func Slug(s string) string {
	var sb strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
			sb.WriteRune(r)
			dash = false
		} else if !dash && sb.Len() > 0 {
			sb.WriteByte('-')
			dash = true
		}
	}
	out := strings.TrimRight(sb.String(), "-")
	if out == "" {
		out = "x"
	}
	return out
}

// Named is a figure with a file-name stem.
type Named struct {
	Name   string
	Figure *Figure
}

// ScoreFigures returns every figure of a score result, in a stable order:
// "accuracy-by-<grouping>" for each grouping, then
// "agreement-<first>-<second>" for each pair of metrics.
func ScoreFigures(s *results.Score) ([]Named, error) {
	var out []Named
	seen, names := map[string]bool{}, map[string]bool{}
	add := func(name string, f *Figure) {
		base := name
		for i := 2; names[name]; i++ {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		names[name] = true
		out = append(out, Named{name, f})
	}
	for _, g := range s.Groups {
		if seen[g.By] {
			continue
		}
		seen[g.By] = true
		f, err := Accuracy(s, g.By)
		if err != nil {
			return nil, err
		}
		add("accuracy-by-"+Slug(g.By), f)
	}
	for _, a := range s.Agreement {
		f, err := Agreement(a)
		if err != nil {
			return nil, err
		}
		add("agreement-"+Slug(a.First)+"-"+Slug(a.Second), f)
	}
	return out, nil
}

// TableRates draws the rate columns of a table as horizontal bars: one
// category per row, named by the row's first cell, and one series per
// column of kind rate, in column order. An empty or unparsable cell is a
// missing value and draws no bar. It charts any result's Tables() and
// any table a notebook builds, so a series of results (a sweep over a
// setting, say) needs no result type of its own.
func TableRates(t *results.Table, xLabel string) (*Figure, error) {
	if err := t.Check(); err != nil {
		return nil, err
	}
	if len(t.Rows) == 0 {
		return nil, fmt.Errorf("chart: table %q has no rows", t.Title)
	}
	names := make([]string, len(t.Rows))
	for i, r := range t.Rows {
		names[i] = r[0]
	}
	var series []rateSeries
	for j, c := range t.Columns {
		if j == 0 || c.Kind != results.KindRate {
			continue
		}
		sr := rateSeries{name: c.Name, vals: make([]float64, len(t.Rows))}
		for i, r := range t.Rows {
			if x, ok := results.Number(r[j]); ok && x >= 0 && x <= 1 {
				sr.vals[i] = x
			}
		}
		series = append(series, sr)
	}
	if len(series) == 0 {
		return nil, fmt.Errorf("chart: table %q has no rate column to draw", t.Title)
	}
	return rateBars(t.Title, xLabel, names, series)
}
