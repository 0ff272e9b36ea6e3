package results

import (
	"math"
	"strconv"
	"strings"
)

// This file is the renderer-neutral part of a report's design: what a
// result says first (its Headline: a verdict in plain words and figure
// cards with intervals) and the charts it wants drawn (ChartSpec). A
// Report may implement Headliner and Charter besides Tables; the HTML
// page (pkg/htmlreport) draws the headline at the top and each chart as
// inline SVG, the workbook (pkg/xlsxreport) writes them on its Summary
// sheet and as native Excel charts. Neither renderer recomputes a figure.

// Units of a figure, a chart's values and a table column (Column.Kind).
// Every renderer shows them the same way (FormatUnit): a rate as a
// percentage with one decimal, a difference of rates in percentage
// points, a p-value with three decimals or "< 0.001", a rating as a
// whole number, a count as an integer.
const (
	UnitRate   = KindRate   // a proportion in [0,1]: 62.9%
	UnitNumber = KindNumber // a measure: 0.658 (three decimals), or an integer
	UnitPP     = KindPP     // a difference of two rates, stored as a fraction: +3.1 pp
	UnitP      = KindP      // a p-value: 0.003, < 0.001
	UnitRating = KindRating // an Elo-style rating: 1094
	UnitCount  = KindCount  // a count: 33,390
)

// Headline is what a report says first: one sentence a manager can
// forward, how it reads (Tone), an optional badge (a gate's RELEASE /
// NO RELEASE), a line naming what was compared (run titles, the inputs'
// base names; never a folder of the machine that made it), and the
// figure cards.
type Headline struct {
	Verdict string `json:"verdict"`
	// Tone is ToneGood, ToneBad, ToneWarn or ToneNeutral (the default).
	Tone  string `json:"tone,omitempty"`
	Badge string `json:"badge,omitempty"`
	// Subject names what the report is about, e.g. "v1-verdicts.csv →
	// v2-verdicts.csv, metric correct".
	Subject string `json:"subject,omitempty"`
	Cards   []Card `json:"cards,omitempty"`
	// Notes are further sentences shown under the verdict (a caveat, a
	// count of warnings).
	Notes []string `json:"notes,omitempty"`
}

// Tones of a Headline.
const (
	ToneGood    = "good"
	ToneBad     = "bad"
	ToneWarn    = "warn"
	ToneNeutral = "neutral"
)

// Card is one key figure: its label, value and unit, and its interval
// when it has one.
type Card struct {
	Label string  `json:"label"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
	// HasCI says Low and High bound Value.
	HasCI bool    `json:"has_ci,omitempty"`
	Low   float64 `json:"low,omitempty"`
	High  float64 `json:"high,omitempty"`
	// Text, when set, is shown instead of the value (a tier, "none").
	Text string `json:"text,omitempty"`
	// Note is a short line under the figure ("212 of 337 cases").
	Note string `json:"note,omitempty"`
}

// Shown is the card's value as every renderer writes it.
func (c Card) Shown() string {
	if c.Text != "" {
		return c.Text
	}
	return FormatUnit(c.Unit, c.Value)
}

// Interval is the card's interval as text ("58.1% to 67.5%"), or ""
// when it has none or none that shows (both ends format alike).
func (c Card) Interval() string {
	if !c.HasCI || FormatUnit(c.Unit, c.Low) == FormatUnit(c.Unit, c.High) {
		return ""
	}
	return FormatUnit(c.Unit, c.Low) + " to " + FormatUnit(c.Unit, c.High)
}

// Headliner is a Report that says its headline.
type Headliner interface {
	Headline() Headline
}

// Chart kinds.
const (
	// ChartBars: one horizontal bar per category and series, with the
	// interval as a whisker (the shape of score's accuracy chart).
	ChartBars = "bars"
	// ChartPoints: a point per category and series with its interval as
	// an error bar, categories in order along the x axis (history over
	// runs, a difference per group).
	ChartPoints = "points"
	// ChartLine: a line per series over ordered categories (a power curve).
	ChartLine = "line"
	// ChartHeatmap: a grid of values (rows × columns), coloured by value.
	ChartHeatmap = "heatmap"
)

// ChartSpec is one chart a result wants drawn, in the result's own
// terms: categories, series of values with their intervals, or a grid.
type ChartSpec struct {
	Kind  string `json:"kind"`
	Title string `json:"title"`
	// Note says how to read the chart ("whiskers: 95% Wilson intervals").
	Note string `json:"note,omitempty"`
	// Unit of the values (UnitRate, UnitPP, ...); it sets the axis.
	Unit string `json:"unit"`
	// XLabel and YLabel name the axes where a name helps (a power curve's
	// "cases per model").
	XLabel string `json:"x_label,omitempty"`
	YLabel string `json:"y_label,omitempty"`
	// Categories label the bars (ChartBars) or the x positions (ChartPoints,
	// ChartLine), in order.
	Categories []string `json:"categories,omitempty"`
	Series     []Series `json:"series,omitempty"`
	// Reference draws a line at this value (0 for a difference, the
	// target power); nil draws none.
	Reference *float64 `json:"reference,omitempty"`
	// Min and Max fix the value axis; nil fits it to the data (a rate's
	// axis runs from 0 to 1 unless set).
	Min *float64 `json:"min,omitempty"`
	Max *float64 `json:"max,omitempty"`
	// Rows, Columns and Cells are a heatmap's grid: Cells[i][j] is the
	// value at row i, column j; NaN (or a missing row) is an empty cell.
	// Marks[i][j], when present, is shown beside the value (a "*" where a
	// difference is significant).
	Rows    []string    `json:"rows,omitempty"`
	Columns []string    `json:"columns,omitempty"`
	Cells   [][]float64 `json:"-"`
	Marks   [][]string  `json:"marks,omitempty"`
	// Sub[i][j], when present, is a second, smaller line of a heatmap
	// cell (its interval, its tier).
	Sub [][]string `json:"sub,omitempty"`
	// Diverging colours a heatmap from red (below Reference, or 0) to
	// green (above) instead of light to dark.
	Diverging bool `json:"diverging,omitempty"`
}

// Series is one named row of values of a chart, one Point per category.
type Series struct {
	Name   string  `json:"name"`
	Points []Point `json:"points"`
}

// Point is one value with its interval.
type Point struct {
	Value float64 `json:"value"`
	HasCI bool    `json:"has_ci,omitempty"`
	Low   float64 `json:"low,omitempty"`
	High  float64 `json:"high,omitempty"`
	// Missing leaves the category empty for this series.
	Missing bool `json:"missing,omitempty"`
	// Mark is shown beside the value (a tier, "*").
	Mark string `json:"mark,omitempty"`
}

// Charter is a Report that wants charts drawn.
type Charter interface {
	Charts() []ChartSpec
}

// Titled is a Report that gives its page and workbook a title better
// than "evalbook CMD" (run titles, the inputs' base names).
type Titled interface {
	ReportTitle() string
}

// FormatUnit is x as every renderer shows a value of unit: a rate
// "62.9%", a difference "+3.1 pp", a p-value "0.003" or "< 0.001", a
// rating "1094", a count "33,390", a number with three decimals (an
// integer without, with thousands separators: "100,000"), a negative
// one with the minus sign U+2212 ("−0.020", see Minus). NaN and
// infinities show as "–".
func FormatUnit(unit string, x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return "–"
	}
	switch unit {
	case UnitRate:
		return Minus(pct(x)) + "%"
	case UnitPP:
		s := strconv.FormatFloat(100*x, 'f', 1, 64)
		if s == "-0.0" {
			s = "0.0"
		}
		if !strings.HasPrefix(s, "-") && s != "0.0" {
			s = "+" + s
		}
		return Minus(s) + " pp"
	case UnitP:
		if x < 0.001 {
			return "< 0.001"
		}
		return strconv.FormatFloat(x, 'f', 3, 64)
	case UnitRating:
		return Minus(noNegZero(strconv.FormatFloat(math.Round(x), 'f', 0, 64)))
	case UnitCount:
		return Minus(Commas(int64(math.Round(x))))
	}
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return Minus(Commas(int64(x)))
	}
	return Minus(noNegZero(strconv.FormatFloat(x, 'f', 3, 64)))
}

// Minus writes a leading hyphen-minus of a formatted number as the minus
// sign U+2212 ("−0.020"): the one rule of display text (pages,
// workbooks' text, terminal tables), so that a table's negative figure
// reads as its card's. Machine formats (CSV, JSON) keep ASCII "-".
func Minus(s string) string {
	if strings.HasPrefix(s, "-") {
		return "−" + s[1:]
	}
	return s
}

// noNegZero drops the sign of a figure that rounds to zero ("-0.000").
func noNegZero(s string) string {
	if strings.HasPrefix(s, "-") && strings.Trim(s[1:], "0.") == "" {
		return s[1:]
	}
	return s
}

// Commas writes n with thousands separators: 33390 as "33,390".
func Commas(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// PValueText is a p-value as prose: "p = 0.003" or "p < 0.001".
func PValueText(p float64) string {
	s := FormatUnit(UnitP, p)
	if strings.HasPrefix(s, "<") {
		return "p " + s
	}
	return "p = " + s
}

// Page is everything a renderer draws for one report: its title, the
// headline, the charts and the tables, in that order. PageOf builds it
// from any Report.
type Page struct {
	Title    string
	Headline *Headline
	Charts   []ChartSpec
	Tables   []Table
	// Links lead to pages beside this one (a static site's index, the
	// runs a diff compares), by relative address; the page lists them
	// first, the workbook not at all.
	Links []Link
}

// Link is one of a Page's links: its text and its relative address.
type Link struct {
	Text, Href string
}

// PageOf returns r's page under title, which r's ReportTitle replaces
// when it has one.
func PageOf(title string, r Report) Page {
	p := Page{Title: title, Tables: r.Tables()}
	if t, ok := r.(Titled); ok {
		if s := t.ReportTitle(); s != "" {
			p.Title = s
		}
	}
	if h, ok := r.(Headliner); ok {
		hl := h.Headline()
		p.Headline = &hl
	}
	if c, ok := r.(Charter); ok {
		p.Charts = c.Charts()
	} else {
		p.Charts = TableCharts(p.Tables)
	}
	return p
}

// CapList returns at most n of keys and the number left out.
func CapList(keys []string, n int) ([]string, int) {
	if len(keys) <= n {
		return keys, 0
	}
	return keys[:n], len(keys) - n
}

// TableCharts finds, in tables, figures drawn with their intervals: in
// the table with the most rows (up to 40) that has them, every rate column followed by its two
// bounds (named "low"/"high", "ci_low"/"ci_high", or the column's name
// with " low"/" high" or "_low"/"_high"), one series each, the rows
// labelled by their text cells. It is the chart of a result that draws
// none of its own (PageOf); at most 40 rows are drawn.
func TableCharts(tables []Table) []ChartSpec {
	isBound := func(name, base, side string) bool {
		switch name {
		case side, "ci_" + side, base + " " + side, base + "_" + side, base + "_ci_" + side:
			return true
		}
		return false
	}
	var best *ChartSpec
	for _, t := range tables {
		var vals []int
		for j := 0; j+2 < len(t.Columns); j++ {
			c := t.Columns[j]
			if c.Kind == KindRate && isBound(t.Columns[j+1].Name, c.Name, "low") && isBound(t.Columns[j+2].Name, c.Name, "high") {
				vals = append(vals, j)
			}
		}
		if len(vals) == 0 || len(t.Rows) == 0 || len(t.Rows) > 40 || t.Check() != nil {
			continue
		}
		c := ChartSpec{Kind: ChartBars, Title: t.Title, Unit: UnitRate, Note: "bars: the figure; whiskers: its interval"}
		for _, j := range vals {
			c.Series = append(c.Series, Series{Name: t.Columns[j].Name})
		}
		for _, r := range t.Rows {
			var label []string
			for j, col := range t.Columns {
				if !IsNumeric(col.Kind) && r[j] != "" && j < vals[0] {
					label = append(label, r[j])
				}
			}
			c.Categories = append(c.Categories, strings.Join(label, " · "))
			for k, j := range vals {
				v, ok1 := Number(r[j])
				lo, ok2 := Number(r[j+1])
				hi, ok3 := Number(r[j+2])
				p := Point{Value: v, HasCI: ok2 && ok3 && hi > lo, Low: lo, High: hi, Missing: !ok1}
				c.Series[k].Points = append(c.Series[k].Points, p)
			}
		}
		if best == nil || len(c.Categories) > len(best.Categories) {
			best = &c
		}
	}
	if best == nil {
		return nil
	}
	return []ChartSpec{*best}
}
