package htmlreport

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/datasets"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/results"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// sample scores the embedded sample set (284 rows) by Domain and by
// model × language, and reads the result back from JSON as `evalbook
// report --from` does.
func sample(t testing.TB) (*results.Score, []byte) {
	t.Helper()
	var verdicts bytes.Buffer
	res, err := qa.Score(context.Background(), bytes.NewReader(datasets.Responses), datasets.ResponsesName, qa.Options{
		By:       [][]string{{"Domain"}, {"model", "language"}},
		Verdicts: &verdicts,
	})
	if err != nil {
		t.Fatal(err)
	}
	res.Tool = "evalbook test"
	var js bytes.Buffer
	if err := res.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	back, err := results.ReadScore(&js)
	if err != nil {
		t.Fatal(err)
	}
	return back, verdicts.Bytes()
}

// render writes the report and parses it; with HTMLREPORT_OUT set to a
// directory the page is also saved there to be looked at.
func render(t *testing.T, s *results.Score, opt Options) (*html.Node, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, s, opt); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("HTMLREPORT_OUT"); dir != "" {
		name := strings.NewReplacer("/", "-").Replace(t.Name()) + ".html"
		if err := os.WriteFile(filepath.Join(dir, name), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc, err := html.Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return doc, buf.String()
}

// walk calls f on every node of the tree under n.
func walk(n *html.Node, f func(*html.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// byID finds the element with the given id.
func byID(doc *html.Node, id string) *html.Node {
	var found *html.Node
	walk(doc, func(n *html.Node) {
		if v, ok := attr(n, "id"); ok && v == id && found == nil {
			found = n
		}
	})
	return found
}

// text returns the text content under n.
func text(n *html.Node) string {
	var sb strings.Builder
	walk(n, func(c *html.Node) {
		if c.Type == html.TextNode {
			sb.WriteString(c.Data)
		}
	})
	return sb.String()
}

// tableRows returns the cells' text of the body rows of the first table
// under n (or of the footer, with foot).
func tableRows(n *html.Node, section atom.Atom) [][]string {
	var rows [][]string
	var table *html.Node
	walk(n, func(c *html.Node) {
		if c.DataAtom == atom.Table && table == nil {
			if cl, _ := attr(c, "class"); strings.Contains(cl, "sortable") {
				table = c
			}
		}
	})
	if table == nil {
		return nil
	}
	walk(table, func(c *html.Node) {
		if c.DataAtom != section {
			return
		}
		for tr := c.FirstChild; tr != nil; tr = tr.NextSibling {
			if tr.DataAtom != atom.Tr {
				continue
			}
			var r []string
			for td := tr.FirstChild; td != nil; td = td.NextSibling {
				if td.DataAtom == atom.Td || td.DataAtom == atom.Th {
					if v, ok := attr(td, "data-v"); ok {
						r = append(r, v)
					} else {
						r = append(r, text(td))
					}
				}
			}
			rows = append(rows, r)
		}
	})
	return rows
}

func TestSampleReport(t *testing.T) {
	s, verdicts := sample(t)
	doc, page := render(t, s, Options{Verdicts: bytes.NewReader(verdicts)})

	t.Run("sections", func(t *testing.T) {
		for _, id := range []string{"summary", "settings", "by-1", "by-2", "agreement", "warnings", "metrics", "disagreements", "verdicts"} {
			if byID(doc, id) == nil {
				t.Errorf("no section %q", id)
			}
		}
		if got := text(byID(doc, "by-2")); !strings.Contains(got, "Accuracy by model / language") {
			t.Errorf("section by-2 is not the model / language grouping: %.80q", got)
		}
	})

	t.Run("script tag from data is text", func(t *testing.T) {
		// The sample has one response holding a script element (line 206).
		const probe = "<script>alert(1)</script>"
		var code, data []*html.Node
		walk(doc, func(n *html.Node) {
			if n.DataAtom == atom.Script {
				if typ, _ := attr(n, "type"); typ == "application/json" {
					data = append(data, n)
				} else {
					code = append(code, n)
				}
			}
			if n.Type == html.TextNode && strings.Contains(n.Data, probe) {
				t.Errorf("probe text in the DOM inside %v", n.Parent)
			}
		})
		if len(code) != 1 || text(code[0]) != pageJS {
			t.Fatalf("%d script elements, want only the report's own", len(code))
		}
		if len(data) != 1 {
			t.Fatalf("%d JSON data blocks, want the verdict rows' one", len(data))
		}
		if strings.Contains(page, probe) {
			t.Error("the probe appears unescaped in the page source")
		}
		// The rows hold it as a string, for the script to set as text.
		found := false
		for _, r := range reviewRows(t, doc).Rows {
			for _, c := range r[2:] {
				str, _ := c.(string)
				found = found || strings.Contains(str, probe)
			}
		}
		if !found {
			t.Error("the probe response is not a cell of the verdict rows")
		}
	})

	t.Run("self-contained", func(t *testing.T) {
		walk(doc, func(n *html.Node) {
			for _, a := range n.Attr {
				if strings.HasPrefix(a.Key, "on") {
					t.Errorf("<%s> has an event handler attribute %s", n.Data, a.Key)
				}
				if (a.Key == "src" || a.Key == "href") && !strings.HasPrefix(a.Val, "#") {
					t.Errorf("<%s %s=%q> points outside the page", n.Data, a.Key, a.Val)
				}
			}
			if n.DataAtom == atom.Link || n.DataAtom == atom.Img || n.DataAtom == atom.Iframe {
				t.Errorf("page has a <%s> element", n.Data)
			}
		})
		// The policy allows exactly the report's script, by its hash.
		sum := sha256.Sum256([]byte(pageJS))
		want := "script-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
		ok := false
		walk(doc, func(n *html.Node) {
			if v, _ := attr(n, "http-equiv"); v == "Content-Security-Policy" {
				c, _ := attr(n, "content")
				ok = strings.Contains(c, "default-src 'none'") && strings.Contains(c, want) && !strings.Contains(c, "connect-src")
			}
		})
		if !ok {
			t.Error("no Content-Security-Policy allowing only the report's script")
		}
	})

	t.Run("group figures equal the JSON", func(t *testing.T) {
		rows := tableRows(byID(doc, "by-1"), atom.Tbody)
		var groups []results.Group
		for _, g := range s.Groups {
			if g.By == "Domain" {
				groups = append(groups, g)
			}
		}
		if len(rows) != len(groups) {
			t.Fatalf("%d rows, want %d groups", len(rows), len(groups))
		}
		for i, g := range groups {
			r := rows[i]
			// group, n, blank, empty golden, then per metric: correct,
			// accuracy (data-v, full precision), interval.
			if r[0] != g.Group || r[1] != strconv.Itoa(g.N) || r[2] != strconv.Itoa(g.Blank) {
				t.Errorf("row %d = %q, want group %s n %d blank %d", i, r[:3], g.Group, g.N, g.Blank)
			}
			for m, id := range s.Settings.Metrics {
				ms := g.Metrics[id]
				c := 4 + 3*m
				if r[c] != strconv.FormatFloat(ms.Correct, 'f', -1, 64) || r[c+1] != strconv.FormatFloat(ms.Accuracy, 'g', -1, 64) {
					t.Errorf("%s %s: %q, want %v %v", g.Group, id, r[c:c+2], ms.Correct, ms.Accuracy)
				}
				iv := pct(ms.CILow) + " – " + pct(ms.CIHigh)
				if r[c+2] != iv {
					t.Errorf("%s %s interval %q, want %q", g.Group, id, r[c+2], iv)
				}
			}
		}
		foot := tableRows(byID(doc, "by-1"), atom.Tfoot)
		if len(foot) != 1 || foot[0][0] != "combined" || foot[0][1] != strconv.Itoa(s.Combined.N) {
			t.Errorf("footer %q, want the combined row with n %d", foot, s.Combined.N)
		}
	})

	t.Run("verdict rows", func(t *testing.T) {
		rv := reviewRows(t, doc)
		if len(rv.Rows) != s.Combined.N {
			t.Errorf("%d verdict rows, want all %d (under the default cap)", len(rv.Rows), s.Combined.N)
		}
		if !strings.Contains(text(byID(doc, "verdicts")), "All 284 rows are here.") {
			t.Error("verdicts section does not say all rows are here")
		}
		a := s.Agreement[0]
		// The flags against the sample's agreement buckets (score --json):
		// only_first 23, only_second 20, so 43 disagreements.
		if got := rv.count(flagDisagree); got != a.OnlyFirst+a.OnlySecond {
			t.Errorf("%d disagreement rows, want only_first + only_second = %d", got, a.OnlyFirst+a.OnlySecond)
		}
		if rv.count(flagOnlyFirst) != a.OnlyFirst || rv.count(flagOnlySecond) != a.OnlySecond {
			t.Errorf("only_first %d, only_second %d rows, want %d and %d", rv.count(flagOnlyFirst), rv.count(flagOnlySecond), a.OnlyFirst, a.OnlySecond)
		}
		// A failure is a row some metric fails: 284 - both (164).
		if got := rv.count(flagFail); got != s.Combined.N-a.Both {
			t.Errorf("%d failure rows, want 284 - %d rows both pass = %d", got, a.Both, s.Combined.N-a.Both)
		}
		// The filter's choices say the same counts.
		sel := text(byID(doc, "verdicts"))
		for _, want := range []string{"all rows (284)", "failures (a metric fails) (120)", "disagreements (metrics disagree) (43)", "only exact_substring passes (23)", "only word_overlap passes (20)"} {
			if !strings.Contains(sel, want) {
				t.Errorf("the filter lacks the choice %q", want)
			}
		}
		if !strings.Contains(text(byID(doc, "disagreements")), "43 of the rows here") {
			t.Error("the disagreements section does not count 43 rows")
		}
	})
}

func TestRowCap(t *testing.T) {
	s, verdicts := sample(t)
	a := s.Agreement[0]
	cases := []struct {
		name                 string
		max, verdicts, disag int
		note                 string
	}{
		// 284 rows, 43 disagreements (23 + 20 in the sample's JSON). The
		// first 10 rows hold 3 disagreements (rows 2, 6 and 9), so the
		// page holds 7 more after them to hold 10.
		{"ten", 10, 17, 10, "The first 10 of 284 rows are here, and 7 disagreement rows after them; 274 are left out here"},
		{"default", 0, 284, a.OnlyFirst + a.OnlySecond, "All 284 rows are here."},
		{"exact", 284, 284, a.OnlyFirst + a.OnlySecond, "All 284 rows are here."},
		{"none", -1, 0, 0, "None of the 284 rows is listed here"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, _ := render(t, s, Options{Verdicts: bytes.NewReader(verdicts), MaxRows: c.max})
			rv := reviewRows(t, doc)
			if got := len(rv.Rows); got != c.verdicts {
				t.Errorf("%d verdict rows, want %d", got, c.verdicts)
			}
			if got := rv.count(flagDisagree); got != c.disag {
				t.Errorf("%d disagreement rows, want %d", got, c.disag)
			}
			if got := text(byID(doc, "verdicts")); !strings.Contains(got, c.note) {
				t.Errorf("verdicts note %.300q does not contain %q", got, c.note)
			}
		})
	}
	// A fragment has no script: its rows are tables, capped at
	// FragmentMaxRows by default.
	for _, c := range []struct{ max, verdicts, disag int }{{10, 10, 10}, {0, 284, a.OnlyFirst + a.OnlySecond}} {
		doc, _ := render(t, s, Options{Verdicts: bytes.NewReader(verdicts), MaxRows: c.max, Fragment: true})
		if got := len(tableRows(byID(doc, "verdicts"), atom.Tbody)); got != c.verdicts {
			t.Errorf("fragment, MaxRows %d: %d verdict rows, want %d", c.max, got, c.verdicts)
		}
		if got := len(tableRows(byID(doc, "disagreements"), atom.Tbody)); got != c.disag {
			t.Errorf("fragment, MaxRows %d: %d disagreement rows, want %d", c.max, got, c.disag)
		}
	}
}

// reviewData is the JSON of a page's verdict rows.
type reviewData struct {
	Header []string `json:"header"`
	Class  []string `json:"class"`
	Rows   [][]any  `json:"rows"` // row number, flags, cells
}

func (d *reviewData) count(flag int) int {
	n := 0
	for _, r := range d.Rows {
		if int(r[1].(float64))&flag != 0 {
			n++
		}
	}
	return n
}

// reviewRows decodes the page's verdict rows (the JSON block named by
// the rowview's data-src), or an empty set when there is none.
func reviewRows(t *testing.T, doc *html.Node) *reviewData {
	t.Helper()
	d := &reviewData{}
	n := byID(doc, "rows-verdicts")
	if n == nil {
		return d
	}
	if err := json.Unmarshal([]byte(text(n)), d); err != nil {
		t.Fatalf("the verdict rows' JSON: %v", err)
	}
	return d
}

func TestFragment(t *testing.T) {
	s, _ := sample(t)
	var buf bytes.Buffer
	if err := Write(&buf, s, Options{Fragment: true}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, bad := range []string{"<html", "<script", "<body"} {
		if strings.Contains(out, bad) {
			t.Errorf("fragment contains %s", bad)
		}
	}
	if !strings.HasPrefix(out, "<style>") || !strings.Contains(out, `<div class="evalbook">`) {
		t.Errorf("fragment does not start with its scoped style: %.60q", out)
	}
}

func TestVerdictMismatch(t *testing.T) {
	s, verdicts := sample(t)
	head, _, _ := bytes.Cut(verdicts, []byte("\n"))
	err := Write(&bytes.Buffer{}, s, Options{Verdicts: bytes.NewReader(append(head, '\n')), VerdictsName: "v.csv"})
	if err == nil || !strings.Contains(err.Error(), "v.csv: the verdict file has 0 rows, the result has 284") {
		t.Errorf("error %v, want a row count mismatch", err)
	}
}
