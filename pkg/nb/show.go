package nb

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/evalbook/evalbook/pkg/chart"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"github.com/janpfeifer/gonb/gonbui"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// An Option changes how Show displays a value.
type Option func(*settings)

type settings struct {
	digits      int // -1: the default (3 for numbers, 1 for percentages)
	percent     []string
	percentAll  bool
	maxRows     int
	title       string
	svg         bool
	left, right []string
}

// Digits shows numbers that are not whole with n digits after the point
// (percentages too); the default is 3 (1 for percentages).
func Digits(n int) Option { return func(s *settings) { s.digits = max(n, 0) } }

// Percent shows the named columns as percentages (0.634 as 63.4%); with
// no names, every number column of a table or DataFrame (use it on a
// table of rates). A table's rate columns are percentages anyway.
func Percent(cols ...string) Option {
	return func(s *settings) {
		if len(cols) == 0 {
			s.percentAll = true
		}
		s.percent = append(s.percent, cols...)
	}
}

// MaxRows shows at most n rows of each table (default DefaultMaxRows);
// a negative n shows them all.
func MaxRows(n int) Option { return func(s *settings) { s.maxRows = n } }

// Title sets the title shown above a table (in place of a
// results.Table's own title and note) or a chart.
func Title(t string) Option { return func(s *settings) { s.title = t } }

// SVG shows charts as SVG (sharp at any zoom; the browser draws the
// text) instead of PNG.
func SVG() Option { return func(s *settings) { s.svg = true } }

// AlignLeft and AlignRight align the named columns; by default number
// columns (and text cells that are numbers) are right-aligned and text
// left-aligned.
func AlignLeft(cols ...string) Option {
	return func(s *settings) { s.left = append(s.left, cols...) }
}

// AlignRight: see AlignLeft.
func AlignRight(cols ...string) Option {
	return func(s *settings) { s.right = append(s.right, cols...) }
}

// Show displays x in the notebook, or as text outside one:
//
//   - *results.Score and every results.Report (a *results.Comparison,
//     *results.ModelComparison, ...): each of its Tables in turn; outside
//     a notebook, the result's text (what the command prints);
//   - results.Table, *results.Table, []results.Table;
//   - dataframe.DataFrame, *dataframe.DataFrame (a gota DataFrame);
//   - *chart.Figure, chart.Named, []chart.Named, and a *plot.Plot of one's
//     own (drawn 460 by 300 points; chart.Style gives it the library's
//     look): PNG, or SVG with the SVG option;
//   - a string: Markdown in a notebook (for prose whose numbers a cell
//     computes), the text itself outside one;
//   - an error: shown as Must shows it, without stopping the cell.
//
// Numbers show with 3 decimals and whole numbers without any; Digits,
// Percent, MaxRows, Title, AlignLeft and AlignRight change that.
func Show(x any, opts ...Option) error {
	s := settings{digits: -1}
	for _, o := range opts {
		o(&s)
	}
	switch v := x.(type) {
	case nil:
		return fmt.Errorf("nb.Show: nothing to show (nil)")
	case results.Table:
		return s.table(&v)
	case *results.Table:
		return s.table(v)
	case []results.Table:
		for i := range v {
			if err := s.table(&v[i]); err != nil {
				return err
			}
		}
		return nil
	case dataframe.DataFrame:
		return s.frame(v)
	case *dataframe.DataFrame:
		return s.frame(*v)
	case *chart.Figure:
		return s.figure(v)
	case chart.Named:
		return s.figure(v.Figure)
	case []chart.Named:
		for _, f := range v {
			if err := s.figure(f.Figure); err != nil {
				return err
			}
		}
		return nil
	case *plot.Plot:
		return s.figure(&chart.Figure{Plot: v, Width: vg.Points(460), Height: vg.Points(300)})
	case string:
		if inNotebook() {
			displayMarkdown(v)
			return nil
		}
		_, err := fmt.Fprintln(Out, v)
		return err
	case error:
		showError(v)
		return nil
	case results.Report:
		if !inNotebook() {
			return v.WriteText(Out)
		}
		for _, t := range v.Tables() {
			if err := s.table(&t); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("nb.Show: cannot show a %T (it shows results, results.Table, gota DataFrames, charts, gonum plots, strings and errors)", x)
}

// grid is a table ready to show: header, cells as text, and which
// columns are numbers.
type grid struct {
	title   string
	header  []string
	rows    [][]string
	numeric []bool
}

// number formats x for display: whole numbers without decimals, others
// with the settings' digits (default 3), as a percentage if asked.
func (s *settings) number(x float64, pct bool) string {
	switch {
	case math.IsNaN(x):
		return ""
	case pct:
		d := s.digits
		if d < 0 {
			d = 1
		}
		return strconv.FormatFloat(100*x, 'f', d, 64) + "%"
	case x == math.Trunc(x) && math.Abs(x) < 1e15:
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	d := s.digits
	if d < 0 {
		d = 3
	}
	return strconv.FormatFloat(x, 'f', d, 64)
}

func (s *settings) isPercent(col string) bool {
	return s.percentAll || slices.Contains(s.percent, col)
}

// table shows a results.Table: rates as percentages, numbers rounded.
func (s *settings) table(t *results.Table) error {
	if err := t.Check(); err != nil {
		return err
	}
	g := grid{title: t.Title}
	if t.Note != "" {
		g.title += ". " + t.Note
	}
	for _, c := range t.Columns {
		g.header = append(g.header, c.Name)
		g.numeric = append(g.numeric, results.IsNumeric(c.Kind) || c.PerRow)
	}
	for i, r := range t.Rows {
		row := make([]string, len(r))
		for j, c := range t.Columns {
			row[j] = r[j]
			if !g.numeric[j] {
				continue
			}
			x, ok := results.Number(r[j])
			if !ok {
				continue
			}
			switch k := t.Kind(i, j); k {
			case results.KindPP, results.KindP, results.KindRating, results.KindCount:
				row[j] = results.FormatUnit(k, x) // differences in pp, p-values, ratings, counts as every renderer shows them
			default:
				row[j] = s.number(x, k == results.KindRate || s.isPercent(c.Name))
			}
		}
		g.rows = append(g.rows, row)
	}
	return s.show(g)
}

// frame shows a gota DataFrame: float and int columns as numbers.
func (s *settings) frame(df dataframe.DataFrame) error {
	if df.Err != nil {
		return df.Err
	}
	g := grid{header: df.Names()}
	cols := make([]series.Series, len(g.header))
	for i, n := range g.header {
		cols[i] = df.Col(n)
		g.numeric = append(g.numeric, cols[i].Type() == series.Float || cols[i].Type() == series.Int)
	}
	for r := range df.Nrow() {
		row := make([]string, len(cols))
		for i, c := range cols {
			e := c.Elem(r)
			switch {
			case g.numeric[i] && e.IsNA():
			case g.numeric[i]:
				row[i] = s.number(e.Float(), s.isPercent(g.header[i]))
			default:
				row[i] = e.String()
			}
		}
		g.rows = append(g.rows, row)
	}
	return s.show(g)
}

// show displays a grid: an HTML table in a notebook, aligned text
// otherwise, at most maxRows rows.
func (s *settings) show(g grid) error {
	if s.title != "" {
		g.title = s.title
	}
	max := s.maxRows
	if max == 0 {
		max = DefaultMaxRows
	}
	note := ""
	if max > 0 && len(g.rows) > max {
		note = fmt.Sprintf("Showing %d of %d rows.", max, len(g.rows))
		g.rows = g.rows[:max]
	}
	if !inNotebook() {
		return textTable(Out, g.title, g.header, g.rows, note)
	}
	align := make([]string, len(g.header))
	for j, h := range g.header {
		switch {
		case slices.Contains(s.left, h):
			align[j] = "left"
		case slices.Contains(s.right, h), g.numeric[j]:
			align[j] = "right"
		}
	}
	cells := make([][]htmlCell, len(g.rows))
	for i, r := range g.rows {
		cells[i] = make([]htmlCell, len(r))
		for j, c := range r {
			a := align[j]
			if a == "" {
				a = "left"
				if looksNumeric(c) {
					a = "right"
				}
			}
			cells[i][j] = htmlCell{c, a}
		}
	}
	var b strings.Builder
	if err := tableTemplate.Execute(&b, struct {
		Title, Note string
		Header      []string
		Rows        [][]htmlCell
	}{g.title, note, g.header, cells}); err != nil {
		return err
	}
	displayHTML(b.String())
	return nil
}

// textTable writes a table as aligned text, each row on one line.
func textTable(w io.Writer, title string, header []string, rows [][]string, note string) error {
	if title != "" {
		fmt.Fprintln(w, title)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	oneLine := strings.NewReplacer("\t", " ", "\n", " ", "\r", " ")
	line := func(cells []string) {
		c := make([]string, len(cells))
		for i, s := range cells {
			c[i] = oneLine.Replace(s)
		}
		fmt.Fprintln(tw, strings.Join(c, "\t"))
	}
	line(header)
	for _, r := range rows {
		line(r)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if note != "" {
		_, err := fmt.Fprintln(w, note)
		return err
	}
	return nil
}

// figure shows a chart, PNG by default.
func (s *settings) figure(f *chart.Figure) error {
	if f == nil {
		return fmt.Errorf("nb.Show: a nil chart")
	}
	if s.title != "" {
		f.Plot.Title.Text = s.title
	}
	if s.svg {
		return ChartSVG(f)
	}
	return Chart(f)
}

// Err receives the text of the errors Must, Check and Show show, and
// exit ends the cell program after one; tests replace them.
var (
	Err  io.Writer = os.Stderr
	exit           = os.Exit
)

var errorTemplate = template.Must(template.New("error").Parse(`<div style="border-left:4px solid #c0392b;background:#fdf2f1;padding:6px 10px;margin:4px 0"><b style="color:#c0392b">Error</b>{{if .Stop}} (the cell stopped here){{end}}<pre style="white-space:pre-wrap;margin:4px 0 0 0">{{.Msg}}</pre></div>`))

// showError shows err: a red box in a notebook (escaped), and a line
// "error: ..." on Err either way.
func showError(err error) { report(err, false) }

func report(err error, stop bool) {
	fmt.Fprintf(Err, "error: %v\n", err)
	if !inNotebook() {
		return
	}
	var b strings.Builder
	if errorTemplate.Execute(&b, struct {
		Msg  string
		Stop bool
	}{err.Error(), stop}) == nil {
		displayHTML(b.String())
	}
}

// Check stops the cell when err is not nil: it shows the error readably
// (a red box in the notebook, and "error: ..." on standard error), waits
// for the display to reach the notebook, and exits with status 1, which
// makes a headless run (scripts/run-notebooks.sh, nbcheck) fail. Use it
// in place of `if err != nil { panic(err) }`.
func Check(err error) {
	if err == nil {
		return
	}
	report(err, true)
	gonbui.Sync()
	exit(1)
}

// Must returns v when err is nil, and otherwise stops the cell as Check
// does:
//
//	res := nb.Must(qa.Score(ctx, f, name, opt))
func Must[T any](v T, err error) T {
	Check(err)
	return v
}
