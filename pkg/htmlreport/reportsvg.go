package htmlreport

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/evalbook/evalbook/pkg/results"
)

// svgLayout is the size of a drawn chart and its text: one for screens
// (600 units wide, scaled up to 720 px) and one for phones (360 units at
// about their own size, so text stays legible), as accuracyChart does.
type svgLayout struct {
	class string
	width float64
	font  float64 // labels
	small float64 // ticks and values
}

var (
	wideLayout   = svgLayout{"wide", 640, 12, 10.5}
	narrowLayout = svgLayout{"narrow", 360, 14, 12}
)

// esc is s escaped for SVG text, with invisible controls shown.
func esc(s string) string { return template.HTMLEscapeString(results.ShowInvisible(s)) }

// textWidth estimates the width of s at font size f: combining marks
// (Devanagari and Bengali vowel signs, viramas) take no width, wide
// scripts (Indic, CJK) more than Latin. It overestimates rather than
// under, so that labels stay inside the picture.
func textWidth(s string, f float64) float64 {
	w := 0.0
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Mn, unicode.Me):
		case unicode.Is(unicode.Mc, r):
			w += 0.35
		case r >= 0x0900 && r <= 0x0DFF:
			w += 0.72
		case r >= 0x1100 && (r <= 0x115F || (r >= 0x2E80 && r <= 0xA4CF) || (r >= 0xAC00 && r <= 0xD7A3) || (r >= 0xFF00 && r <= 0xFF60)):
			w += 1.0
		case unicode.IsUpper(r) || r == 'm' || r == 'w' || r == 'M' || r == 'W':
			w += 0.7
		case r == 'i' || r == 'l' || r == 'j' || r == '.' || r == ',' || r == ' ' || r == '\'' || r == '|':
			w += 0.3
		default:
			w += 0.56
		}
	}
	return w * f
}

// fitText shortens s until it is at most w wide at font size f.
func fitText(s string, w, f float64) string {
	if textWidth(s, f) <= w {
		return s
	}
	// Cut from the middle: labels that share a start (a model, a task)
	// differ at their end (the metric), which must stay readable.
	r := []rune(s)
	head, tail := r[:len(r)/2], r[len(r)/2:]
	short := func() string {
		return strings.TrimRight(string(head), " ") + "…" + strings.TrimLeft(string(tail), " ")
	}
	for len(head)+len(tail) > 1 && textWidth(short(), f) > w {
		if len(head) >= len(tail) || len(tail) == 0 {
			head = head[:len(head)-1]
		} else {
			tail = tail[1:]
		}
	}
	return short()
}

func n1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// axis is a value axis: its range and ticks.
type axis struct {
	lo, hi float64
	ticks  []float64
	unit   string
}

// valueAxis fits an axis to the chart's values and intervals: a rate's
// from 0% to 100% unless the spec fixes it, others padded and rounded to
// nice ticks.
func valueAxis(c results.ChartSpec) axis {
	lo, hi := math.Inf(1), math.Inf(-1)
	see := func(x float64) {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	for _, s := range c.Series {
		for _, p := range s.Points {
			if p.Missing {
				continue
			}
			see(p.Value)
			if p.HasCI {
				see(p.Low)
				see(p.High)
			}
		}
	}
	if c.Reference != nil {
		see(*c.Reference)
	}
	if c.Unit == results.UnitPP {
		see(0) // a difference is read against no change
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1
	}
	if c.Unit == results.UnitRate && c.Min == nil && c.Max == nil && lo >= 0 && hi <= 1 {
		// Rates from 0%; to 100% unless they all sit low (flip rates),
		// where the full scale would squash them.
		lo = 0
		if hi > 0.4 {
			hi = 1
		}
	} else if c.Unit == results.UnitRate || c.Unit == results.UnitCount {
		lo = min(lo, 0)
	}
	if c.Min != nil {
		lo = *c.Min
	}
	if c.Max != nil {
		hi = *c.Max
	}
	if hi <= lo {
		hi = lo + 1
	}
	step := niceStep((hi - lo) / 5)
	a := axis{lo: math.Floor(lo/step+1e-9) * step, hi: math.Ceil(hi/step-1e-9) * step, unit: c.Unit}
	for t := a.lo; t <= a.hi+step/2; t += step {
		a.ticks = append(a.ticks, math.Round(t/step)*step)
	}
	return a
}

// thin keeps every k-th tick so that labels of about w units each fit
// in span units.
func (a axis) thin(span, w float64) []float64 {
	k := 1
	for len(a.ticks) > 1 && float64((len(a.ticks)-1)/k+1)*(w+10) > span && k < len(a.ticks) {
		k++
	}
	var out []float64
	for i, t := range a.ticks {
		if i%k == 0 {
			out = append(out, t)
		}
	}
	return out
}

// widest is the width of the widest tick label at font size f.
func (a axis) widest(f float64) float64 {
	w := 0.0
	for _, t := range a.ticks {
		w = max(w, textWidth(a.tickText(t), f))
	}
	return w
}

func niceStep(x float64) float64 {
	if x <= 0 || math.IsNaN(x) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// tickText is a tick's label: whole percents for rates, points for
// differences, else the value's own format.
func (a axis) tickText(x float64) string {
	switch a.unit {
	case results.UnitRate:
		return strconv.FormatFloat(math.Round(1e6*x)/1e4, 'f', -1, 64) + "%"
	case results.UnitPP:
		s := strconv.FormatFloat(math.Round(1e6*x)/1e4, 'f', -1, 64)
		if x > 0 {
			s = "+" + s
		}
		return strings.Replace(s, "-", "−", 1) + " pp"
	case results.UnitRating, results.UnitCount:
		// In the unit's own format: a rating's ticks read 1000 as its
		// points do ("1096"), not 1,000.
		return results.FormatUnit(a.unit, x)
	}
	return strconv.FormatFloat(math.Round(1e9*x)/1e9, 'g', 4, 64)
}

// pointText is a value and its mark as a chart labels it.
func pointText(unit string, p results.Point) string {
	s := results.FormatUnit(unit, p.Value)
	if p.Mark != "" {
		s += " " + p.Mark
	}
	return s
}

func pointTip(label, series, unit string, p results.Point) string {
	t := label
	if series != "" {
		t += " · " + series
	}
	t += ": " + results.FormatUnit(unit, p.Value)
	if p.HasCI {
		t += ", interval " + results.FormatUnit(unit, p.Low) + " to " + results.FormatUnit(unit, p.High)
	}
	if p.Mark != "" {
		t += " (" + p.Mark + ")"
	}
	return t
}

// drawChart draws c as an inline SVG element for one layout.
func drawChart(c results.ChartSpec, lay svgLayout) template.HTML {
	var b strings.Builder
	switch c.Kind {
	case results.ChartHeatmap:
		heatmapSVG(&b, c, lay)
	case results.ChartPoints, results.ChartLine:
		pointsSVG(&b, c, lay)
	default:
		barsSVG(&b, c, lay)
	}
	return template.HTML(b.String()) // every text from c went through esc
}

// svgOpen starts a chart's svg element; a grid (heatmap) wider than its
// layout is drawn at its own width (the section scrolls sideways).
func svgOpen(b *strings.Builder, c results.ChartSpec, lay svgLayout, w, h float64, grid bool) {
	class, size := "chart "+lay.class, ""
	if grid {
		class += " grid"
		size = ` width="` + n1(w) + `"` // drawn at its own size; wider than the screen, it scrolls
	}
	fmt.Fprintf(b, `<svg class="%s"%s viewBox="0 0 %s %s" role="img" aria-label="%s"><title>%s</title>`,
		class, size, n1(w), n1(h), esc(c.Title), esc(c.Title))
}

// legend draws the series' names when there are several and returns the
// height it took.
func legend(b *strings.Builder, c results.ChartSpec, lay svgLayout, x0 float64) float64 {
	if len(c.Series) < 2 {
		return 0
	}
	x, y := x0, 6.0
	for i, s := range c.Series {
		w := 14 + 5 + textWidth(s.Name, lay.font) + 14
		if x+w > lay.width && x > x0 {
			x, y = x0, y+lay.font+8
		}
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="12" height="12" fill="%s"/><text x="%s" y="%s" font-size="%s">%s</text>`,
			n1(x), n1(y), seriesColors[i%len(seriesColors)], n1(x+17), n1(y+10.5), n1(lay.font), esc(s.Name))
		x += w
	}
	return y + lay.font + 10
}

// barsSVG draws horizontal bars (rates, counts) or dots (other units)
// per category and series, each with its interval as a whisker.
func barsSVG(b *strings.Builder, c results.ChartSpec, lay svgLayout) {
	a := valueAxis(c)
	ns := max(len(c.Series), 1)
	barH := lay.font + 2
	gap := 3.0
	groupGap := lay.font * 0.9
	maxLabel := 0.0
	for _, cat := range c.Categories {
		maxLabel = max(maxLabel, textWidth(cat, lay.font))
	}
	plotX := min(maxLabel+14, lay.width*0.38)
	plotW := lay.width - plotX - 16
	var body strings.Builder
	top := legend(&body, c, lay, plotX)
	plotY := top + lay.small + 10
	groupH := float64(ns)*(barH+gap) - gap
	plotH := float64(len(c.Categories))*(groupH+groupGap) + groupGap
	height := plotY + plotH + 8
	x := func(v float64) float64 { return plotX + (max(a.lo, min(a.hi, v))-a.lo)/(a.hi-a.lo)*plotW }
	bars := c.Unit == results.UnitRate || c.Unit == results.UnitCount
	for _, t := range a.thin(plotW, a.widest(lay.small)) {
		fmt.Fprintf(&body, `<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#dde3ea"/><text x="%s" y="%s" font-size="%s" text-anchor="middle" fill="#555">%s</text>`,
			n1(x(t)), n1(x(t)), n1(plotY), n1(plotY+plotH), n1(x(t)), n1(plotY-4), n1(lay.small), esc(a.tickText(t)))
	}
	if c.Reference != nil {
		fmt.Fprintf(&body, `<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#555" stroke-dasharray="4 3"/>`, n1(x(*c.Reference)), n1(x(*c.Reference)), n1(plotY), n1(plotY+plotH))
	}
	y := plotY + groupGap
	for i, cat := range c.Categories {
		fmt.Fprintf(&body, `<text x="%s" y="%s" font-size="%s" text-anchor="end"><title>%s</title>%s</text>`,
			n1(plotX-6), n1(y+groupH/2+lay.font/3), n1(lay.font), esc(cat), esc(fitText(cat, plotX-10, lay.font)))
		for k, s := range c.Series {
			color := seriesColors[k%len(seriesColors)]
			if i >= len(s.Points) || s.Points[i].Missing {
				y += barH + gap
				continue
			}
			p := s.Points[i]
			mid := y + barH/2
			fmt.Fprintf(&body, `<g><title>%s</title>`, esc(pointTip(cat, seriesName(c, s), c.Unit, p)))
			end := x(p.Value)
			if bars {
				x0 := x(max(0, a.lo))
				fmt.Fprintf(&body, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s"/>`, n1(min(x0, end)), n1(y), n1(math.Abs(end-x0)), n1(barH), color)
			} else {
				fmt.Fprintf(&body, `<circle cx="%s" cy="%s" r="%s" fill="%s"/>`, n1(end), n1(mid), n1(barH/2.6), color)
			}
			lo, hi := end, end
			if p.HasCI {
				lo, hi = x(p.Low), x(p.High)
				fmt.Fprintf(&body, `<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#262626" stroke-width="1.2"/><line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#262626"/><line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#262626"/>`,
					n1(lo), n1(hi), n1(mid), n1(mid), n1(lo), n1(lo), n1(y+2), n1(y+barH-2), n1(hi), n1(hi), n1(y+2), n1(y+barH-2))
			}
			label := pointText(c.Unit, p)
			lw := textWidth(label, lay.small)
			right := max(end, hi) + 4
			if bars && right+lw > lay.width-2 && end-plotX > lw+8 {
				// No room after the whisker: inside the bar, in the ink that
				// reads on the bar's colour, left of the whisker where it fits
				// (the whisker's line would cross a label at the bar's end).
				at := end - 4
				if lo < end && lo-plotX > lw+8 {
					at = lo - 4
				}
				fmt.Fprintf(&body, `<text x="%s" y="%s" font-size="%s" fill="%s" text-anchor="end">%s</text>`, n1(at), n1(mid+lay.small/3), n1(lay.small), inkOn(color), esc(label))
			} else if right+lw <= lay.width-2 {
				fmt.Fprintf(&body, `<text x="%s" y="%s" font-size="%s" fill="#333">%s</text>`, n1(right), n1(mid+lay.small/3), n1(lay.small), esc(label))
			} else if left := min(end, lo) - 4; left-lw >= plotX {
				fmt.Fprintf(&body, `<text x="%s" y="%s" font-size="%s" fill="#333" text-anchor="end">%s</text>`, n1(left), n1(mid+lay.small/3), n1(lay.small), esc(label))
			} else {
				// Over the bar's start: the bar's ink where the bar holds the
				// label, else dark ink on the page.
				ink := darkInk
				if bars && end-plotX > lw+8 {
					ink = inkOn(color)
				}
				fmt.Fprintf(&body, `<text x="%s" y="%s" font-size="%s" fill="%s">%s</text>`, n1(plotX+4), n1(mid+lay.small/3), n1(lay.small), ink, esc(label))
			}
			body.WriteString(`</g>`)
			y += barH + gap
		}
		y += groupGap - gap
	}
	fmt.Fprintf(&body, `<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#888"/>`, n1(plotX), n1(plotX), n1(plotY), n1(plotY+plotH))
	svgOpen(b, c, lay, lay.width, height, false)
	b.WriteString(body.String())
	b.WriteString(`</svg>`)
}

func seriesName(c results.ChartSpec, s results.Series) string {
	if len(c.Series) < 2 {
		return ""
	}
	return s.Name
}

// pointsSVG draws values over ordered categories (runs over time, the
// sizes of a power curve): a point per category and series with its
// interval as a vertical error bar, joined by a line.
func pointsSVG(b *strings.Builder, c results.ChartSpec, lay svgLayout) {
	a := valueAxis(c)
	var body strings.Builder
	yLabelW := 0.0
	for _, t := range a.ticks {
		yLabelW = max(yLabelW, textWidth(a.tickText(t), lay.small))
	}
	plotX := yLabelW + 12
	if c.YLabel != "" {
		plotX += lay.small + 6
	}
	top := legend(&body, c, lay, plotX)
	plotY := top + 12
	plotW := lay.width - plotX - 14
	n := max(len(c.Categories), 1)
	step := plotW / float64(n)
	// Category labels: level when they fit, else slanted.
	maxLabel := 0.0
	for _, cat := range c.Categories {
		maxLabel = max(maxLabel, textWidth(cat, lay.small))
	}
	// Level labels; with more than 8 categories (numbers along a power
	// curve), every k-th of them when k ≤ 3 keeps them apart. Else
	// slanted, as many as keep a line of text between neighbours: slanted
	// 45°, labels a step apart are 0.71 of a step apart across their lines.
	every := max(1, int(math.Ceil((maxLabel+6)/step)))
	slant := every > 3 || (every > 1 && n <= 8)
	if slant {
		every = max(1, int(math.Ceil((lay.small+3)/(step*0.71))))
	}
	labelH := lay.small + 8
	if slant {
		labelH = min(maxLabel, lay.width*0.3)*0.71 + lay.small + 8
	}
	plotH := math.Round(lay.width * 0.42)
	height := plotY + plotH + labelH + 6
	if c.XLabel != "" {
		height += lay.small + 8
	}
	y := func(v float64) float64 { return plotY + plotH - (max(a.lo, min(a.hi, v))-a.lo)/(a.hi-a.lo)*plotH }
	cx := func(i int) float64 { return plotX + step*(float64(i)+0.5) }
	for _, t := range a.ticks {
		fmt.Fprintf(&body, `<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#dde3ea"/><text x="%s" y="%s" font-size="%s" text-anchor="end" fill="#555">%s</text>`,
			n1(plotX), n1(plotX+plotW), n1(y(t)), n1(y(t)), n1(plotX-5), n1(y(t)+lay.small/3), n1(lay.small), esc(a.tickText(t)))
	}
	if c.Reference != nil {
		fmt.Fprintf(&body, `<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#555" stroke-dasharray="4 3"/>`, n1(plotX), n1(plotX+plotW), n1(y(*c.Reference)), n1(y(*c.Reference)))
	}
	if c.YLabel != "" {
		fmt.Fprintf(&body, `<text transform="translate(%s %s) rotate(-90)" font-size="%s" text-anchor="middle" fill="#333">%s</text>`, n1(lay.small), n1(plotY+plotH/2), n1(lay.small), esc(c.YLabel))
	}
	for i, cat := range c.Categories {
		if i%every != 0 {
			continue
		}
		lx, ly := cx(i), plotY+plotH+lay.small+4
		if slant {
			fmt.Fprintf(&body, `<text transform="translate(%s %s) rotate(-45)" font-size="%s" text-anchor="end"><title>%s</title>%s</text>`,
				n1(lx+lay.small/3), n1(ly-2), n1(lay.small), esc(cat), esc(fitText(cat, lay.width*0.3, lay.small)))
		} else {
			fmt.Fprintf(&body, `<text x="%s" y="%s" font-size="%s" text-anchor="middle">%s</text>`, n1(lx), n1(ly), n1(lay.small), esc(cat))
		}
	}
	if c.XLabel != "" {
		fmt.Fprintf(&body, `<text x="%s" y="%s" font-size="%s" text-anchor="middle" fill="#333">%s</text>`, n1(plotX+plotW/2), n1(height-6), n1(lay.small), esc(c.XLabel))
	}
	pointSeries(&body, c, lay, step, cx, y)
	fmt.Fprintf(&body, `<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#888"/>`, n1(plotX), n1(plotX+plotW), n1(plotY+plotH), n1(plotY+plotH))
	svgOpen(b, c, lay, lay.width, height, false)
	b.WriteString(body.String())
	b.WriteString(`</svg>`)
}

// pointSeries draws each series of a points or line chart: its points
// joined by a line, each with its interval as a vertical error bar, side
// by side within a category when there are several series.
func pointSeries(body *strings.Builder, c results.ChartSpec, lay svgLayout, step float64, cx func(int) float64, y func(float64) float64) {
	ns := max(len(c.Series), 1)
	off := func(k int) float64 { // series side by side within a category
		if ns == 1 {
			return 0
		}
		w := min(step*0.5, 8*float64(ns))
		return -w/2 + w*float64(k)/float64(ns-1)
	}
	for k, s := range c.Series {
		color := seriesColors[k%len(seriesColors)]
		var line []string
		for i, p := range s.Points {
			if i >= len(c.Categories) || p.Missing {
				continue
			}
			line = append(line, n1(cx(i)+off(k))+","+n1(y(p.Value)))
		}
		width, opacity := "1.2", ".45"
		if c.Kind == results.ChartLine {
			width, opacity = "2", "1"
		}
		if len(line) > 1 {
			fmt.Fprintf(body, `<polyline points="%s" fill="none" stroke="%s" stroke-width="%s" stroke-opacity="%s"/>`, strings.Join(line, " "), color, width, opacity)
		}
		for i, p := range s.Points {
			if i >= len(c.Categories) || p.Missing {
				continue
			}
			px := cx(i) + off(k)
			fmt.Fprintf(body, `<g><title>%s</title>`, esc(pointTip(c.Categories[i], seriesName(c, s), c.Unit, p)))
			if p.HasCI {
				fmt.Fprintf(body, `<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="%s" stroke-width="1.4"/><line x1="%s" x2="%s" y1="%s" y2="%s" stroke="%s"/><line x1="%s" x2="%s" y1="%s" y2="%s" stroke="%s"/>`,
					n1(px), n1(px), n1(y(p.Low)), n1(y(p.High)), color,
					n1(px-4), n1(px+4), n1(y(p.Low)), n1(y(p.Low)), color,
					n1(px-4), n1(px+4), n1(y(p.High)), n1(y(p.High)), color)
			}
			r := 4.0
			if c.Kind == results.ChartLine {
				r = 2.6
			}
			fmt.Fprintf(body, `<circle cx="%s" cy="%s" r="%s" fill="%s" stroke="#fff" stroke-width="1"/>`, n1(px), n1(y(p.Value)), n1(r), color)
			if ns == 1 && len(c.Categories) <= 12 && c.Kind == results.ChartPoints {
				fmt.Fprintf(body, `<text x="%s" y="%s" font-size="%s" fill="#333">%s</text>`, n1(px+6), n1(y(p.Value)-5), n1(lay.small*0.9), esc(pointText(c.Unit, p)))
			}
			body.WriteString(`</g>`)
		}
	}
}

// heatCell draws cell (i, j) of a heatmap at (x, y): its colour, its
// value and, when s is not empty, s on a second line.
func heatCell(body *strings.Builder, c results.ChartSpec, lay svgLayout, i, j int, row, col string, x, y, cellW, cellH, lo, hi float64, s string) {
	v := math.NaN()
	if i < len(c.Cells) && j < len(c.Cells[i]) {
		v = c.Cells[i][j]
	}
	fill, light := heatColor(c, v, lo, hi)
	text := heatText(c, i, j, v)
	color := "#1d1d1f"
	if light {
		color = "#fff"
	}
	tip := row + " · " + col + ": " + text
	ty := y + cellH/2 + lay.small/3
	second := ""
	if s != "" {
		tip += " (" + s + ")"
		ty = y + lay.small + 4
		second = fmt.Sprintf(`<text x="%s" y="%s" font-size="%s" text-anchor="middle" fill="%s">%s</text>`, n1(x+cellW/2), n1(y+cellH-6), n1(lay.small*0.85), color, esc(s))
	}
	fmt.Fprintf(body, `<g><title>%s</title><rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="#fff"/><text x="%s" y="%s" font-size="%s" font-weight="600" text-anchor="middle" fill="%s">%s</text>%s</g>`,
		esc(tip), n1(x), n1(y), n1(cellW), n1(cellH), fill, n1(x+cellW/2), n1(ty), n1(lay.small), color, esc(text), second)
}

// heatColor is the fill of a heatmap cell of value v and whether its
// text should be white.
func heatColor(c results.ChartSpec, v, lo, hi float64) (string, bool) {
	if math.IsNaN(v) {
		return "#f2f2f2", false
	}
	mix := func(a, b [3]float64, t float64) [3]float64 {
		t = max(0, min(1, t))
		return [3]float64{a[0] + (b[0]-a[0])*t, a[1] + (b[1]-a[1])*t, a[2] + (b[2]-a[2])*t}
	}
	var rgb [3]float64
	white := [3]float64{247, 247, 247}
	if c.Diverging {
		ref := 0.0
		if c.Reference != nil {
			ref = *c.Reference
		}
		span := max(math.Abs(hi-ref), math.Abs(lo-ref), 1e-12)
		t := (v - ref) / span
		if t >= 0 {
			rgb = mix(white, [3]float64{26, 152, 80}, t)
		} else {
			rgb = mix(white, [3]float64{215, 48, 39}, -t)
		}
	} else {
		t := 0.0
		if hi > lo {
			t = (v - lo) / (hi - lo)
		}
		rgb = mix([3]float64{239, 243, 255}, [3]float64{33, 102, 172}, t)
	}
	lum := 0.299*rgb[0] + 0.587*rgb[1] + 0.114*rgb[2]
	return fmt.Sprintf("#%02x%02x%02x", int(rgb[0]), int(rgb[1]), int(rgb[2])), lum < 140
}

// heatRange is the range of a heatmap's values the colours span: a
// rate's 0 to 1 unless the values sit in a narrower band.
func heatRange(c results.ChartSpec) (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range c.Cells {
		for _, v := range r {
			if !math.IsNaN(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
	}
	if math.IsInf(lo, 0) {
		return 0, 1
	}
	if c.Min != nil {
		lo = *c.Min
	}
	if c.Max != nil {
		hi = *c.Max
	}
	return lo, hi
}

// heatmapSVG draws a grid of values, each cell coloured by its value and
// labelled with it (and its mark). The grid keeps legible cells: on a
// phone it is wider than the screen and scrolls sideways.
func heatmapSVG(b *strings.Builder, c results.ChartSpec, lay svgLayout) {
	lo, hi := heatRange(c)
	lay.small = lay.font * 1.1 // a grid is drawn at its own size: its text a little above the labels' size
	maxRow := 0.0
	for _, r := range c.Rows {
		maxRow = max(maxRow, textWidth(r, lay.small))
	}
	plotX := min(maxRow+12, lay.width*0.35)
	cellW := 0.0
	for i := range c.Rows {
		for j := range c.Columns {
			v := math.NaN()
			if i < len(c.Cells) && j < len(c.Cells[i]) {
				v = c.Cells[i][j]
			}
			cellW = max(cellW, textWidth(heatText(c, i, j, v), lay.small)+10)
		}
	}
	nc := max(len(c.Columns), 1)
	sub := func(i, j int) string {
		if i < len(c.Sub) && j < len(c.Sub[i]) {
			return c.Sub[i][j]
		}
		return ""
	}
	twoLines := false
	for i := range c.Rows {
		for j := range c.Columns {
			if s := sub(i, j); s != "" {
				twoLines = true
				cellW = max(cellW, textWidth(s, lay.small*0.85)+10)
			}
		}
	}
	cellW = max(cellW, min((lay.width-plotX-8)/float64(nc), 120))
	cellH := lay.small + 12
	if twoLines {
		cellH = lay.small*2 + 14
	}
	maxCol := 0.0
	for _, col := range c.Columns {
		maxCol = max(maxCol, textWidth(col, lay.small))
	}
	slant := maxCol > cellW-6
	// slanted is column j's label cut to end inside the layout's width
	// (at most 140 units, at least 80, so a cut label still reads): at 390 px the last column's
	// "production_like" ran past the picture.
	slanted := func(j int, col string) string {
		start := plotX + cellW*(float64(j)+0.5) - lay.small/3
		return fitText(col, max(80, min(140, (lay.width-2-start)/0.71-lay.small)), lay.small)
	}
	headH := lay.small + 8
	if slant {
		headH = min(maxCol, 140)*0.71 + lay.small + 6
	}
	width := plotX + cellW*float64(nc) + 8
	if slant {
		// A label slanted up and right from its column's middle ends
		// cos 45° of its length (and of its height) to the right: the
		// last ones can end past the grid.
		width += lay.small
		for j, col := range c.Columns {
			end := plotX + cellW*(float64(j)+0.5) - lay.small/3 + (textWidth(slanted(j, col), lay.small)+lay.small)*0.71 + 2
			width = max(width, end)
		}
	}
	height := headH + cellH*float64(len(c.Rows)) + 6
	var body strings.Builder
	for j, col := range c.Columns {
		x := plotX + cellW*(float64(j)+0.5)
		if slant {
			fmt.Fprintf(&body, `<text transform="translate(%s %s) rotate(-45)" font-size="%s"><title>%s</title>%s</text>`, n1(x-lay.small/3), n1(headH-4), n1(lay.small), esc(col), esc(slanted(j, col)))
		} else {
			fmt.Fprintf(&body, `<text x="%s" y="%s" font-size="%s" text-anchor="middle">%s</text>`, n1(x), n1(headH-6), n1(lay.small), esc(col))
		}
	}
	for i, row := range c.Rows {
		y := headH + cellH*float64(i)
		fmt.Fprintf(&body, `<text x="%s" y="%s" font-size="%s" text-anchor="end"><title>%s</title>%s</text>`, n1(plotX-6), n1(y+cellH/2+lay.small/3), n1(lay.small), esc(row), esc(fitText(row, plotX-8, lay.small)))
		for j, col := range c.Columns {
			heatCell(&body, c, lay, i, j, row, col, plotX+cellW*float64(j), y, cellW, cellH, lo, hi, sub(i, j))
		}
	}
	svgOpen(b, c, lay, width, height, true)
	b.WriteString(body.String())
	b.WriteString(`</svg>`)
}

func heatText(c results.ChartSpec, i, j int, v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	s := results.FormatUnit(c.Unit, v)
	if i < len(c.Marks) && j < len(c.Marks[i]) && c.Marks[i][j] != "" {
		s += c.Marks[i][j]
	}
	return s
}
