package xlsxreport

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// Issue 27: the workbook draws the reference lines the charts' notes
// promise, and ratings and differences as dots with error bars.
//   - A difference (pp) or a rating given as bars is a line chart with no
//     line: markers, error bars, category labels at the bottom (tickLblPos
//     low) even below zero, the value axis at round steps; its reference
//     (the gate's margin, -2 pp) is the category axis crossing at -2 and
//     dashed. Before, ratings were bars from 630 and a difference's labels
//     sat on the bars at the zero axis, with ticks at -34, -24, ...
//   - A line chart with a reference (power's wanted power, 0.8) has a
//     second series, "reference line", 0.8 in each row, dashed, no marker.
//   - A rate chart of bars stays bars, unless it has a reference line
//     (calibrate's least share): then it is dots too.
func TestWorkbookReferenceLinesAndDots(t *testing.T) {
	margin, want := -0.02, 0.8
	page := results.Page{Title: "refs", Tables: []results.Table{{Title: "t", Columns: []results.Column{{Name: "a"}}, Rows: [][]string{{"x"}}}}, Charts: []results.ChartSpec{
		{Kind: results.ChartBars, Title: "Change against the allowed drop", Unit: results.UnitPP, Reference: &margin, Categories: []string{"exact_substring"},
			Series: []results.Series{{Name: "change", Points: []results.Point{{Value: 0.049, HasCI: true, Low: 0.049, High: 0.152}}}}},
		{Kind: results.ChartBars, Title: "Ratings", Unit: results.UnitRating, Categories: []string{"a", "b"},
			Series: []results.Series{{Name: "rating", Points: []results.Point{{Value: 1096, HasCI: true, Low: 1023, High: 1188}, {Value: 820, HasCI: true, Low: 679, High: 910}}}}},
		{Kind: results.ChartLine, Title: "Power", Unit: results.UnitRate, Reference: &want, Categories: []string{"10", "20", "30"},
			Series: []results.Series{{Name: "power", Points: []results.Point{{Value: 0.5}, {Value: 0.8}, {Value: 0.9}}}}},
		{Kind: results.ChartBars, Title: "Rates", Unit: results.UnitRate, Categories: []string{"x"},
			Series: []results.Series{{Name: "rate", Points: []results.Point{{Value: 0.5, HasCI: true, Low: 0.4, High: 0.6}}}}},
		{Kind: results.ChartBars, Title: "Agreement", Unit: results.UnitRate, Reference: &want, Categories: []string{"x", "y"},
			Series: []results.Series{{Name: "share", Points: []results.Point{{Value: 0.9, HasCI: true, Low: 0.8, High: 0.95}, {Value: 0.7, HasCI: true, Low: 0.6, High: 0.8}}}}},
	}}
	var b bytes.Buffer
	if err := WriteReport(&b, page); err != nil {
		t.Fatal(err)
	}
	parts := zipParts(t, b.Bytes())
	chart := map[string]string{}
	for name, body := range parts {
		if m := regexp.MustCompile(`<a:t>([^<]*)</a:t>`).FindStringSubmatch(body); strings.HasPrefix(name, "xl/charts/chart") && m != nil {
			chart[m[1]] = body
		}
	}
	if len(chart) != 5 {
		t.Fatalf("%d titled charts, want 5", len(chart))
	}
	between := func(s, from, to string) string {
		i := strings.Index(s, from)
		if i < 0 {
			return ""
		}
		j := strings.Index(s[i:], to)
		if j < 0 {
			return ""
		}
		return s[i : i+j]
	}

	gate := chart["Change against the allowed drop"]
	if !strings.Contains(gate, "<lineChart>") || strings.Contains(gate, "<barChart>") {
		t.Error("the gate's difference is not drawn as dots (a line chart)")
	}
	ser := between(gate, "<ser>", "</ser>")
	if !strings.Contains(ser, `<a:ln><a:noFill`) && !strings.Contains(ser, "<a:noFill></a:noFill></a:ln>") && !regexp.MustCompile(`<a:ln[^>]*><a:noFill`).MatchString(ser) {
		t.Errorf("the dots series draws a line:\n%s", ser)
	}
	if !strings.Contains(ser, "<errBars>") {
		t.Error("the dots have no error bars")
	}
	cat := between(gate, "<catAx>", "</catAx>")
	if !strings.Contains(cat, `<crossesAt val="-2"/>`) || strings.Contains(cat, "<crosses ") {
		t.Errorf("the category axis does not cross at the margin, -2 pp:\n%s", cat)
	}
	if !strings.Contains(cat, `<a:prstDash val="dash"/>`) {
		t.Error("the margin's line is not dashed")
	}
	if !strings.Contains(cat, `<tickLblPos val="low">`) {
		t.Error("the category labels are not at the bottom")
	}
	// -2 to +15.2 pp, padded by 8% (1.38): -3.38 to 16.58; steps of
	// (16.58+3.38)/6 = 3.33 round up to 5: -5 to +20.
	val := between(gate, "<valAx>", "</valAx>")
	if !strings.Contains(val, `<max val="20">`) || !strings.Contains(val, `<min val="-5">`) || !strings.Contains(val, `<majorUnit val="5">`) {
		t.Errorf("the gate's value axis is not -5 to +20 pp by 5:\n%s", val)
	}

	// Ratings 679 to 1188, padded by 40.72: 638.28 to 1228.72; steps of
	// 98.4 round up to 100: 600 to 1300.
	rt := chart["Ratings"]
	if !strings.Contains(rt, "<lineChart>") || !strings.Contains(rt, "<errBars>") {
		t.Error("ratings are not dots with error bars")
	}
	if v := between(rt, "<valAx>", "</valAx>"); !strings.Contains(v, `<min val="600">`) || !strings.Contains(v, `<max val="1300">`) {
		t.Errorf("the ratings' axis is not 600 to 1300:\n%s", v)
	}
	if strings.Contains(rt, "crossesAt") {
		t.Error("a chart without a reference has its axis moved")
	}

	pw := chart["Power"]
	if n := strings.Count(pw, "<ser>"); n != 2 {
		t.Fatalf("the power chart has %d series, want the curve and the reference line", n)
	}
	ref := pw[strings.LastIndex(pw, "<ser>"):]
	if !strings.Contains(ref, `<a:prstDash val="dash">`) || !strings.Contains(ref, `<symbol val="none">`) {
		t.Errorf("the reference series is not a dashed line without markers:\n%s", ref)
	}
	f, err := excelize.OpenReader(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Charts", excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	text := ""
	for _, r := range rows {
		text += strings.Join(r, "|") + "\n"
	}
	if !strings.Contains(text, "|power|reference line\n10|0.5|0.8\n20|0.8|0.8\n30|0.9|0.8\n") {
		t.Errorf("the power block lacks its reference column:\n%s", text)
	}
	if !strings.Contains(chart["Rates"], "<barChart>") {
		t.Error("a rate's bars are no longer bars")
	}
	// Rates with a reference (calibrate's least share, 0.8) are dots on
	// a 0 to 1 axis, the category axis crossing at 0.8.
	ag := chart["Agreement"]
	if !strings.Contains(ag, "<lineChart>") || !strings.Contains(between(ag, "<catAx>", "</catAx>"), `<crossesAt val="0.8"/>`) {
		t.Error("rates with a reference line are not dots crossing at 0.8")
	}
	if v := between(ag, "<valAx>", "</valAx>"); !strings.Contains(v, `<min val="0">`) || !strings.Contains(v, `<max val="1">`) {
		t.Errorf("the rates' axis is not 0 to 1:\n%s", v)
	}
}
