package htmlreport

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// changedPage is a page with one table to read: cases that changed, two
// better and one worse, whose responses hold markup and a formula.
func changedPage(n int) results.Page {
	t := results.Table{Title: "Cases that changed",
		Columns: []results.Column{{Name: "direction"}, {Name: "id"}, {Name: "old", Kind: results.KindNumber}, {Name: "new", Kind: results.KindNumber},
			{Name: "question"}, {Name: "old response"}, {Name: "new response"}},
		Review: &results.Review{Filters: []results.Filter{{Flag: 1, Label: "better"}, {Flag: 2, Label: "worse"}}}}
	for i := range n {
		dir, flag, o, nw := "better", 1, "0", "1"
		if i%3 == 2 {
			dir, flag, o, nw = "worse", 2, "1", "0"
		}
		t.Rows = append(t.Rows, []string{dir, fmt.Sprintf("q%d", i), o, nw, fmt.Sprintf("Question %d: a long question that wraps in its cell on a phone", i),
			"<script>alert(1)</script> no idea", `=HYPERLINK("http://evil.example","click")`})
		t.Review.Flags = append(t.Review.Flags, flag)
	}
	return results.Page{Title: "Comparison", Tables: []results.Table{t}}
}

// A table with a Review is listed by the row review: the filter (all,
// better, worse with their counts), the search box and the pager, no
// row drawn by the server, and the rows as JSON in the data block with
// <, > and & escaped, so no response's markup can close the block or
// become an element; the page's CSP allows its one script by hash.
func TestWriteReportReviewTable(t *testing.T) {
	var b bytes.Buffer
	if err := WriteReport(&b, changedPage(3), false); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, s := range []string{
		`<div class="rowview" data-src="rows-table-1" data-key="table-1">`,
		`<option value="0">all rows (3)</option><option value="1">better (2)</option><option value="2">worse (1)</option>`,
		`<input type="search" name="q"`, `<button type="button" class="next">`,
		`<script type="application/json" id="rows-table-1">{"header":["direction","id","old","new","question","old response","new response"],"class":["text tok","text tok","pf","pf","text long","text long","text long"],"norow":true,"rows":[`,
		`[3,2,"worse","q2","1","0",`,
		`"\u003cscript\u003ealert(1)\u003c/script\u003e no idea"`,
		`"=HYPERLINK(\"http://evil.example\",\"click\")"`,
		"All 3 rows are here.",
	} {
		if !strings.Contains(page, s) {
			t.Errorf("the page lacks %s", s)
		}
	}
	if got := cspOf(page); got != CSP(pageJS) {
		t.Errorf("CSP %q, want the review script's %q", got, CSP(pageJS))
	}
	if strings.Contains(page, "<script>alert") {
		t.Error("a response's markup is in the page as markup")
	}
	if n := strings.Count(page, "<tr>"); n != 1 { // the header's row alone
		t.Errorf("%d rows drawn by the server, want the header's alone", n)
	}
	// A page without a table to read keeps the sorting script alone.
	b.Reset()
	p := changedPage(3)
	p.Tables[0].Review = nil
	if err := WriteReport(&b, p, false); err != nil {
		t.Fatal(err)
	}
	if cspOf(b.String()) != CSP(sortJS) || strings.Contains(b.String(), "rowview") {
		t.Error("a page of plain tables carries the review script")
	}
	// Flags that do not match the rows are an error, not a page.
	p = changedPage(3)
	p.Tables[0].Review.Flags = p.Tables[0].Review.Flags[:2]
	if err := WriteReport(&b, p, false); err == nil || !strings.Contains(err.Error(), "2 row flags for 3 rows") {
		t.Errorf("mismatched flags: %v", err)
	}
}

// The review table in headless Chromium: 1,000 cases, one page of 50
// drawn; the worse filter from the URL's fragment shows the 333 worse
// ones; the search finds text; a response's markup is text.
func TestReviewTableInBrowser(t *testing.T) {
	bin := chromium(t)
	var b bytes.Buffer
	if err := WriteReport(&b, changedPage(1000), false); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "compare.html")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	// Of i in 0..999, i%3 == 2 holds for 2, 5, ..., 998: 333 worse.
	for _, c := range []struct {
		frag, status, first string
		rows                int
	}{
		{"", "Rows 1 to 50 of 1,000", "better", 50},
		{"#table-1:f=2", "Rows 1 to 50 of 333 (of 1,000 here)", "worse", 50},
		{"#table-1:f=2:p=7", "Rows 301 to 333 of 333 (of 1,000 here)", "worse", 33},
		{"#table-1:q=question%20998:", "Rows 1 to 1 of 1 (of 1,000 here)", "worse", 1},
	} {
		t.Run(c.frag, func(t *testing.T) {
			doc := dumpDOM(t, bin, file, c.frag)
			rows := shownRows(doc)
			if len(rows) != c.rows || byClass(doc, "rvstat") != c.status {
				t.Errorf("%d rows, status %q; want %d, %q", len(rows), byClass(doc, "rvstat"), c.rows, c.status)
			}
			if len(rows) > 0 && (rows[0][0] != c.first || len(rows[0]) != 7 || rows[0][5] != "<script>alert(1)</script> no idea") {
				t.Errorf("first row %q", rows[0])
			}
			scripts := 0
			walk(doc, func(n *html.Node) {
				if n.DataAtom == atom.Script {
					scripts++
				}
			})
			if scripts != 2 {
				t.Errorf("%d script elements, want the page's 2", scripts)
			}
		})
	}
}

// cspOf returns the page's Content-Security-Policy, unescaped.
func cspOf(page string) string {
	const open = `<meta http-equiv="Content-Security-Policy" content="`
	i := strings.Index(page, open)
	if i < 0 {
		return ""
	}
	rest := page[i+len(open):]
	return html.UnescapeString(rest[:strings.IndexByte(rest, '"')])
}

// Issue 27: a text column with no white space in any cell (ids such as
// "art-en-003", directions) is "text tok", which the page never wraps;
// at 1280 px the flipped rows of runs diff broke "art-en-003" at both
// hyphens into three lines. A short column with a space in some cell
// ("Raja Ravi Varma") stays "text" and may wrap.
func TestReviewTokenColumnsDoNotWrap(t *testing.T) {
	tb := results.Table{Title: "Flipped rows",
		Columns: []results.Column{{Name: "id"}, {Name: "golden answer"}, {Name: "B", Kind: results.KindNumber}},
		Rows:    [][]string{{"art-en-003", "Deula", "1"}, {"art-en-005", "Raja Ravi Varma", "0"}},
		Review:  &results.Review{Filters: []results.Filter{{Flag: 1, Label: "better"}}, Flags: []int{1, 1}}}
	var b bytes.Buffer
	if err := WriteReport(&b, results.Page{Title: "Runs compared", Tables: []results.Table{tb}}, false); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if !strings.Contains(page, `"class":["text tok","text","pf"]`) {
		t.Errorf("the row data's classes are not id: text tok, golden answer: text, B: pf:\n%s", page)
	}
	if !strings.Contains(page, ".evalbook td.text.tok{white-space:nowrap}") {
		t.Error("the page's CSS lets a token cell wrap")
	}
}
