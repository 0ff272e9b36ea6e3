package chart

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// whiskerLines counts the lines drawn in the whiskers' colour (#262626)
// in the figure's SVG: three per whisker (the bar and two caps).
func whiskerLines(t *testing.T, f *Figure) int {
	t.Helper()
	b, err := f.Bytes("svg")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "stroke:#262626")
}

func TestBars(t *testing.T) {
	nan := math.NaN()
	f, err := Bars("Accuracy", []string{"hi", "bn", "en"},
		Series{Name: "m1", Values: []float64{0.5, 0.25, 0.75}, Low: []float64{0.4, nan, 0.6}, High: []float64{0.6, nan, 0.9}},
		Series{Name: "m2", Values: []float64{0.1, 0.2, 0.3}})
	if err != nil {
		t.Fatal(err)
	}
	save(t, "bars-rates", f)
	// Rates: the percentage axis; two whiskers (the NaN bound draws none).
	if f.Plot.X.Min != 0 || f.Plot.X.Max != 1 {
		t.Errorf("rate axis %v to %v, want 0 to 1", f.Plot.X.Min, f.Plot.X.Max)
	}
	if n := whiskerLines(t, f); n != 6 {
		t.Errorf("%d whisker lines, want 6 (two whiskers)", n)
	}
	// Numbers outside [0, 1]: a plain axis from 0 to the highest + a tenth;
	// with a negative value, from the lowest − a tenth of the range.
	f, err = Bars("Tokens", []string{"a", "b"}, Series{Name: "n", Values: []float64{20, 40}})
	if err != nil {
		t.Fatal(err)
	}
	if f.Plot.X.Min != 0 || f.Plot.X.Max != 44 {
		t.Errorf("axis %v to %v, want 0 to 44", f.Plot.X.Min, f.Plot.X.Max)
	}
	f, err = Bars("Change", []string{"a", "b"}, Series{Name: "d", Values: []float64{-0.1, 0.3}, Low: []float64{-0.3, 0.1}, High: []float64{0.1, 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(f.Plot.X.Min-(-0.38)) > 1e-12 || math.Abs(f.Plot.X.Max-0.58) > 1e-12 {
		t.Errorf("axis %v to %v, want -0.38 to 0.58 (range -0.3 to 0.5, a tenth is 0.08)", f.Plot.X.Min, f.Plot.X.Max)
	}

	for _, tc := range []struct {
		name   string
		cats   []string
		series []Series
		msg    string
	}{
		{"no categories", nil, []Series{{Name: "x"}}, "no categories"},
		{"no series", []string{"a"}, nil, "no series"},
		{"short", []string{"a", "b"}, []Series{{Name: "x", Values: []float64{1}}}, `series "x" has 1 values for 2 categories`},
		{"NaN value", []string{"a"}, []Series{{Name: "x", Values: []float64{nan}}}, `category "a": the value is NaN`},
		{"low only", []string{"a"}, []Series{{Name: "x", Values: []float64{1}, Low: []float64{0}}}, "Low and High must both"},
		{"inverted", []string{"a"}, []Series{{Name: "x", Values: []float64{1}, Low: []float64{2}, High: []float64{0}}}, "the interval 2 to 0"},
	} {
		if _, err := Bars("t", tc.cats, tc.series...); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.msg)
		}
	}
}

// records is a table as text, as a gota DataFrame's Records gives it.
type records [][]string

func (r records) Records() [][]string { return r }

func TestFromFrame(t *testing.T) {
	// frame.Groups' shape: <id>_accuracy with <id>_ci_low and _ci_high.
	df := records{
		{"group", "n", "em_accuracy", "em_ci_low", "em_ci_high", "f1"},
		{"hi", "4", "0.500000", "0.150000", "0.850000", "0.6"},
		{"bn", "3", "0.333333", "0.061000", "0.792000", "0.4"},
	}
	f, err := FromFrame(df, "group", "em_accuracy", "f1")
	if err != nil {
		t.Fatal(err)
	}
	if f.Plot.Title.Text != "em_accuracy, f1 by group" {
		t.Errorf("title %q", f.Plot.Title.Text)
	}
	if n := whiskerLines(t, f); n != 6 {
		t.Errorf("%d whisker lines, want 6: em_accuracy's two rows", n)
	}
	// "V low"/"V high" bound V too.
	f, err = FromFrame(records{{"g", "v", "v low", "v high"}, {"a", "0.5", "0.4", "0.6"}}, "g", "v")
	if err != nil || whiskerLines(t, f) != 3 {
		t.Errorf("v low/high: %v", err)
	}
	for _, tc := range []struct {
		label  string
		values []string
		msg    string
	}{
		{"grp", []string{"f1"}, `no column "grp"`},
		{"group", nil, "name the columns to draw"},
		{"group", []string{"f2"}, `no column "f2"`},
		{"group", []string{"group"}, `column "group", row 1: "hi" is not a number`},
	} {
		if _, err := FromFrame(df, tc.label, tc.values...); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("FromFrame(%q, %q): error %v, want %q", tc.label, tc.values, err, tc.msg)
		}
	}
}

func TestStyle(t *testing.T) {
	p := plot.New()
	p.Title.Text = "Mine"
	p.X.Label.Text = "हिन्दी"
	line, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 1}, {X: 1, Y: 2}})
	if err != nil {
		t.Fatal(err)
	}
	line.Color = Colors[0]
	p.Add(line)
	p.Legend.Add("series", line)
	f := Style(p)
	if f.Plot != p || f.Width <= 0 || f.Height <= 0 {
		t.Fatalf("figure %+v", f)
	}
	want := newPlot("")
	if p.Title.TextStyle.Font != want.Title.TextStyle.Font || p.X.Tick.Label.Font != want.X.Tick.Label.Font || !p.Legend.Top {
		t.Errorf("not the library's style: title font %+v", p.Title.TextStyle.Font)
	}
	if _, err := f.Bytes("png"); err != nil {
		t.Fatal(err)
	}
	save(t, "style", f)
}
