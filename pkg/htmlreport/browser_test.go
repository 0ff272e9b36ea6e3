package htmlreport

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalbook/evalbook/pkg/qa"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// chromium returns the headless browser's path, or skips the test.
func chromium(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the browser tests take seconds")
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium on PATH: the page's script is not run")
	return ""
}

// dumpDOM opens file (with the URL fragment frag) in headless Chromium
// and returns the DOM after the page's script ran.
func dumpDOM(t *testing.T, bin, file, frag string) *html.Node {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir="+dir, "--dump-dom", "file://"+file+frag)
	cmd.Env = append(os.Environ(), "HOME="+dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	doc, err := html.Parse(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// shownRows returns the cells of the review table's body as drawn.
func shownRows(doc *html.Node) [][]string {
	var rows [][]string
	walk(doc, func(n *html.Node) {
		if n.DataAtom != atom.Tbody || n.Parent == nil {
			return
		}
		if cl, _ := attr(n.Parent, "class"); cl != "rows" {
			return
		}
		for tr := n.FirstChild; tr != nil; tr = tr.NextSibling {
			var r []string
			for td := tr.FirstChild; td != nil; td = td.NextSibling {
				r = append(r, text(td))
			}
			rows = append(rows, r)
		}
	})
	return rows
}

func byClass(doc *html.Node, class string) string {
	var s string
	walk(doc, func(n *html.Node) {
		if cl, _ := attr(n, "class"); cl == class && s == "" {
			s = text(n)
		}
	})
	return s
}

// The page's script, run by headless Chromium from disk: it draws a
// page of rows (never all of them), filters by the URL fragment the
// disagreements section links to, searches, pages, and shows a
// response's markup and bidi controls as text.
func TestReviewInBrowser(t *testing.T) {
	bin := chromium(t)
	s, verdicts := sample(t)
	var page bytes.Buffer
	if err := Write(&page, s, Options{Verdicts: bytes.NewReader(verdicts)}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "score.html")
	if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	a := s.Agreement[0]
	cases := []struct {
		frag   string
		rows   int
		status string
		first  string // the first row's number
	}{
		{"", 50, "Rows 1 to 50 of 284", "1"},
		// The disagreements section's link: 23 + 20 rows.
		{"#verdicts:f=2", a.OnlyFirst + a.OnlySecond, "Rows 1 to 43 of 43 (of 284 here)", "2"},
		{"#verdicts:f=4", a.OnlyFirst, "Rows 1 to 23 of 23 (of 284 here)", "2"},
		// Page 3 of 100 a page: rows 201 to 284.
		{"#verdicts:p=3:n=100", 84, "Rows 201 to 284 of 284", "201"},
		{"#verdicts:q=ALERT(1)", 1, "Rows 1 to 1 of 1 (of 284 here)", ""},
		{"#verdicts:q=no%20such%20text%20anywhere", 0, "No row matches.", ""},
	}
	for _, c := range cases {
		t.Run(c.frag, func(t *testing.T) {
			doc := dumpDOM(t, bin, file, c.frag)
			rows := shownRows(doc)
			if len(rows) != c.rows {
				t.Errorf("%d rows drawn, want %d", len(rows), c.rows)
			}
			if got := byClass(doc, "rvstat"); got != c.status {
				t.Errorf("status %q, want %q", got, c.status)
			}
			if c.first != "" && len(rows) > 0 && rows[0][0] != c.first {
				t.Errorf("first row %q, want row %s", rows[0][0], c.first)
			}
			scripts := 0
			walk(doc, func(n *html.Node) {
				if n.DataAtom == atom.Script {
					scripts++
				}
			})
			if scripts != 2 {
				t.Errorf("%d script elements after drawing, want the page's 2 (a response's markup became an element)", scripts)
			}
		})
	}
	doc := dumpDOM(t, bin, file, "#verdicts:q=alert(1)")
	rows := shownRows(doc)
	if len(rows) != 1 || !strings.Contains(strings.Join(rows[0], "|"), "<script>alert(1)</script>") {
		t.Errorf("the row with the script probe is drawn as %q, want its text", rows)
	}
}

// A bidi control in a response is drawn as a <U+202E> mark.
func TestReviewControlsInBrowser(t *testing.T) {
	bin := chromium(t)
	csv := "id,question,answer,Domain,response\n1,Capital?,Delhi,Geo,\u202Eihled\n"
	var verdicts bytes.Buffer
	s, err := qa.Score(context.Background(), strings.NewReader(csv), "bidi.csv", qa.Options{Verdicts: &verdicts})
	if err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := Write(&page, s, Options{Verdicts: bytes.NewReader(verdicts.Bytes())}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "bidi.html")
	if err := os.WriteFile(file, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := dumpDOM(t, bin, file, "")
	marks := 0
	walk(doc, func(n *html.Node) {
		if cl, _ := attr(n, "class"); cl == "ctl" && text(n) == "<U+202E>" && n.Parent != nil && n.Parent.DataAtom == atom.Td {
			if p := n.Parent.Parent; p != nil && p.Parent != nil && p.Parent.DataAtom == atom.Tbody {
				marks++
			}
		}
		if n.Type == html.TextNode && strings.ContainsRune(n.Data, '\u202E') && n.Parent.DataAtom != atom.Script {
			t.Errorf("a raw U+202E in the drawn page: %q", n.Data)
		}
	})
	if marks < 1 {
		t.Error("the response's U+202E is not drawn as a mark in the verdict rows")
	}
}
