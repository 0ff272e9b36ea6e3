package htmlreport

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
)

// Issue 27: a bar whose whisker reaches the chart's right edge has its
// value inside the bar; at the bar's end the whisker's line crossed it
// ("87.5% *" in the leaderboard at 1280 px). It now ends left of the
// whisker's low end, so no whisker line runs through it.
func TestBarLabelInsideClearsWhisker(t *testing.T) {
	c := results.ChartSpec{Kind: results.ChartBars, Title: "by language", Unit: results.UnitRate, Categories: []string{"tamil"},
		Series: []results.Series{{Name: "kestrel-7b", Points: []results.Point{{Value: 0.875, HasCI: true, Low: 0.69, High: 0.957, Mark: "*"}}}}}
	svg := string(drawChart(c, wideLayout))
	m := regexp.MustCompile(`<line x1="([\d.]+)" x2="([\d.]+)" y1="[\d.]+" y2="[\d.]+" stroke="#262626" stroke-width="1.2"/>`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatalf("no whisker:\n%s", svg)
	}
	lo, _ := strconv.ParseFloat(m[1], 64)
	tm := regexp.MustCompile(`<text x="([\d.]+)" y="[\d.]+" font-size="[\d.]+" fill="[^"]+" text-anchor="end">87\.5% \*</text>`).FindStringSubmatch(svg)
	if tm == nil {
		t.Fatalf("the value is not inside the bar, anchored at its end:\n%s", svg)
	}
	at, _ := strconv.ParseFloat(tm[1], 64)
	if at > lo {
		t.Errorf("the label ends at %v, right of the whisker's start %v: the whisker crosses it", at, lo)
	}
}

// Issue 27: the ratings chart labelled its ticks "1,000" and "1,200"
// beside points labelled "1096" (a rating is written whole, without
// separators); ticks now follow the unit's format. Counts keep theirs.
func TestTickTextFollowsUnit(t *testing.T) {
	if got := (axis{unit: results.UnitRating}).tickText(1200); got != "1200" {
		t.Errorf("rating tick %q, want 1200", got)
	}
	if got := (axis{unit: results.UnitCount}).tickText(1200); got != "1,200" {
		t.Errorf("count tick %q, want 1,200", got)
	}
}
