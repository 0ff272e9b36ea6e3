package htmlreport

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
)

// seriesColors are the bar colours, one per series, the same as the
// workbook's charts and pkg/chart's PNGs: eight that are told apart (the
// fifth used to be a second blue, so a fifth series looked like the
// first).
var seriesColors = []string{"#4472C4", "#ED7D31", "#6E6E6E", "#FFC000", "#70AD47", "#9E480E", "#E377C2", "#17BECF"}

// bucketColors colour the agreement buckets: both, neither, only first, only second.
var bucketColors = map[string]string{"both": "#4E9A5B", "neither": "#B4B4B4", "only_first": "#4472C4", "only_second": "#ED7D31"}

// barChart is the geometry of a horizontal bar chart of accuracy per
// group, one bar per metric, with interval whiskers. Coordinates are in
// SVG user units; the chart scales to its container through its viewBox.
type barChart struct {
	Title         string
	Class         string // "wide" or "narrow": which screens show it
	Width, Height int
	// Font sizes of the group labels, the tick labels and the values.
	FontLabel, FontTick, FontValue float64
	PlotX, PlotW                   int // left edge and width of the plot area
	PlotY, PlotH                   int
	Ticks                          []tick
	Legend                         []legendItem
	Groups                         []barGroup
}

type tick struct {
	X     string
	Label string
}

type legendItem struct {
	X, Y  int // swatch's top left; the label is beside it
	Color string
	Label string
}

type barGroup struct {
	Label  string
	LabelY string
	Bars   []bar
}

type bar struct {
	Y, H, W   string // bar rectangle (x is PlotX)
	Color     string
	Whisker   bool
	Lo, Hi    string // whisker x positions
	MidY      string
	CapY1     string
	CapY2     string
	Tip       string // tooltip: group, metric, accuracy and interval
	Value     string // the accuracy as a label at the bar's end
	ValueX    string
	Dark      bool // value label inside a long bar
	ValueText string
}

// f1 formats a coordinate with one decimal.
func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// chartLayout is the size of a chart and its text: the wide one for
// screens from 600 px, drawn 600 units wide and scaled up to 720 px; the
// narrow one for phones, 360 units wide, drawn at about its own size, so
// its text stays at 13 to 15 px (the wide one scaled down to a phone's
// 374 px would set 12-unit labels at 7 px).
type chartLayout struct {
	class                 string
	width                 int
	label, tick, value    float64
	barH, barGap, groupGp int
}

var (
	wideChart   = chartLayout{"wide", 600, 12, 11, 10.5, 13, 2, 10}
	narrowChart = chartLayout{"narrow", 360, 15, 13, 13, 16, 3, 12}
)

// accuracyChart lays out the chart of one grouping.
func accuracyChart(s *results.Score, by string, groups []results.Group, lay chartLayout) barChart {
	metrics := s.Settings.Metrics
	maxLabel := 0
	for _, g := range groups {
		maxLabel = max(maxLabel, len([]rune(g.Group)))
	}
	barH, barGap, groupGap := lay.barH, lay.barGap, lay.groupGp
	c := barChart{Title: "Accuracy by " + by, Class: lay.class, Width: lay.width, FontLabel: lay.label, FontTick: lay.tick, FontValue: lay.value}
	charW := 0.58 * lay.label // an average glyph's width
	c.PlotX = min(max(int(float64(maxLabel)*charW)+16, 60), c.Width/3)
	c.PlotW = c.Width - c.PlotX - 24
	// The legend, wrapped onto as many lines as it needs.
	lx, ly := c.PlotX, 10
	legendW := 14 + 5 + 12
	for i, id := range metrics {
		w := legendW + int(float64(len([]rune(id)))*charW)
		if lx+w > c.Width && lx > c.PlotX {
			lx, ly = c.PlotX, ly+int(lay.label)+8
		}
		c.Legend = append(c.Legend, legendItem{X: lx, Y: ly, Color: seriesColors[i%len(seriesColors)], Label: id})
		lx += w
	}
	c.PlotY = ly + 14 + 8 + int(lay.tick) + 4
	groupH := len(metrics)*(barH+barGap) - barGap
	c.PlotH = len(groups)*(groupH+groupGap) + groupGap
	c.Height = c.PlotY + c.PlotH + 8
	x := func(v float64) float64 { return float64(c.PlotX) + max(0, min(1, v))*float64(c.PlotW) }
	for i := 0; i <= 10; i += 2 {
		c.Ticks = append(c.Ticks, tick{X: f1(x(float64(i) / 10)), Label: fmt.Sprintf("%d%%", i*10)})
	}
	ci := s.Settings.CI != "none" && s.Settings.CI != ""
	y := float64(c.PlotY + groupGap)
	for _, g := range groups {
		bg := barGroup{Label: g.Group, LabelY: f1(y + float64(groupH)/2 + lay.label/3)}
		for i, id := range metrics {
			ms, ok := g.Metrics[id]
			if !ok && g.N > 0 { // no value of this metric in the group: no bar, an empty slot
				bg.Bars = append(bg.Bars, bar{Y: f1(y), H: "0", W: "0", Color: seriesColors[i%len(seriesColors)], MidY: f1(y + float64(barH)/2), ValueText: "no value", Tip: g.Group + " · " + id + ": no value"})
				y += float64(barH + barGap)
				continue
			}
			w := x(ms.Accuracy) - float64(c.PlotX)
			b := bar{
				Y: f1(y), H: strconv.Itoa(barH), W: f1(w), Color: seriesColors[i%len(seriesColors)],
				MidY: f1(y + float64(barH)/2), CapY1: f1(y + 2), CapY2: f1(y + float64(barH) - 2),
				ValueText: pct(ms.Accuracy),
			}
			b.Tip = fmt.Sprintf("%s · %s: %s (%s of %s)", g.Group, id, pct(ms.Accuracy), trimFloat(ms.Correct), commas(g.N))
			if ci {
				b.Whisker = true
				b.Lo, b.Hi = f1(x(ms.CILow)), f1(x(ms.CIHigh))
				b.Tip += fmt.Sprintf(", interval %s to %s", pct(ms.CILow), pct(ms.CIHigh))
			}
			// The value goes after the whisker, or inside a long bar.
			end := x(ms.Accuracy)
			if ci {
				end = max(end, x(ms.CIHigh))
			}
			if end+4*lay.value > float64(c.Width) {
				b.Dark = true
				b.ValueX = f1(float64(c.PlotX) + 4)
			} else {
				b.ValueX = f1(end + 4)
			}
			bg.Bars = append(bg.Bars, b)
			y += float64(barH + barGap)
		}
		y += float64(groupGap - barGap)
		c.Groups = append(c.Groups, bg)
	}
	return c
}

// bucketBar is one stacked bar of the four agreement buckets.
type bucketBar struct {
	Label    string
	N        int
	Segments []segment
}

type segment struct {
	X, W  string // in percent of the bar
	Color string
	Ink   string // the count's colour on Color (inkOn)
	Tip   string
	Text  string // count, when the segment is wide enough
}

// bucketBars lays out one bar for all rows and one per group.
func bucketBars(a results.Agreement) []bucketBar {
	mk := func(label string, counts map[string]int) bucketBar {
		n := 0
		for _, v := range counts {
			n += v
		}
		bb := bucketBar{Label: label, N: n}
		x := 0.0
		for _, b := range results.Buckets {
			v := counts[b.Name]
			if n == 0 || v == 0 {
				continue
			}
			w := 100 * float64(v) / float64(n)
			sg := segment{X: f1(x), W: f1(w), Color: bucketColors[b.Name], Ink: inkOn(bucketColors[b.Name]),
				Tip: fmt.Sprintf("%s, %s: %d of %d rows (%s)", label, b.Name, v, n, pct(float64(v)/float64(n)))}
			if w >= 6 {
				sg.Text = strconv.Itoa(v)
			}
			bb.Segments = append(bb.Segments, sg)
			x += w
		}
		return bb
	}
	out := []bucketBar{mk("all rows", map[string]int{"both": a.Both, "neither": a.Neither, "only_first": a.OnlyFirst, "only_second": a.OnlySecond})}
	for _, g := range a.Groups {
		out = append(out, mk(g.Group, map[string]int{"both": g.Both, "neither": g.Neither, "only_first": g.OnlyFirst, "only_second": g.OnlySecond}))
	}
	return out
}

// inkOn is the colour of a label drawn on a fill of colour hex (#RRGGBB):
// white or near-black, whichever contrasts more (WCAG relative luminance),
// so that a value inside a gold or orange bar stays readable.
func inkOn(hex string) string {
	l := luminance(hex)
	if (1.05)/(l+0.05) >= (l+0.05)/(luminance(darkInk)+0.05) {
		return "#fff"
	}
	return darkInk
}

const darkInk = "#1d1d1f"

// luminance is the WCAG 2 relative luminance of #RRGGBB.
func luminance(hex string) float64 {
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil {
		return 0
	}
	lin := func(c uint64) float64 {
		x := float64(c) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(v>>16&0xff) + 0.7152*lin(v>>8&0xff) + 0.0722*lin(v&0xff)
}
