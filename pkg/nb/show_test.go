package nb

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/chart"
	"github.com/evalbook/evalbook/pkg/frame"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// TestShowScore: a *results.Score shows as its tables in a notebook and
// as its text outside one (nb.Show(score) did not compile before).
func TestShowScore(t *testing.T) {
	res, _ := sample(t)
	var want bytes.Buffer
	if err := res.WriteText(&want); err != nil {
		t.Fatal(err)
	}
	if got := capture(t, func() error { return Show(res) }); got != want.String() {
		t.Errorf("outside a notebook:\n%s\nwant\n%s", got, want.String())
	}
	nbk := fakeNotebook(t)
	if err := Show(res); err != nil {
		t.Fatal(err)
	}
	if len(nbk.html) != len(res.Tables()) {
		t.Errorf("%d tables shown, want %d", len(nbk.html), len(res.Tables()))
	}
	// The combined exact_substring accuracy, 187/284 = 65.8%, as a rate.
	if !strings.Contains(strings.Join(nbk.html, ""), ">65.8%<") {
		t.Errorf("no 65.8%% in the tables")
	}
}

// TestShowFormats: number formats and rows for DataFrames and tables.
func TestShowFormats(t *testing.T) {
	df := dataframe.New(
		series.New([]string{"hi", "bn", "en"}, series.String, "group"),
		series.New([]int{4, 3, 7}, series.Int, "n"),
		series.New([]float64{0.63380281690, 12, math.NaN()}, series.Float, "acc"),
	)
	check := func(name string, x any, want []string, opts ...Option) {
		t.Helper()
		got := capture(t, func() error { return Show(x, opts...) })
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: output lacks %q:\n%s", name, w, got)
			}
		}
	}
	check("default", df, []string{"hi     4  0.634", "bn     3  12\n", "en     7  \n"})
	check("digits", df, []string{"0.6\n"}, Digits(1))
	check("percent", df, []string{"63.4%", "1200.0%"}, Percent("acc"))
	check("percent, digits", df, []string{"63.38%"}, Percent("acc"), Digits(2))
	check("max rows", df, []string{"Showing 2 of 3 rows."}, MaxRows(2))
	check("title", df, []string{"Accuracy\ngroup"}, Title("Accuracy"))
	if got := capture(t, func() error { return Show(df, MaxRows(-1)) }); strings.Contains(got, "Showing") {
		t.Errorf("MaxRows(-1) cut rows: %s", got)
	}
	tab := results.Table{Title: "T", Note: "a note", Columns: []results.Column{{Name: "k"}, {Name: "v", Kind: results.KindNumber}, {Name: "r", Kind: results.KindRate}},
		Rows: [][]string{{"a", "0.123456", "0.5"}, {"b", "3", ""}}}
	check("table", tab, []string{"T. a note", "a  0.123  50.0%", "b  3"})
	check("table digits", &tab, []string{"a  0.12  50.00%"}, Digits(2))
	check("table percent", []results.Table{tab}, []string{"12.3%"}, Percent("v"))
	// The units of the report design: a difference of 2 in 31 rows is
	// +6.5 pp, a p-value below 0.001 is "< 0.001", a rating whole.
	units := results.Table{Title: "U", Columns: []results.Column{{Name: "delta", Kind: results.KindPP}, {Name: "p", Kind: results.KindP}, {Name: "elo", Kind: results.KindRating}},
		Rows: [][]string{{"0.06451612903225801", "0.0002", "1094.30983"}}}
	check("table units", units, []string{"+6.5 pp", "< 0.001", "1094"})

	// In a notebook: numbers right-aligned, AlignLeft overrides, text escaped.
	nbk := fakeNotebook(t)
	df2 := dataframe.New(series.New([]string{"<i>x</i>"}, series.String, "g"), series.New([]float64{0.5}, series.Float, "v"))
	if err := Show(df2); err != nil {
		t.Fatal(err)
	}
	if err := Show(df2, AlignLeft("v")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(nbk.html[0], `text-align:right;border-bottom:1px solid #e5e5e5;padding:2px 8px;vertical-align:top;white-space:pre-wrap">0.5`) ||
		!strings.Contains(nbk.html[1], `text-align:left;border-bottom:1px solid #e5e5e5;padding:2px 8px;vertical-align:top;white-space:pre-wrap">0.5`) {
		t.Errorf("alignment:\n%s\n%s", nbk.html[0], nbk.html[1])
	}
	if strings.Contains(nbk.html[0], "<i>x</i>") {
		t.Errorf("text not escaped: %s", nbk.html[0])
	}
}

// TestShowCharts: figures, a frame's chart and one's own gonum plot.
func TestShowCharts(t *testing.T) {
	res, _ := sample(t)
	groups, err := frame.Groups(res, "Domain")
	if err != nil {
		t.Fatal(err)
	}
	fromFrame, err := chart.FromFrame(groups, "group", "exact_substring_accuracy")
	if err != nil {
		t.Fatal(err)
	}
	p := plot.New()
	l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		t.Fatal(err)
	}
	p.Add(l)
	nbk := fakeNotebook(t)
	for _, x := range []any{fromFrame, chart.Named{Name: "x", Figure: fromFrame}, p} {
		if err := Show(x); err != nil {
			t.Fatal(err)
		}
	}
	if err := Show(fromFrame, SVG(), Title("Mine")); err != nil {
		t.Fatal(err)
	}
	if len(nbk.png) != 3 || len(nbk.svg) != 1 || !strings.Contains(nbk.svg[0], "Mine") {
		t.Errorf("%d PNG and %d SVG displays, want 3 and 1 titled Mine", len(nbk.png), len(nbk.svg))
	}
	if err := Show("**63.4%** of answers"); err != nil || len(nbk.md) != 1 {
		t.Errorf("markdown: %v, %q", err, nbk.md)
	}
	if err := Show(struct{}{}); err == nil || !strings.Contains(err.Error(), "cannot show a struct {}") {
		t.Errorf("unknown type: %v", err)
	}
}

// stopped is what the fake exit panics with, to stop the code after
// Check as os.Exit would.
type stopped int

// TestMustCheck: an error is shown (escaped, in a red box in a notebook,
// on Err either way) and the cell exits with status 1; no error returns
// the value and shows nothing.
func TestMustCheck(t *testing.T) {
	var errs bytes.Buffer
	oldErr, oldExit := Err, exit
	Err, exit = &errs, func(code int) { panic(stopped(code)) }
	t.Cleanup(func() { Err, exit = oldErr, oldExit })
	run := func(f func()) (code int) {
		defer func() {
			if r := recover(); r != nil {
				code = int(r.(stopped))
			}
		}()
		f()
		return -1
	}
	nbk := fakeNotebook(t)
	if got := Must(42, nil); got != 42 || len(nbk.html) != 0 || errs.Len() != 0 {
		t.Errorf("Must(42, nil) = %d, displays %q, stderr %q", got, nbk.html, errs.String())
	}
	after := false
	code := run(func() {
		Must(0, errors.New(`responses.csv: line 3, column 2: bare " in <non-quoted> field`))
		after = true
	})
	if code != 1 || after {
		t.Errorf("exit code %d, ran on after the error: %v", code, after)
	}
	if !strings.Contains(errs.String(), "error: responses.csv: line 3") {
		t.Errorf("stderr %q", errs.String())
	}
	if len(nbk.html) != 1 || !strings.Contains(nbk.html[0], "the cell stopped here") || !strings.Contains(nbk.html[0], "&lt;non-quoted&gt;") {
		t.Errorf("display %q", nbk.html)
	}
	if code := run(func() { Check(nil) }); code != -1 {
		t.Errorf("Check(nil) exited %d", code)
	}
	// Show(err) shows it without stopping.
	if code := run(func() { _ = Show(errors.New("just so")) }); code != -1 || !strings.Contains(nbk.html[len(nbk.html)-1], "just so") {
		t.Errorf("Show(err) exited %d", code)
	}
}
