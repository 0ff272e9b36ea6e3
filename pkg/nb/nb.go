// Package nb shows evalbook's tables, charts and reports inline in a GoNB
// notebook (through gonbui), and prints plain text when the program does
// not run under GoNB, so the same cell code runs in `go test` and in a
// terminal without harm.
//
// Start every notebook cell that displays something with
//
//	defer nb.Sync()
//
// (or defer gonbui.Sync()): display data travels over a pipe that the
// kernel closes when the cell program exits, and Sync waits for it.
// Every function here is safe to call before that deferred Sync, and
// Sync itself does nothing outside a notebook.
//
// Show is the one entry point: it displays any result (a *results.Score,
// a comparison, any results.Report), a results.Table, a gota DataFrame, a
// chart.Figure or a gonum plot, with options for number formats
// (Digits, Percent), rows (MaxRows), a title and alignment. Must and
// Check stop a cell on an error, after showing it readably. Cache keeps a
// computed value by key between cells (each cell is a new program), so
// later cells do not compute it again. Table,
// DataFrame, ResultTable, Chart, ChartSVG and Report are the older,
// narrower helpers, kept for existing code.
//
// Text from the data (model responses) reaches the notebook only through
// html/template, escaped.
package nb

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"html/template"
	"io"
	"os"
	"strings"

	"github.com/evalbook/evalbook/pkg/chart"
	"github.com/evalbook/evalbook/pkg/frame"
	"github.com/evalbook/evalbook/pkg/htmlreport"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/go-gota/gota/dataframe"
	"github.com/janpfeifer/gonb/gonbui"
)

// Out receives the plain-text fallback when not in a notebook.
var Out io.Writer = os.Stdout

// The notebook side, as variables so that tests can watch it.
var (
	inNotebook      = func() bool { return gonbui.IsNotebook }
	displayHTML     = gonbui.DisplayHTML
	displayPNG      = gonbui.DisplayPNG
	displaySVG      = gonbui.DisplaySVG
	displayMarkdown = gonbui.DisplayMarkdown
)

// InNotebook reports whether the program runs in a GoNB kernel.
func InNotebook() bool { return inNotebook() }

// Sync waits until everything displayed has reached the notebook. Call
// it deferred at the start of a cell; outside a notebook it returns at once.
func Sync() { gonbui.Sync() }

// DefaultMaxRows is the number of rows Table and DataFrame show when
// asked for 0.
const DefaultMaxRows = 50

var tableTemplate = template.Must(template.New("table").Parse(`<div style="overflow-x:auto"><table style="border-collapse:collapse;font-size:90%">
{{if .Title}}<caption style="text-align:left;font-weight:600;padding:4px 0">{{.Title}}</caption>{{end}}<thead><tr>{{range .Header}}<th style="text-align:left;border-bottom:1px solid #999;padding:2px 8px">{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr>{{range .}}<td style="text-align:{{.Align}};border-bottom:1px solid #e5e5e5;padding:2px 8px;vertical-align:top;white-space:pre-wrap">{{.Text}}</td>{{end}}</tr>
{{end}}</tbody></table>{{if .Note}}<p style="color:#666;font-size:85%">{{.Note}}</p>{{end}}</div>`))

// htmlCell is a table cell and its alignment: numbers right, text left
// (stated on every cell, since a notebook's own CSS may right-align
// cells otherwise).
type htmlCell struct{ Text, Align string }

// tableHTML renders a table with every cell escaped.
func tableHTML(title string, header []string, rows [][]string, note string) (string, error) {
	cells := make([][]htmlCell, len(rows))
	for i, r := range rows {
		cells[i] = make([]htmlCell, len(r))
		for j, c := range r {
			align := "left"
			if looksNumeric(c) {
				align = "right"
			}
			cells[i][j] = htmlCell{c, align}
		}
	}
	var b strings.Builder
	err := tableTemplate.Execute(&b, struct {
		Title, Note string
		Header      []string
		Rows        [][]htmlCell
	}{title, note, header, cells})
	return b.String(), err
}

// looksNumeric reports whether a cell is a number as tables show them:
// digits with an optional sign, decimal point, thousands commas and a
// trailing % (e.g. "-0.5", "1,024", "63.4%").
func looksNumeric(s string) bool {
	s = strings.TrimSuffix(strings.TrimSpace(s), "%")
	s = strings.TrimLeft(s, "+-")
	digits := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '.' || r == ',':
		default:
			return false
		}
	}
	return digits > 0
}

// capRows keeps the first max rows (0: DefaultMaxRows) and says how
// many were left out.
func capRows(rows [][]string, max int) ([][]string, string) {
	if max <= 0 {
		max = DefaultMaxRows
	}
	if len(rows) <= max {
		return rows, ""
	}
	return rows[:max], fmt.Sprintf("Showing %d of %d rows.", max, len(rows))
}

// Table shows a titled table: an HTML table in a notebook, aligned text
// otherwise. At most max rows are shown (0: DefaultMaxRows).
func Table(title string, header []string, rows [][]string, max int) error {
	rows, note := capRows(rows, max)
	if inNotebook() {
		h, err := tableHTML(title, header, rows, note)
		if err != nil {
			return err
		}
		displayHTML(h)
		return nil
	}
	return textTable(Out, title, header, rows, note)
}

// DataFrame shows a gota DataFrame as a table, numbers in their shortest
// form (as frame.WriteCSV writes them).
func DataFrame(title string, df dataframe.DataFrame, max int) error {
	if df.Err != nil {
		return df.Err
	}
	var buf bytes.Buffer
	if err := frame.WriteCSV(&buf, df); err != nil {
		return err
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		return err
	}
	return Table(title, rows[0], rows[1:], max)
}

// ResultTable shows a results.Table, rates as percentages.
func ResultTable(t *results.Table, max int) error {
	if err := t.Check(); err != nil {
		return err
	}
	header := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		header[i] = c.Name
	}
	rows := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = make([]string, len(r))
		for j, c := range t.Columns {
			rows[i][j] = c.Display(r[j])
		}
	}
	title := t.Title
	if t.Note != "" {
		title += ". " + t.Note
	}
	return Table(title, header, rows, max)
}

// Chart shows a figure as PNG in a notebook; outside one it prints a
// line naming the figure, since a terminal cannot show it. The figure's
// warnings (labels its fonts cannot draw) are printed first, either way.
func Chart(f *chart.Figure) error {
	for _, w := range f.Warnings {
		if _, err := fmt.Fprintf(Out, "warning: %s\n", w.Message); err != nil {
			return err
		}
	}
	if !inNotebook() {
		_, err := fmt.Fprintf(Out, "[chart %q, %.0fx%.0f points: shown in a notebook only]\n", f.Plot.Title.Text, f.Width.Points(), f.Height.Points())
		return err
	}
	b, err := f.Bytes("png")
	if err != nil {
		return err
	}
	displayPNG(b)
	return nil
}

// ChartSVG shows a figure as SVG (sharp at any zoom, and the browser's
// fonts draw Indic labels); outside a notebook it prints what Chart does.
func ChartSVG(f *chart.Figure) error {
	if !inNotebook() {
		return Chart(f)
	}
	for _, w := range f.Warnings {
		if _, err := fmt.Fprintf(Out, "warning: %s\n", w.Message); err != nil {
			return err
		}
	}
	b, err := f.Bytes("svg")
	if err != nil {
		return err
	}
	displaySVG(string(b))
	return nil
}

// Report shows a whole score report: the HTML report's sections inline
// in a notebook (verdict rows from rows, if not nil, capped at maxRows;
// 0 means the report's default), or the text report otherwise. rows is a
// results.RowTable filled by qa.Options.Rows, or a results.VerdictReader
// over a verdict file.
func Report(s *results.Score, rows results.Rows, maxRows int) error {
	if !inNotebook() {
		return s.WriteText(Out)
	}
	var b strings.Builder
	opt := htmlreport.Options{Fragment: true, Rows: rows, MaxRows: maxRows}
	if err := htmlreport.Write(&b, s, opt); err != nil {
		return err
	}
	displayHTML(b.String())
	return nil
}
