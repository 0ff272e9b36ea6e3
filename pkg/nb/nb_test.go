package nb

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/chart"
	"github.com/evalbook/evalbook/pkg/frame"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/janpfeifer/gonb/gonbui"
)

func sample(t *testing.T) (*results.Score, *results.RowTable) {
	t.Helper()
	var rows results.RowTable
	res, err := qa.Score(context.Background(), bytes.NewReader(datasets.Responses), datasets.ResponsesName, qa.Options{Rows: rows.Add})
	if err != nil {
		t.Fatal(err)
	}
	return res, &rows
}

// capture runs f with Out sent to a buffer.
func capture(t *testing.T, f func() error) string {
	t.Helper()
	var buf bytes.Buffer
	old := Out
	Out = &buf
	defer func() { Out = old }()
	if err := f(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// notebook pretends to run under GoNB and records what would be displayed.
type notebook struct {
	html, svg, md []string
	png           [][]byte
}

func fakeNotebook(t *testing.T) *notebook {
	t.Helper()
	nbk := &notebook{}
	oldIn, oldHTML, oldPNG, oldSVG, oldMD := inNotebook, displayHTML, displayPNG, displaySVG, displayMarkdown
	inNotebook = func() bool { return true }
	displayMarkdown = func(s string) { nbk.md = append(nbk.md, s) }
	displayHTML = func(s string) { nbk.html = append(nbk.html, s) }
	displayPNG = func(b []byte) { nbk.png = append(nbk.png, b) }
	displaySVG = func(s string) { nbk.svg = append(nbk.svg, s) }
	t.Cleanup(func() {
		inNotebook, displayHTML, displayPNG, displaySVG, displayMarkdown = oldIn, oldHTML, oldPNG, oldSVG, oldMD
	})
	return nbk
}

// TestOutsideNotebook runs every helper as `go test` does, outside GoNB:
// nothing panics, text goes to Out, and Sync returns.
func TestOutsideNotebook(t *testing.T) {
	if gonbui.IsNotebook {
		t.Skip("running inside GoNB")
	}
	defer Sync()
	s, verdicts := sample(t)
	if InNotebook() {
		t.Fatal("InNotebook under go test")
	}
	out := capture(t, func() error {
		return Table("Probe", []string{"id", "response"}, [][]string{{"1", "<script>alert(1)</script>"}, {"2", "two\nlines"}}, 0)
	})
	if !strings.Contains(out, "<script>alert(1)</script>") || !strings.Contains(out, "two lines") {
		t.Errorf("text table %q", out)
	}
	out = capture(t, func() error { return Report(s, verdicts, 0) })
	if !strings.Contains(out, "combined  284") {
		t.Errorf("text report %q", out)
	}
	f, err := chart.Accuracy(s, "Domain")
	if err != nil {
		t.Fatal(err)
	}
	out = capture(t, func() error { return ChartSVG(f) })
	if !strings.HasPrefix(out, `[chart "Accuracy by Domain`) {
		t.Errorf("chart placeholder %q", out)
	}
	df, err := frame.Groups(s, "Domain")
	if err != nil {
		t.Fatal(err)
	}
	out = capture(t, func() error { return DataFrame("By domain", df, 3) })
	if !strings.Contains(out, "Showing 3 of 8 rows.") || !strings.Contains(out, "Art") {
		t.Errorf("data frame text %q", out)
	}
}

func TestInNotebook(t *testing.T) {
	nbk := fakeNotebook(t)
	s, verdicts := sample(t)
	if err := Table("Probe", []string{"id", "response"}, [][]string{{"1", "<script>alert(1)</script>"}}, 0); err != nil {
		t.Fatal(err)
	}
	if len(nbk.html) != 1 || strings.Contains(nbk.html[0], "<script>") || !strings.Contains(nbk.html[0], "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Errorf("table HTML not escaped: %q", nbk.html)
	}
	if err := Report(s, verdicts, 5); err != nil {
		t.Fatal(err)
	}
	rep := nbk.html[1]
	if !strings.HasPrefix(rep, "<style>") || strings.Contains(rep, "<script") || !strings.Contains(rep, `id="verdicts"`) {
		t.Errorf("report fragment: %.120q", rep)
	}
	f, err := chart.Agreement(s.Agreement[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := Chart(f); err != nil {
		t.Fatal(err)
	}
	if err := ChartSVG(f); err != nil {
		t.Fatal(err)
	}
	if len(nbk.png) != 1 || !bytes.HasPrefix(nbk.png[0], []byte("\x89PNG")) {
		t.Error("no PNG displayed")
	}
	if len(nbk.svg) != 1 || !strings.Contains(nbk.svg[0], "<svg") {
		t.Error("no SVG displayed")
	}
	tbl := &results.Table{Title: "Rates", Columns: []results.Column{{Name: "x"}, {Name: "share", Kind: results.KindRate}}, Rows: [][]string{{"a", "0.25"}}}
	if err := ResultTable(tbl, 0); err != nil {
		t.Fatal(err)
	}
	if last := nbk.html[len(nbk.html)-1]; !strings.Contains(last, "25.0%") {
		t.Errorf("rate not shown as a percentage: %q", last)
	}
}

func TestCapRows(t *testing.T) {
	rows := make([][]string, 60)
	for _, c := range []struct {
		max, shown int
		note       string
	}{{0, 50, "Showing 50 of 60 rows."}, {60, 60, ""}, {10, 10, "Showing 10 of 60 rows."}, {100, 60, ""}} {
		got, note := capRows(rows, c.max)
		if len(got) != c.shown || note != c.note {
			t.Errorf("capRows(60 rows, %d) = %d rows, %q; want %d, %q", c.max, len(got), note, c.shown, c.note)
		}
	}
}

func TestCellAlignment(t *testing.T) {
	h, err := tableHTML("", []string{"name", "n", "rate"}, [][]string{{"Ruru Jataka", "1,024", "63.4%"}, {"-", "-0.5", "x1"}}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`text-align:left;border-bottom:1px solid #e5e5e5;padding:2px 8px;vertical-align:top;white-space:pre-wrap">Ruru Jataka`,
		`text-align:right;border-bottom:1px solid #e5e5e5;padding:2px 8px;vertical-align:top;white-space:pre-wrap">1,024`,
		`text-align:right;border-bottom:1px solid #e5e5e5;padding:2px 8px;vertical-align:top;white-space:pre-wrap">63.4%`,
		`text-align:right;border-bottom:1px solid #e5e5e5;padding:2px 8px;vertical-align:top;white-space:pre-wrap">-0.5`,
		`text-align:left;border-bottom:1px solid #e5e5e5;padding:2px 8px;vertical-align:top;white-space:pre-wrap">-<`,
		`text-align:left;border-bottom:1px solid #e5e5e5;padding:2px 8px;vertical-align:top;white-space:pre-wrap">x1`,
	} {
		if !strings.Contains(h, want) {
			t.Errorf("table HTML lacks %s", want)
		}
	}
}

// TestShow checks that a library result shows as its tables in a
// notebook (one HTML table each, model text escaped) and as the
// command's text outside one.
func TestShow(t *testing.T) {
	c := &results.Comparison{OldFile: "old.csv", NewFile: "new.csv", Key: "id", Metric: "pass", N: 2, OldPass: 1, NewPass: 2,
		Old: 0.5, New: 1, CI: "wilson", Confidence: 0.95, Better: []string{"<b>q1</b>"}, Worse: []string{}, Unchanged: 1,
		PSign: 1, PMcNemar: 1, Groups: []results.ComparisonGroup{}, Warnings: []results.Warning{}}
	var want bytes.Buffer
	if err := c.WriteText(&want); err != nil {
		t.Fatal(err)
	}
	if got := capture(t, func() error { return Show(c) }); got != want.String() {
		t.Errorf("outside a notebook Show wrote\n%s\nwant the text\n%s", got, want.String())
	}
	nbk := fakeNotebook(t)
	if err := Show(c); err != nil {
		t.Fatal(err)
	}
	if len(nbk.html) != len(c.Tables()) {
		t.Fatalf("%d HTML displays for %d tables", len(nbk.html), len(c.Tables()))
	}
	// The flipped case's id is in the table of cases that changed.
	all := strings.Join(nbk.html, "\n")
	if strings.Contains(all, "<b>q1</b>") || !strings.Contains(all, "&lt;b&gt;q1&lt;/b&gt;") {
		t.Errorf("case id not escaped: %.400q", all)
	}
}
