package chart

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"gonum.org/v1/plot/vg"
)

func sample(t *testing.T) *results.Score {
	t.Helper()
	res, err := qa.Score(context.Background(), bytes.NewReader(datasets.Responses), datasets.ResponsesName, qa.Options{
		By: [][]string{{"Domain"}, {"model", "language"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// save writes a figure as PNG and SVG into $CHART_OUT, if set, to be looked at.
func save(t *testing.T, name string, f *Figure) (pngData, svgData []byte) {
	t.Helper()
	var err error
	if pngData, err = f.Bytes("png"); err != nil {
		t.Fatal(err)
	}
	if svgData, err = f.Bytes("svg"); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("CHART_OUT"); dir != "" {
		os.WriteFile(filepath.Join(dir, name+".png"), pngData, 0o644)
		os.WriteFile(filepath.Join(dir, name+".svg"), svgData, 0o644)
	}
	return pngData, svgData
}

// checkPNG decodes a PNG and checks its size: gonum/plot draws PNG at
// 96 dots per inch, so a figure of w points is w/72*96 pixels wide.
func checkPNG(t *testing.T, data []byte, f *Figure) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	wantW := int(f.Width.Points()/72*96 + 0.5)
	wantH := int(f.Height.Points()/72*96 + 0.5)
	if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH {
		t.Errorf("PNG is %dx%d, want %dx%d", b.Dx(), b.Dy(), wantW, wantH)
	}
}

func TestScoreFigures(t *testing.T) {
	s := sample(t)
	figs, err := ScoreFigures(s)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range figs {
		names = append(names, n.Name)
	}
	want := "accuracy-by-domain accuracy-by-model-language agreement-exact_substring-word_overlap"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("figures %q, want %q", got, want)
	}
	for _, n := range figs {
		p, svg := save(t, n.Name, n.Figure)
		checkPNG(t, p, n.Figure)
		if !bytes.HasPrefix(bytes.TrimSpace(svg), []byte("<?xml")) || !bytes.Contains(svg, []byte("<svg")) {
			t.Errorf("%s: not an SVG document", n.Name)
		}
	}
	// The domain chart labels every group and names every metric.
	_, svg := save(t, "domain", figs[0].Figure)
	for _, w := range []string{"Art", "Civics", "Food", "Geography", "History", "Science", "Support", "exact_substring", "word_overlap", "95% wilson interval"} {
		if !bytes.Contains(svg, []byte(">"+w)) && !bytes.Contains(svg, []byte(w)) {
			t.Errorf("domain chart SVG has no text %q", w)
		}
	}
	// The agreement chart shows the four counts of the sample's JSON.
	_, svg = save(t, "agreement", figs[2].Figure)
	a := s.Agreement[0]
	for _, c := range []int{a.Both, a.Neither, a.OnlyFirst, a.OnlySecond} {
		if !bytes.Contains(svg, []byte(fmt.Sprintf("> %d (", c))) {
			t.Errorf("agreement chart has no count %d", c)
		}
	}
}

// TestManyGroupsStayLegible checks that the figure grows with the number
// of groups, so that each group keeps at least two lines of tick-label
// text (10 points each) of height: 30 groups must not be squeezed.
func TestManyGroupsStayLegible(t *testing.T) {
	s := &results.Score{Settings: results.Settings{Metrics: []string{"m1", "m2"}, CI: "wilson", Confidence: 0.95}}
	for _, n := range []int{1, 7, 24, 30} {
		s.Groups = s.Groups[:0]
		for i := range n {
			s.Groups = append(s.Groups, results.Group{By: "g", Group: fmt.Sprintf("group number %02d", i), N: 10,
				Metrics: map[string]results.MetricScore{"m1": {Accuracy: 0.5, CILow: 0.2, CIHigh: 0.8}, "m2": {Accuracy: 0.9, CILow: 0.6, CIHigh: 0.98}}})
		}
		f, err := Accuracy(s, "g")
		if err != nil {
			t.Fatal(err)
		}
		// 90 points of title and axis, 13 a metric and 10 for the
		// legend; the rest is the groups'.
		if per := (f.Height - vg.Points(90+13*2+10)) / vg.Length(n); per < vg.Points(20) {
			t.Errorf("%d groups: %.1f points per group, want at least 20", n, per.Points())
		}
		p, _ := save(t, fmt.Sprintf("groups-%d", n), f)
		checkPNG(t, p, f)
	}
}

func TestConfusion(t *testing.T) {
	// SPEC.md §3: 30 pairs; rows annotator 1, columns annotator 2:
	// a: {a 10}, b: {b 11}, tie: {a 3, b 1, tie 5}.
	labels := []string{"a", "b", "tie"}
	m := [][]int{{10, 0, 0}, {0, 11, 0}, {3, 1, 5}}
	f, err := Confusion("Annotator agreement (kappa 0.798)", "annotator 1", "annotator 2", labels, m)
	if err != nil {
		t.Fatal(err)
	}
	p, svg := save(t, "confusion", f)
	checkPNG(t, p, f)
	for _, c := range []string{">10<", ">11<", ">3<", ">1<", ">5<", ">annotator 1<", ">annotator 2<", ">tie<"} {
		if !bytes.Contains(svg, []byte(c)) {
			t.Errorf("confusion SVG has no text %s", c)
		}
	}
	for _, bad := range []struct {
		name   string
		labels []string
		m      [][]int
	}{
		{"no labels", nil, nil},
		{"rows", labels, m[:2]},
		{"ragged", labels, [][]int{{1, 2, 3}, {1, 2}, {1, 2, 3}}},
		{"negative", labels, [][]int{{1, 2, 3}, {1, -2, 3}, {1, 2, 3}}},
	} {
		t.Run(bad.name, func(t *testing.T) {
			if _, err := Confusion("x", "r", "c", bad.labels, bad.m); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestCalibration(t *testing.T) {
	// SPEC.md §3: a calibrated judge got 0 of 5 self pairs right; the
	// other counts are the six pair kinds of the lesson with made-up shares.
	kinds := []string{"clear", "verbose_tie", "padded_wrong", "cite", "tie", "self"}
	agree := []int{8, 2, 3, 2, 4, 0}
	n := []int{8, 4, 4, 4, 5, 5}
	f, err := Calibration("Judge agreement by pair kind", kinds, agree, n)
	if err != nil {
		t.Fatal(err)
	}
	p, svg := save(t, "calibration", f)
	checkPNG(t, p, f)
	for _, c := range []string{"0/5", "8/8", ">self<", ">clear<"} {
		if !bytes.Contains(svg, []byte(c)) {
			t.Errorf("calibration SVG has no text %s", c)
		}
	}
	if _, err := Calibration("x", []string{"a"}, []int{3}, []int{2}); err == nil {
		t.Error("agree > n: no error")
	}
	if _, err := Calibration("x", []string{"a", "b"}, []int{1}, []int{2, 2}); err == nil {
		t.Error("length mismatch: no error")
	}
}

func TestAccuracyErrors(t *testing.T) {
	s := sample(t)
	if _, err := Accuracy(s, "no such grouping"); err == nil {
		t.Error("unknown grouping: no error")
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{"Domain": "domain", "model / language": "model-language", "भाषा": "x", "a__b": "a__b", "  x  y ": "x-y"} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestHeatmap(t *testing.T) {
	// A task x set coverage matrix: 5 tasks, 3 sets, one empty cell.
	tasks := []string{"lookup", "exact_term", "paraphrase", "multi_fact", "unanswerable"}
	sets := []string{"golden", "adversarial", "production_like"}
	m := [][]int{{6, 2, 3}, {2, 1, 1}, {2, 1, 1}, {3, 0, 2}, {3, 2, 2}}
	f, err := Heatmap("Coverage", "task", "set", tasks, sets, m)
	if err != nil {
		t.Fatal(err)
	}
	p, svg := save(t, "heatmap", f)
	checkPNG(t, p, f)
	for _, c := range []string{">6<", ">0<", ">multi_fact<", ">production_like<", ">task<", ">set<"} {
		if !bytes.Contains(svg, []byte(c)) {
			t.Errorf("heat map SVG has no text %s", c)
		}
	}
	if f.Height <= f.Width {
		t.Errorf("a 5-row, 3-column heat map should be taller than wide; got %v x %v", f.Width, f.Height)
	}
	if _, err := Heatmap("x", "r", "c", tasks, sets, m[:4]); err == nil {
		t.Error("a missing row was accepted")
	}
	if _, err := Heatmap("x", "r", "c", tasks, sets[:2], m); err == nil {
		t.Error("a row longer than the columns was accepted")
	}
}

// TestComparison: one category for all cases and one per group, two
// series named after the versions, and whiskers only where the result has
// intervals (all cases).
func TestComparison(t *testing.T) {
	c := &results.Comparison{OldFile: "version 1", NewFile: "version 2", Metric: "pass", N: 31, Old: 22.0 / 31, New: 24.0 / 31,
		CI: "wilson", Confidence: 0.95, OldCILow: 0.53, OldCIHigh: 0.84, NewCILow: 0.6, NewCIHigh: 0.89, By: "task",
		Groups: []results.ComparisonGroup{{Group: "lookup", N: 12, Old: 1, New: 1}, {Group: "unanswerable", N: 7, Old: 2.0 / 7, New: 4.0 / 7}}}
	f, err := Comparison(c)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Plot.Title.Text, "Pass rate by task (whiskers: 95% wilson interval, all cases)"; got != want {
		t.Errorf("title %q, want %q", got, want)
	}
	if got, want := f.Plot.X.Label.Text, "pass rate (pass)"; got != want {
		t.Errorf("x label %q, want %q", got, want)
	}
	names, series := comparisonSeries(c)
	got := fmt.Sprint(names)
	for _, sr := range series {
		got += fmt.Sprintf(" | %s %.3f %v %v %v", sr.name, sr.vals, sr.lo, sr.hi, sr.whisker)
	}
	want := "[all cases lookup unanswerable]" +
		" | version 1 [0.710 1.000 0.286] [0.53 0 0] [0.84 0 0] [true false false]" +
		" | version 2 [0.774 1.000 0.571] [0.6 0 0] [0.89 0 0] [true false false]"
	if got != want {
		t.Errorf("series\n%s\nwant\n%s", got, want)
	}
	p, _ := save(t, "comparison", f)
	checkPNG(t, p, f)
	if _, err := Comparison(&results.Comparison{}); err == nil {
		t.Error("no error for an empty comparison")
	}
}

func TestTableRates(t *testing.T) {
	tbl := &results.Table{Title: "Sweep", Columns: []results.Column{{Name: "min score"}, {Name: "n", Kind: results.KindNumber},
		{Name: "coverage", Kind: results.KindRate}, {Name: "accuracy", Kind: results.KindRate}},
		Rows: [][]string{{"0.0", "31", "0.87", "0.5"}, {"1.0", "31", "0", ""}}}
	f, err := TableRates(tbl, "rate")
	if err != nil {
		t.Fatal(err)
	}
	if f.Plot.Title.Text != "Sweep" || f.Plot.X.Label.Text != "rate" {
		t.Errorf("title %q, x label %q", f.Plot.Title.Text, f.Plot.X.Label.Text)
	}
	p, _ := save(t, "table-rates", f)
	checkPNG(t, p, f)
	if _, err := TableRates(&results.Table{Title: "No rates", Columns: []results.Column{{Name: "a"}, {Name: "n", Kind: results.KindNumber}},
		Rows: [][]string{{"x", "1"}}}, ""); err == nil {
		t.Error("a table without a rate column drew a chart")
	}
	if _, err := TableRates(&results.Table{Title: "Empty", Columns: tbl.Columns}, ""); err == nil {
		t.Error("a table without rows drew a chart")
	}
}
