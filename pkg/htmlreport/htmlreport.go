// Package htmlreport renders a result of pkg/results as one
// self-contained HTML file: inline CSS, charts as inline SVG, a few lines
// of inline script to sort tables, and nothing fetched from the network
// (a Content-Security-Policy in the page forbids it). The page reads on a
// phone: tables scroll sideways inside their section and charts scale.
//
// A score report has these sections, in order: the key figures; the
// data and settings; accuracy per group for each grouping (a bar chart
// with interval whiskers and a sortable table); agreement between
// metrics (stacked bars per group, the bucket meanings and example
// rows); warnings; what each metric means; the rows where metrics
// disagree; and the verdict rows. A page holds its verdict rows as JSON
// in a data block that its script lists a page at a time, filtered,
// searched and sorted (DefaultMaxRows of them, 100,000); a fragment,
// which has no script, shows them as tables (FragmentMaxRows). Either
// says how many were left out.
//
// Every string from the data goes through html/template, which escapes
// it for its context: a response holding <script>alert(1)</script>
// shows as that text and never runs.
package htmlreport

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
)

// DefaultMaxRows is the number of verdict rows (and of disagreement rows)
// a page holds when Options.MaxRows is 0: its script lists them a page
// at a time, so only a page of them is ever in the DOM.
const DefaultMaxRows = 100000

// FragmentMaxRows is the number of verdict rows (and of disagreement
// rows) a fragment shows when Options.MaxRows is 0: a fragment has no
// script, so each is a row of its tables.
const FragmentMaxRows = 1000

// Options configures Write. The zero value writes a report without
// verdict rows.
type Options struct {
	// Rows, if set, are the result's scored rows, as values: a
	// results.RowTable that qa.Options.Rows filled, a
	// results.VerdictReader over a verdict file, or any results.Rows
	// whose rows' strings stay valid (slices may be reused). Only the
	// rows shown are read, plus as many as it takes to find the
	// disagreement rows shown.
	Rows results.Rows
	// Verdicts, if set and Rows is not, is a verdict file read from disk
	// (the CSV of `evalbook score --out`), read as Rows through
	// results.NewVerdictReader, which checks it against the result.
	Verdicts io.Reader
	// VerdictsName names Rows or Verdicts in error messages.
	VerdictsName string
	// MaxRows caps the verdict rows and, separately, the disagreement
	// rows shown: 0 means DefaultMaxRows (FragmentMaxRows for a
	// Fragment), a negative value shows none. A page holds the first
	// MaxRows rows and the disagreement rows after them until it holds
	// MaxRows disagreement rows, as JSON its script lists a page at a
	// time with a filter (failures, disagreements, only one metric of
	// the agreement passes), a search and sorting.
	MaxRows int
	// Fragment writes only the report's body (its CSS scoped to it, no
	// script), for embedding in another page such as a notebook.
	Fragment bool
	// Tables are extra tables (e.g. what a judge says per agreement
	// bucket), each a section after the agreement.
	Tables []results.Table
}

// page is what the template renders.
type page struct {
	Title, Tool, Created string
	Fragment             bool
	CSP                  string
	CSS                  template.CSS
	JS                   template.JS
	S                    *results.Score
	Head                 results.Headline // the score's verdict in words, above its key figures
	CIText               string
	Key                  []keyFigure
	Settings             [][2]string
	Groupings            []grouping
	Agreement            []agreementView
	Defs                 []results.MetricDef
	Verdicts             *rowsView
	Disagreements        *rowsView
	Review               *review // the page's rows (Verdicts and Disagreements are the fragment's)
	reviewInvisible      int     // controls in Review's cells
	NoVerdicts           bool
	Sections             [][2]string // id, title: the table of contents
	Tables               []tableView
	TablesOnly           bool              // a page of tables alone (WriteTables)
	Warnings             []results.Warning // the result's, and bidi_controls for the page's text
}

type tableView struct {
	ID, Title, Note string
	Columns         []colView
	Rows            [][]cellView
	Review          *review // a table of rows to read, listed by rowsJS instead of Rows
}

type colView struct {
	Name string
	Num  bool
	Sub  string // a second line under the name ("and interval")
	Skip bool   // folded into another column (foldedBounds): not drawn
}

type keyFigure struct {
	Metric, Accuracy, Count, Interval string
}

type grouping struct {
	ID, By string
	Chart  barChart
	Narrow barChart // the same chart laid out for a phone
	Rows   []groupRow
	Total  groupRow
}

type groupRow struct {
	Name            string
	N, Blank, Empty int
	Cells           []metricCells
}

type metricCells struct {
	Correct, Accuracy, Lo, Hi string // displayed
	Acc                       string // sort key, full precision
}

type agreementView struct {
	A       results.Agreement
	Bars    []bucketBar
	Buckets []bucketView
}

type bucketView struct {
	Name, Meaning, Share, Class string
	Count                       int
	Examples                    []results.Example
}

// rowsView is a capped table of verdict rows.
type rowsView struct {
	Header  []string
	Rows    [][]cellView
	Shown   int
	Total   int    // -1 when unknown
	Note    string // how many were left out
	RowCol  bool   // a leading data row number
	Numeric []bool
}

type cellView struct {
	Text  string
	Class string // pass, fail, num, text or "text long"
	Sort  string // sort key, when it differs from Text
	Sub   string // a second, smaller line (a folded interval)
	Skip  bool   // folded into another cell: not drawn
}

// Write renders s as HTML to w.
func Write(w io.Writer, s *results.Score, opt Options) error {
	p, err := build(s, opt)
	if err != nil {
		return err
	}
	return pageTemplate().Execute(w, p)
}

func build(s *results.Score, opt Options) (*page, error) {
	p := &page{S: s, Fragment: opt.Fragment, Tool: s.Tool, CIText: ciText(s), Head: s.Headline()}
	p.Title = s.Title
	if p.Title == "" {
		// The file's base name: a title never shows folders (and fits a phone).
		p.Title = "Evaluation report: " + results.DisplayName(s.Dataset.Path)
	}
	if s.Created != nil {
		p.Created = s.Created.UTC().Format("2006-01-02 15:04 UTC")
	}
	p.CSS = template.CSS(css + verdictCSS)
	p.JS = template.JS(pageJS)
	p.CSP = CSP(pageJS)

	for _, id := range s.Settings.Metrics {
		ms := s.Combined.Metrics[id]
		n := s.Combined.N
		if ms.N > 0 { // the metric has a value on fewer rows (a harness metric of some tasks)
			n = ms.N
		}
		k := keyFigure{Metric: id, Accuracy: pct(ms.Accuracy), Count: fmt.Sprintf("%s of %s rows", trimFloat(ms.Correct), commas(n))}
		if hasCI(s) {
			k.Interval = fmt.Sprintf("%s to %s", pct(ms.CILow), pct(ms.CIHigh))
		}
		p.Key = append(p.Key, k)
	}
	p.Settings = settingsRows(s)
	p.Sections = append(p.Sections, [2]string{"summary", "Key figures"}, [2]string{"settings", "Data and settings"})
	for i, by := range groupings(s) {
		gv := grouping{ID: "by-" + strconv.Itoa(i+1), By: by}
		var groups []results.Group
		for _, g := range s.Groups {
			if g.By == by {
				groups = append(groups, g)
				gv.Rows = append(gv.Rows, rowOf(s, g, g.Group))
			}
		}
		gv.Total = rowOf(s, s.Combined, "combined")
		gv.Chart = accuracyChart(s, by, groups, wideChart)
		gv.Narrow = accuracyChart(s, by, groups, narrowChart)
		p.Groupings = append(p.Groupings, gv)
		p.Sections = append(p.Sections, [2]string{gv.ID, "Accuracy by " + by})
	}
	for _, a := range s.Agreement {
		av := agreementView{A: a, Bars: bucketBars(a)}
		for _, b := range results.Buckets {
			bv := bucketView{Name: b.Name, Meaning: a.Meaning(b.Name), Count: a.Count(b.Name), Class: "b-" + b.Name, Examples: a.Examples[b.Name]}
			if t := a.Total(); t > 0 {
				bv.Share = pct(float64(bv.Count) / float64(t))
			}
			av.Buckets = append(av.Buckets, bv)
		}
		p.Agreement = append(p.Agreement, av)
	}
	if len(p.Agreement) > 0 {
		p.Sections = append(p.Sections, [2]string{"agreement", "Agreement between metrics"})
	}
	if err := p.addTables(opt.Tables); err != nil {
		return nil, err
	}
	p.Sections = append(p.Sections, [2]string{"warnings", "Warnings"}, [2]string{"metrics", "What each metric means"})
	p.Defs = s.Metrics
	p.Warnings = s.Warnings
	if opt.Rows == nil && opt.Verdicts == nil {
		p.NoVerdicts = true
		p.addInvisibleWarning()
		return p, nil
	}
	if err := readVerdicts(p, s, opt); err != nil {
		return nil, err
	}
	p.addInvisibleWarning()
	if p.Disagreements != nil || (p.Review != nil && p.Review.Disagree >= 0) {
		p.Sections = append(p.Sections, [2]string{"disagreements", "Disagreements"})
	}
	p.Sections = append(p.Sections, [2]string{"verdicts", "Verdicts"})
	return p, nil
}

// addTables adds a section per table, rates shown as percentages and
// sorted by their value.
func (p *page) addTables(tables []results.Table) error {
	for i := range tables {
		t := &tables[i]
		if err := t.Check(); err != nil {
			return err
		}
		tv := tableView{ID: "table-" + strconv.Itoa(i+1), Title: t.Title, Note: t.Note}
		for _, c := range t.Columns {
			tv.Columns = append(tv.Columns, colView{Name: c.Name, Num: results.IsNumeric(c.Kind) || c.PerRow})
		}
		for _, r := range t.Rows {
			cells := make([]cellView, len(r))
			for j := range t.Columns {
				cv := cellView{Text: t.Cell(len(tv.Rows), j), Class: "text"}
				if tv.Columns[j].Num {
					cv.Class = "num"
					if cv.Text != r[j] {
						cv.Sort = r[j]
					}
				}
				cells[j] = cv
			}
			tv.Rows = append(tv.Rows, cells)
		}
		p.Tables = append(p.Tables, tv)
		p.Sections = append(p.Sections, [2]string{tv.ID, t.Title})
	}
	return nil
}

// WriteTables writes a page of tables alone, for results that have no
// dedicated layout (agree, compare, calibrate).
func WriteTables(w io.Writer, title string, tables []results.Table, fragment bool) error {
	s := &results.Score{Title: title}
	p := &page{S: s, Title: title, Fragment: fragment, TablesOnly: true, CSS: template.CSS(css), JS: template.JS(pageJS), CSP: CSP(pageJS)}
	if err := p.addTables(tables); err != nil {
		return err
	}
	return pageTemplate().Execute(w, p)
}

// CSP is the Content-Security-Policy of a page whose one script is js:
// nothing from the network (default-src 'none', no connect-src), inline
// styles, images only as data: URLs, and the script allowed by its hash.
func CSP(js string) string {
	sum := sha256.Sum256([]byte(js))
	return "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

func rowOf(s *results.Score, g results.Group, name string) groupRow {
	r := groupRow{Name: name, N: g.N, Blank: g.Blank, Empty: g.EmptyGolden}
	for _, id := range s.Settings.Metrics {
		ms, ok := g.Metrics[id]
		mc := metricCells{Correct: trimFloat(ms.Correct), Accuracy: pct(ms.Accuracy), Acc: strconv.FormatFloat(ms.Accuracy, 'g', -1, 64)}
		if ms.N > 0 {
			mc.Correct += " of " + strconv.Itoa(ms.N)
		}
		if hasCI(s) {
			mc.Lo, mc.Hi = pct(ms.CILow), pct(ms.CIHigh)
		}
		if !ok && g.N > 0 { // no row of the group has a value of this metric
			mc = metricCells{Correct: "–", Accuracy: "–", Acc: ""}
			if hasCI(s) {
				mc.Lo, mc.Hi = "–", ""
			}
		}
		r.Cells = append(r.Cells, mc)
	}
	return r
}

func settingsRows(s *results.Score) [][2]string {
	var bys []string
	for _, b := range s.Settings.By {
		bys = append(bys, strings.Join(b, " × "))
	}
	if len(bys) == 0 {
		bys = []string{"no grouping"}
	}
	rows := [][2]string{
		{"Dataset", s.Dataset.Path},
		{"Format", s.Dataset.Format},
		{"File hash", s.Dataset.Hash + " (SHA-256 of the file's bytes, first 12 hex digits; the run store's content hash, of the rows in any order, is another)"},
		{"Rows", strconv.Itoa(s.Dataset.Rows)},
		{"Metrics", strings.Join(s.Settings.Metrics, ", ")},
		{"Normalisation", s.Settings.Normalize},
		{"Grouped by", strings.Join(bys, "; ")},
		{"Intervals", ciText(s)},
	}
	if s.Settings.CI == "bootstrap" {
		rows = append(rows, [2]string{"Bootstrap", fmt.Sprintf("%d resamples, seed %d", s.Settings.Resamples, s.Settings.Seed)})
	}
	if s.Tool != "" {
		rows = append(rows, [2]string{"Tool", s.Tool})
	}
	return rows
}

func groupings(s *results.Score) []string {
	var out []string
	seen := map[string]bool{}
	for _, g := range s.Groups {
		if !seen[g.By] {
			seen[g.By] = true
			out = append(out, g.By)
		}
	}
	return out
}

func hasCI(s *results.Score) bool { return s.Settings.CI != "none" && s.Settings.CI != "" }

func ciText(s *results.Score) string {
	if !hasCI(s) {
		return "no interval"
	}
	t := fmt.Sprintf("%g%% %s interval", 100*s.Settings.Confidence, s.Settings.CI)
	if s.Settings.Cluster != "" {
		t += ", clustered by " + s.Settings.Cluster
	}
	return t
}

func pct(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + "%" }

func trimFloat(x float64) string {
	if x == float64(int64(x)) {
		return results.Commas(int64(x))
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}
