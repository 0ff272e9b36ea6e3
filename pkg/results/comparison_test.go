package results

import (
	"strconv"
	"strings"
	"testing"
)

// A one-case comparison: the text says "1 case" and lists the flip; the
// tables hold the same figures at full precision, a group table only
// with groups, and the warnings as rows.
func TestComparisonOneCase(t *testing.T) {
	c := &Comparison{OldFile: "a.csv", NewFile: "b.csv", Key: "id", Metric: "pass", N: 1, OldPass: 0, NewPass: 1,
		Old: 0, New: 1, CI: "wilson", Confidence: 0.95, Resamples: 10000, Seed: 1,
		OldCILow: 0, OldCIHigh: 0.7934506, NewCILow: 0.2065494, NewCIHigh: 1,
		Better: []string{"q1"}, Worse: []string{}, PSign: 1, PMcNemar: 1, Diff: 1, DiffCILow: 1, DiffCIHigh: 1,
		Groups: []ComparisonGroup{}, Warnings: []Warning{{Code: "few_flips", Message: "only 1 case changed", Count: 1}}}
	var b strings.Builder
	if err := c.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := `a.csv -> b.csv, metric pass, key id

n          1 case
old        0.000  (0/1)  95% interval 0.000 to 0.793 (Wilson)
new        1.000  (1/1)  95% interval 0.207 to 1.000
change     +1.000        95% interval 1.000 to 1.000 (paired bootstrap)
better     1             q1
worse      0
unchanged  0
sign test  p = 1  exact, two-sided, 1 better vs 0 worse
McNemar    p = 1  chi-square with continuity correction

warnings:
  only 1 case changed
`
	if b.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", b.String(), want)
	}
	ts := c.Tables()
	var titles []string
	for _, tb := range ts {
		if err := tb.Check(); err != nil {
			t.Error(err)
		}
		titles = append(titles, tb.Title)
	}
	if got := strings.Join(titles, " | "); got != "Comparison: a.csv → b.csv | Cases that changed | Warnings" {
		t.Errorf("tables %s", got)
	}
	if got := strings.Join(ts[0].Rows[2], ","); got != "new pass rate,1,0.2065494,1,1/1" {
		t.Errorf("new pass rate row %s", got)
	}
	if ts[0].Note != "metric pass, key id, 95% intervals (wilson); sign test exact and two-sided over the flips" {
		t.Errorf("note %q", ts[0].Note)
	}
	// The case that changed, with its old and new verdicts, flagged
	// better for the page's filter.
	if got := strings.Join(ts[1].Rows[0], ","); got != "better,q1,0,1" || ts[1].Review == nil || ts[1].Review.Flags[0] != caseBetter {
		t.Errorf("changed case row %s, review %+v", got, ts[1].Review)
	}
	// The value column's unit follows the row: the change in percentage
	// points, the p-values as p.
	if got := ts[0].Cell(3, 1) + " | " + ts[0].Cell(7, 1) + " | " + ts[0].Cell(1, 1); got != "+100.0 pp | 1.000 | 0.0%" {
		t.Errorf("shown cells %s", got)
	}
	// A group row: n, old with its interval, new with its, the change, the flips.
	c.By, c.Groups = "task", []ComparisonGroup{{Group: "x", N: 1, NewPass: 1, New: 1, Better: 1, OldCIHigh: 0.7934506, NewCILow: 0.2065494, NewCIHigh: 1}}
	if ts := c.Tables(); len(ts) != 4 || ts[1].Title != "By task" || strings.Join(ts[1].Rows[0], ",") != "x,1,0,0,0.7934506,1,0.2065494,1,1,1,0" {
		t.Errorf("group table %+v", ts[1])
	}
}

// The text lists at most MaxTextKeys flipped keys each way and counts
// the rest (a million rows flip tens of thousands); the tables keep
// them all, one a row.
func TestComparisonTextCapsKeys(t *testing.T) {
	c := &Comparison{OldFile: "a.csv", NewFile: "b.csv", Key: "id", Metric: "pass", N: 60, CI: "wilson", Confidence: 0.95,
		Worse: []string{}, Groups: []ComparisonGroup{}}
	for i := 0; i < 60; i++ {
		c.Better = append(c.Better, "q"+strconv.Itoa(i))
	}
	var b strings.Builder
	if err := c.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "q49 … and 10 more (--json or --xlsx lists them all)") || strings.Contains(b.String(), "q50") {
		t.Errorf("text:\n%s", b.String())
	}
	ts := c.Tables()
	if ts[1].Title != "Cases that changed" || len(ts[1].Rows) != 60 {
		t.Errorf("table %q has %d rows, want the 60 keys", ts[1].Title, len(ts[1].Rows))
	}
}
