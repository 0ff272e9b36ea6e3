package htmlreport

import (
	"fmt"
	"html/template"
	"io"
	"sync"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/results"
)

// MaxTableRows is the most rows a table of WriteReport's page lists; the
// rest are counted under it (the workbook and --json hold them all).
const MaxTableRows = 2000

// reportView is what reportTemplate renders.
type reportView struct {
	Links    []results.Link
	Title    string
	Fragment bool
	CSP      string
	CSS      template.CSS
	JS       template.JS
	Head     *headView
	Sections [][2]string
	Charts   []chartView
	Tables   []tableView
	Capped   map[string]string // table id: note of the rows left out
}

type headView struct {
	Verdict, Tone, Badge, Subject string
	Notes                         []string
	Cards                         []cardView
}

type cardView struct {
	Label, Value, Interval, Note string
}

type chartView struct {
	ID, Title, Note string
	Wide, Narrow    template.HTML
}

// WriteReport writes a result's page: the title, the headline (a badge,
// the verdict in words, what was compared, the figure cards with their
// intervals), a chart per ChartSpec as inline SVG (one layout for
// screens, one for phones), and the tables, sortable. Every string from
// the data is escaped. With fragment, only the body is written (for a
// notebook).
func WriteReport(w io.Writer, p results.Page, fragment bool) error {
	v := &reportView{Links: p.Links, Title: p.Title, Fragment: fragment, CSS: template.CSS(css + reportCSS), JS: template.JS(sortJS), CSP: CSP(sortJS), Capped: map[string]string{}}
	if h := p.Headline; h != nil {
		hv := &headView{Verdict: h.Verdict, Tone: h.Tone, Badge: h.Badge, Subject: h.Subject, Notes: h.Notes}
		if hv.Tone == "" {
			hv.Tone = results.ToneNeutral
		}
		for _, c := range h.Cards {
			hv.Cards = append(hv.Cards, cardView{Label: c.Label, Value: c.Shown(), Interval: c.Interval(), Note: c.Note})
		}
		v.Head = hv
	}
	for i, c := range p.Charts {
		id := fmt.Sprintf("chart-%d", i+1)
		cv := chartView{ID: id, Title: c.Title, Note: c.Note,
			Wide:   drawChart(c, wideLayout),
			Narrow: drawChart(c, narrowLayout)}
		v.Charts = append(v.Charts, cv)
		v.Sections = append(v.Sections, [2]string{id, c.Title})
	}
	for i := range p.Tables {
		t := &p.Tables[i]
		if err := t.Check(); err != nil {
			return err
		}
		tv := tableView{ID: fmt.Sprintf("table-%d", i+1), Title: t.Title, Note: t.Note}
		if t.Review != nil {
			tv.Review = tableReview(tv.ID, t)
			v.Tables = append(v.Tables, tv)
			v.Sections = append(v.Sections, [2]string{tv.ID, t.Title})
			v.JS, v.CSP = template.JS(pageJS), CSP(pageJS) // the review tables' script too
			continue
		}
		bounds := foldedBounds(t)
		for j, c := range t.Columns {
			cv := colView{Name: c.Name, Num: results.IsNumeric(c.Kind), Skip: bounds[j] < 0}
			if bounds[j] > 0 {
				cv.Sub = "and interval"
			}
			tv.Columns = append(tv.Columns, cv)
		}
		long := make([]bool, len(t.Columns))
		for r := range t.Rows {
			if r >= MaxTableRows {
				v.Capped[tv.ID] = fmt.Sprintf("The first %s of %s rows are shown; the workbook (--xlsx) and --json hold them all.", results.Commas(MaxTableRows), results.Commas(int64(len(t.Rows))))
				break
			}
			for j := range t.Columns {
				if !results.IsNumeric(t.Columns[j].Kind) && utf8.RuneCountInString(t.Rows[r][j]) > 40 {
					long[j] = true
				}
			}
		}
		for r := range t.Rows {
			if r >= MaxTableRows {
				break
			}
			cells := make([]cellView, len(t.Columns))
			for j := range t.Columns {
				raw := t.Rows[r][j]
				cv := cellView{Text: t.Cell(r, j), Class: "text"}
				if long[j] {
					cv.Class = "text long"
				}
				if tv.Columns[j].Num {
					cv.Class = "num"
					if cv.Text != raw {
						cv.Sort = raw
					}
				}
				if bounds[j] > 0 {
					if lo, hi := t.Cell(r, j+1), t.Cell(r, j+2); lo != "" || hi != "" {
						cv.Sub = lo + " – " + hi
					}
				}
				cv.Skip = bounds[j] < 0
				cells[j] = cv
			}
			tv.Rows = append(tv.Rows, cells)
		}
		v.Tables = append(v.Tables, tv)
		v.Sections = append(v.Sections, [2]string{tv.ID, t.Title})
	}
	return reportTemplate().Execute(w, v)
}

// foldColumns is the number of columns above which a table's intervals
// are folded into their figures' cells: 14 columns of figures fit a
// 1280 px screen, mc's 17 (five metrics, each with its low and high) do
// not.
const foldColumns = 14

// foldedBounds says, per column of t, whether the page folds it: 1 for a
// rate or pp column followed by its two bounds (named "low"/"high",
// "ci_low"/"ci_high", or the column's name with " low"/" high",
// "_low"/"_high" or "_ci_low"/"_ci_high"), shown as the figure with
// "lo – hi" under it; -1 for those bounds, not shown as columns; 0 for
// the rest. Only a table wider than foldColumns is folded; the workbook
// and --json keep every column.
func foldedBounds(t *results.Table) []int {
	out := make([]int, len(t.Columns))
	if len(t.Columns) <= foldColumns {
		return out
	}
	isBound := func(name, base, side string) bool {
		switch name {
		case side, "ci_" + side, base + " " + side, base + "_" + side, base + "_ci_" + side:
			return true
		}
		return false
	}
	for j := 0; j+2 < len(t.Columns); j++ {
		c := t.Columns[j]
		if (c.Kind == results.KindRate || c.Kind == results.KindPP) && out[j] == 0 &&
			isBound(t.Columns[j+1].Name, c.Name, "low") && isBound(t.Columns[j+2].Name, c.Name, "high") {
			out[j], out[j+1], out[j+2] = 1, -1, -1
			j += 2
		}
	}
	return out
}

// verdictCSS styles a headline's verdict, on every page (score's too).
const verdictCSS = `
.evalbook .verdict{border-radius:8px;padding:10px 14px;margin:.6em 0;font-size:1.15em;font-weight:600;border-left:6px solid #7f8c9d;background:#f2f4f7}
.evalbook .verdict.good{border-color:#2e7d32;background:#e8f5e9;color:#1b5e20}
.evalbook .verdict.bad{border-color:#c62828;background:#fdecea;color:#8e0000}
.evalbook .verdict.warn{border-color:#e0a100;background:#fff8e5;color:#5c4300}
@media (max-width:600px){.evalbook .verdict{font-size:1.05em}}`

// reportCSS adds the headline's and the charts' rules to css.
const reportCSS = verdictCSS + `
.evalbook .badge{display:inline-block;font-size:1.3em;font-weight:700;letter-spacing:.04em;padding:6px 16px;border-radius:6px;color:#fff;background:#555;margin:.3em 0}
.evalbook .badge.good{background:#2e7d32}.evalbook .badge.bad{background:#c62828}.evalbook .badge.warn{background:#b37400}
.evalbook .subject{color:#444;overflow-wrap:anywhere}
.evalbook .card .civ{color:#333;font-size:.92em}
.evalbook td.text{white-space:pre-wrap;overflow-wrap:break-word}
.evalbook td.text.tok{white-space:nowrap}
.evalbook td .sub,.evalbook th .sub{font-size:.85em;font-weight:400;color:#555}
@media (max-width:600px){.evalbook .cards{grid-template-columns:repeat(2,minmax(0,1fr));gap:6px}.evalbook .card{padding:6px 8px}.evalbook .verdict{font-size:1.05em}.evalbook td.text:not(.long){white-space:pre}}
.evalbook td.long{min-width:14em;max-width:34em}
.evalbook svg.chart.grid{max-width:none;min-width:0;width:auto}
@media print{.evalbook svg.chart.narrow{display:none!important}.evalbook svg.chart.wide{display:block!important}.evalbook section{break-inside:avoid-page}.evalbook table{font-size:.8em}.evalbook{max-width:none}}`

// reportTemplate is parsed at its first use, not when the program starts:
// every command (score of a million rows included) would pay for it.
var reportTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.Must(template.New("report").Funcs(template.FuncMap{
		"vis":    visible,
		"commas": commas,
	}).Parse(rowviewHTML)).Parse(`{{if not .Fragment}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<title>{{.Title}}</title>
<style>body{margin:0;background:#fff}
{{.CSS}}</style>
</head>
<body>
{{else}}<style>{{.CSS}}</style>
{{end}}<div class="evalbook">
{{if .Links}}<nav aria-label="Pages"><ul>{{range .Links}}<li><a href="{{.Href}}">{{vis .Text}}</a></li>{{end}}</ul></nav>
{{end}}<header>
<h1>{{vis .Title}}</h1>
{{with .Head}}{{if .Badge}}<div class="badge {{.Tone}}" role="status">{{.Badge}}</div>{{end}}
{{if .Subject}}<p class="subject">{{vis .Subject}}</p>{{end}}
{{if .Verdict}}<p class="verdict {{.Tone}}">{{vis .Verdict}}</p>{{end}}
{{range .Notes}}<p class="note">{{vis .}}</p>
{{end}}{{end}}</header>
{{with .Head}}{{if .Cards}}<section id="figures"><div class="cards">{{range .Cards}}
<div class="card"><div class="m">{{vis .Label}}</div><div class="big">{{.Value}}</div>{{if .Interval}}<div class="civ">interval {{.Interval}}</div>{{end}}{{if .Note}}<div class="note">{{vis .Note}}</div>{{end}}</div>{{end}}
</div></section>{{end}}{{end}}
{{if .Sections}}<nav aria-label="Sections"><ul>{{range .Sections}}<li><a href="#{{index . 0}}">{{vis (index . 1)}}</a></li>{{end}}</ul></nav>{{end}}
{{range .Charts}}<section id="{{.ID}}">
<h2>{{vis .Title}}</h2>
{{if .Note}}<p class="note">{{vis .Note}}</p>{{end}}<div class="scroll">{{.Wide}}{{.Narrow}}</div>
</section>
{{end}}{{range .Tables}}<section id="{{.ID}}">
<h2>{{vis .Title}}</h2>
{{if .Note}}<p class="note">{{vis .Note}}</p>{{end}}{{if .Review}}<p class="note">{{.Review.Note}}</p>
{{template "rowview" .Review}}{{else}}{{with index $.Capped .ID}}<p class="note">{{.}}</p>{{end}}<div class="scroll"><table class="sortable">
<thead><tr>{{range .Columns}}{{if not .Skip}}<th{{if .Num}} class="num"{{end}}>{{vis .Name}}{{if .Sub}}<br><span class="sub">{{.Sub}}</span>{{end}}</th>{{end}}{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr>{{range .}}{{if not .Skip}}<td class="{{.Class}}"{{if .Sort}} data-v="{{.Sort}}"{{end}}>{{vis .Text}}{{if .Sub}}<br><span class="sub">{{vis .Sub}}</span>{{end}}</td>{{end}}{{end}}</tr>
{{end}}</tbody></table></div>{{end}}
</section>
{{end}}<footer>This page is self-contained: it loads nothing from the network.</footer>
</div>
{{if not .Fragment}}<script>{{.JS}}</script>
</body>
</html>
{{end}}`))
})
