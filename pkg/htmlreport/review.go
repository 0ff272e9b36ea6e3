package htmlreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/results"
)

// Row flags: what a row of the review table is, for its filters. A row
// carries the sum of its flags; a filter shows the rows with its flag.
const (
	flagFail       = 1 // some binary metric fails
	flagDisagree   = 2 // the binary metrics disagree
	flagOnlyFirst  = 4 // only the first metric of the agreement pair passes
	flagOnlySecond = 8 // only the second passes
)

// rowFilter is one choice of the review table's filter.
type rowFilter struct {
	Flag  int    `json:"flag"`
	Label string `json:"label"`
	Count int    `json:"count"`
}

// review is the page's table of verdict rows: the rows as JSON in a
// <script type="application/json"> block, drawn a page at a time by
// rowsJS, with a filter, a search and sorting over all of them; only
// one page of rows is ever in the DOM, so 100,000 rows stay quick.
type review struct {
	Key          string // the section's id and the key of its state in the URL's fragment
	DataID       string // the id of the JSON block
	Header       []string
	Numeric      []bool
	Filters      []rowFilter
	Rows         int    // rows in the JSON
	Note         string // how many rows the page holds and which are left out
	JSON         template.JS
	DisagreeLink string // the view of the disagreement rows, a fragment of this page
	// Disagree is the number of disagreement rows in the JSON, -1 when
	// the rows have fewer than two binary metrics.
	Disagree int
}

// reviewBuilder collects the review's rows.
type reviewBuilder struct {
	sc        *results.RowSchema
	passFail  []bool // by column: a binary metric's verdict
	first     int    // index in sc.Metrics of the agreement's first metric, -1 if none
	second    int
	long      []bool
	spaced    []bool // a cell of the column holds white space
	counts    map[int]int
	buf       bytes.Buffer
	n         int
	invisible int
	pairA     string
	pairB     string
	// order is the columns of a verdict record in the order shown: the
	// pass/fail verdicts first, beside the row number, so they are on
	// screen without scrolling; then the others in the file's order.
	order []int
}

func newReviewBuilder(sc *results.RowSchema, s *results.Score) *reviewBuilder {
	b := &reviewBuilder{sc: sc, first: -1, second: -1, long: make([]bool, len(sc.Header)+1), spaced: make([]bool, len(sc.Header)+1), counts: map[int]int{}, passFail: make([]bool, len(sc.Header))}
	for i, c := range sc.MetricCol {
		if !sc.Graded[i] {
			b.passFail[c] = true
		}
	}
	for c := range sc.Header {
		if b.passFail[c] {
			b.order = append(b.order, c)
		}
	}
	for c := range sc.Header {
		if !b.passFail[c] {
			b.order = append(b.order, c)
		}
	}
	if len(s.Agreement) > 0 {
		a := s.Agreement[0]
		for i, id := range sc.Metrics {
			switch id {
			case a.First:
				b.first = i
			case a.Second:
				b.second = i
			}
		}
		if b.first >= 0 && b.second >= 0 {
			b.pairA, b.pairB = a.First, a.Second
		} else {
			b.first, b.second = -1, -1
		}
	}
	return b
}

// flags returns r's flags.
func (b *reviewBuilder) flags(r *results.Row) int {
	f := 0
	for i, g := range b.sc.Graded {
		if !g && i < len(r.Values) && r.Values[i] == 0 {
			f |= flagFail
		}
	}
	if b.sc.Binary() >= 2 && b.sc.Disagree(r) {
		f |= flagDisagree
	}
	if b.first >= 0 {
		x, y := r.Values[b.first], r.Values[b.second]
		switch {
		case x == 1 && y == 0:
			f |= flagOnlyFirst
		case x == 0 && y == 1:
			f |= flagOnlySecond
		}
	}
	return f
}

// add appends row rowNo (1-based, its place in the verdict file) with
// cells rec.
func (b *reviewBuilder) add(rowNo int, r *results.Row, rec []string) {
	f := b.flags(r)
	for _, bit := range []int{flagFail, flagDisagree, flagOnlyFirst, flagOnlySecond} {
		if f&bit != 0 {
			b.counts[bit]++
		}
	}
	if b.n > 0 {
		b.buf.WriteByte(',')
	}
	b.n++
	fmt.Fprintf(&b.buf, "\n[%d,%d", rowNo, f)
	for _, c := range b.order {
		v := rec[c]
		b.buf.WriteByte(',')
		if !b.sc.Numeric[c] && len(v) > 30 {
			b.long[c+1] = true
		}
		if !b.spaced[c+1] && strings.IndexFunc(v, unicode.IsSpace) >= 0 {
			b.spaced[c+1] = true
		}
		if k := results.CountInvisible(v); k > 0 {
			b.invisible += k
			b.buf.Write(marshal(splitInvisible(v)))
			continue
		}
		b.buf.Write(marshal(v))
	}
	b.buf.WriteByte(']')
}

// splitInvisible splits s into text and the controls between it: text,
// "U+202E", text, ... (odd places name a control), for the page's
// script to show each control as a mark, as visible does.
func splitInvisible(s string) []string {
	var out []string
	start := 0
	for i, r := range s {
		if !results.IsInvisible(r) {
			continue
		}
		out = append(out, s[start:i], fmt.Sprintf("U+%04X", r))
		start = i + len(string(r))
	}
	return append(out, s[start:])
}

func marshal(v any) []byte {
	b, err := json.Marshal(v) // escapes <, > and &: no </script> can close the block
	if err != nil {
		panic(err) // strings and string slices always marshal
	}
	return b
}

// build finishes the review.
func (b *reviewBuilder) build(key string) *review {
	rv := &review{Key: key, DataID: "rows-" + key, Header: []string{"row"}, Numeric: []bool{true}, Rows: b.n, Disagree: -1}
	class := []string{"num"}
	for _, c := range b.order {
		rv.Header = append(rv.Header, b.sc.Header[c])
		rv.Numeric = append(rv.Numeric, b.sc.Numeric[c])
		switch {
		case b.passFail[c]:
			class = append(class, "pf")
		case b.sc.Numeric[c]:
			class = append(class, "num")
		case b.long[c+1]:
			class = append(class, "text long")
		case !b.spaced[c+1]:
			class = append(class, "text tok")
		default:
			class = append(class, "text")
		}
	}
	rv.Filters = []rowFilter{{0, "all rows", b.n}}
	if b.sc.Binary() > 0 {
		rv.Filters = append(rv.Filters, rowFilter{flagFail, "failures (a metric fails)", b.counts[flagFail]})
	}
	if b.sc.Binary() >= 2 {
		rv.Disagree = b.counts[flagDisagree]
		rv.DisagreeLink = "#" + key + ":f=" + strconv.Itoa(flagDisagree)
		rv.Filters = append(rv.Filters, rowFilter{flagDisagree, "disagreements (metrics disagree)", b.counts[flagDisagree]})
	}
	if b.first >= 0 {
		rv.Filters = append(rv.Filters,
			rowFilter{flagOnlyFirst, "only " + b.pairA + " passes", b.counts[flagOnlyFirst]},
			rowFilter{flagOnlySecond, "only " + b.pairB + " passes", b.counts[flagOnlySecond]})
	}
	var j bytes.Buffer
	j.WriteString(`{"header":`)
	j.Write(marshal(rv.Header))
	j.WriteString(`,"class":`)
	j.Write(marshal(class))
	j.WriteString(`,"rows":[`)
	j.Write(b.buf.Bytes())
	j.WriteString("]}")
	rv.JSON = template.JS(j.String())
	return rv
}

// filterLabel is a filter's choice in the page: its label and count.
func (f rowFilter) Text() string { return f.Label + " (" + commas(f.Count) + ")" }

// Value is the filter's value in its <select>.
func (f rowFilter) Value() string { return strconv.Itoa(f.Flag) }

// reviewNote says which rows the page holds.
func reviewNote(held, total, extra int) string {
	var b strings.Builder
	if held == 0 {
		return fmt.Sprintf("None of the %s rows is listed here (the verdict CSV and the XLSX workbook hold every row).", commas(total))
	}
	if held-extra >= total {
		fmt.Fprintf(&b, "All %s rows are here", commas(total))
	} else {
		fmt.Fprintf(&b, "The first %s of %s rows are here", commas(held-extra), commas(total))
		if extra > 0 {
			fmt.Fprintf(&b, ", and %s disagreement rows after them", commas(extra))
		}
		fmt.Fprintf(&b, "; %s are left out here (the verdict CSV and the XLSX workbook hold every row)", commas(total-(held-extra)))
	}
	b.WriteString(". Filter, search (any column, case-insensitive) and sort them; the page shows them a page at a time, and the address bar keeps the view (bookmark or share it).")
	return b.String()
}

// rowviewHTML is a review table's section body: the filter, the search,
// the page size, the empty table rowsJS fills a page at a time, the
// pager, and the rows as JSON. The score page and WriteReport's pages
// share it.
const rowviewHTML = `{{define "rowview"}}{{if .Rows}}{{$num := .Numeric}}<div class="rowview" data-src="{{.DataID}}" data-key="{{.Key}}">
<div class="rvctl"><label>Show <select name="f">{{range .Filters}}<option value="{{.Value}}">{{.Text}}</option>{{end}}</select></label>
<label>Search <input type="search" name="q" placeholder="text in any column" autocomplete="off"></label>
<label>Per page <select name="n"><option value="25">25</option><option value="50" selected>50</option><option value="100">100</option><option value="500">500</option></select></label></div>
<p class="rvstat" aria-live="polite">{{commas .Rows}} rows: the page's script lists them.</p>
<div class="scroll"><table class="rows">
<thead><tr>{{range $i, $h := .Header}}<th tabindex="0"{{if index $num $i}} class="num"{{end}}>{{vis $h}}</th>{{end}}</tr></thead>
<tbody></tbody></table></div>
<div class="pager"><button type="button" class="prev">&lsaquo; previous</button> <span class="pageno"></span> <button type="button" class="next">next &rsaquo;</button></div>
</div>
<script type="application/json" id="{{.DataID}}">{{.JSON}}</script>{{end}}{{end}}`

// tableReview is the review of t, a table with a Review: every row, its
// cells as a reader reads them (t.Cell), with t.Review's flags and
// filters. A numeric column of 0s and 1s (a verdict) is shown as pass
// and fail; a text column with a cell over 30 characters wraps, and one
// with no white space in any cell (ids, codes) never wraps (a browser
// would break "art-en-003" at its hyphens to make room). The
// rows carry no row-number column ("norow"): their own columns name
// them.
func tableReview(key string, t *results.Table) *review {
	rv := &review{Key: key, DataID: "rows-" + key, Rows: len(t.Rows), Disagree: -1}
	n := len(t.Columns)
	class := make([]string, n)
	long := make([]bool, n)
	spaced := make([]bool, n)
	verdict := make([]bool, n)
	for j, c := range t.Columns {
		rv.Header = append(rv.Header, c.Name)
		num := results.IsNumeric(c.Kind) || c.PerRow
		rv.Numeric = append(rv.Numeric, num)
		verdict[j] = num && len(t.Rows) > 0
	}
	for _, r := range t.Rows {
		for j, v := range r {
			if !rv.Numeric[j] && utf8.RuneCountInString(v) > 30 {
				long[j] = true
			}
			if !spaced[j] && strings.IndexFunc(v, unicode.IsSpace) >= 0 {
				spaced[j] = true
			}
			if verdict[j] && v != "0" && v != "1" && v != "" {
				verdict[j] = false
			}
		}
	}
	for j := range class {
		switch {
		case verdict[j]:
			class[j] = "pf"
		case rv.Numeric[j]:
			class[j] = "num"
		case long[j]:
			class[j] = "text long"
		case !spaced[j]:
			class[j] = "text tok"
		default:
			class[j] = "text"
		}
	}
	counts := map[int]int{}
	var buf bytes.Buffer
	for i := range t.Rows {
		f := t.Review.Flags[i]
		for _, fl := range t.Review.Filters {
			if f&fl.Flag != 0 {
				counts[fl.Flag]++
			}
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, "\n[%d,%d", i+1, f)
		for j := range t.Columns {
			v := t.Cell(i, j)
			buf.WriteByte(',')
			if results.CountInvisible(v) > 0 {
				buf.Write(marshal(splitInvisible(v)))
				continue
			}
			buf.Write(marshal(v))
		}
		buf.WriteByte(']')
	}
	rv.Filters = []rowFilter{{0, "all rows", len(t.Rows)}}
	for _, fl := range t.Review.Filters {
		rv.Filters = append(rv.Filters, rowFilter{fl.Flag, fl.Label, counts[fl.Flag]})
	}
	rv.Note = "All " + commas(len(t.Rows)) + " rows are here. Filter, search (any column, case-insensitive) and sort them; the page shows them a page at a time, and the address bar keeps the view (bookmark or share it)."
	var j bytes.Buffer
	j.WriteString(`{"header":`)
	j.Write(marshal(rv.Header))
	j.WriteString(`,"class":`)
	j.Write(marshal(class))
	j.WriteString(`,"norow":true,"rows":[`)
	j.Write(buf.Bytes())
	j.WriteString("]}")
	rv.JSON = template.JS(j.String())
	return rv
}
