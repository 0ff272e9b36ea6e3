package main

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/evalbook/evalbook/pkg/runsite"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// runs report writes a site that opens from disk: every link between its
// pages resolves to a file of the site, no page names an http(s) URL,
// the index and the run pages run no script and a diff page only its
// one inline script allowed by its hash (the row review of runs diff
// --html), each carries a Content-Security-Policy that fetches nothing
// (default-src 'none', no connect-src), no page shows the data's folder,
// and the figures are the runs'.
func TestRunsReportSite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "runs.db")
	data := filepath.Join(dir, "private-folder")
	// Runs 1, 2 and 4 are on one dataset (40 questions); run 3 on another
	// (30 questions), so run 4's diff page compares it with run 2.
	scoreAndRecord(t, path, filepath.Join(data, "v1.csv"), storeTestTable(40, func(i int) bool { return i < 30 }), "--record-title", "first")
	scoreAndRecord(t, path, filepath.Join(data, "v2.csv"), storeTestTable(40, func(i int) bool { return i < 35 }))
	scoreAndRecord(t, path, filepath.Join(data, "other.csv"), storeTestTable(30, func(i int) bool { return i < 10 }))
	scoreAndRecord(t, path, filepath.Join(data, "v3.csv"), storeTestTable(40, func(i int) bool { return i < 36 }))
	site := filepath.Join(dir, "site")
	_, stderr, code := runCLI(t, "runs", "report", "--store", path, "--out", site)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "wrote 7 pages to "+site+": index.html, 4 run pages, 2 diff pages") {
		t.Errorf("stderr %q does not count the pages", stderr)
	}
	entries, err := os.ReadDir(site)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	want := []string{"diff-1-2.html", "diff-2-4.html", "index.html", "run-1.html", "run-2.html", "run-3.html", "run-4.html"}
	if !slices.Equal(names, want) {
		t.Fatalf("site files %q, want %q", names, want)
	}
	urlRE := regexp.MustCompile(`(?i)https?:`)
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(site, name))
		if err != nil {
			t.Fatal(err)
		}
		if m := urlRE.Find(b); m != nil {
			t.Errorf("%s names a network URL (%s)", name, m)
		}
		if bytes.Contains(b, []byte(data)) || bytes.Contains(b, []byte("private-folder")) {
			t.Errorf("%s shows the data's folder %s", name, data)
		}
		doc, err := html.Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		csp := false
		diffPage := strings.HasPrefix(name, "diff-")
		scripts := 0
		walkNodes(doc, func(n *html.Node) {
			switch n.DataAtom {
			case atom.Script:
				scripts++
				if !diffPage || attrOf(n, "src") != "" {
					t.Errorf("%s has a <%s>", name, n.Data)
				}
			case atom.Iframe, atom.Img, atom.Link, atom.Object, atom.Embed:
				t.Errorf("%s has a <%s>", name, n.Data)
			case atom.Meta:
				if attrOf(n, "http-equiv") == "Content-Security-Policy" {
					c := attrOf(n, "content")
					want := c == runsite.CSP
					if diffPage { // htmlreport's: the same sources, its script by hash
						want = strings.HasPrefix(c, "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-")
					}
					csp = want && strings.Contains(c, "default-src 'none'") && !strings.Contains(c, "connect-src")
				}
			}
			for _, a := range n.Attr {
				if strings.HasPrefix(a.Key, "on") {
					t.Errorf("%s: <%s> has a handler %s", name, n.Data, a.Key)
				}
				if a.Key != "href" && a.Key != "src" {
					continue
				}
				u, err := url.Parse(a.Val)
				if err != nil || u.Scheme != "" || u.Host != "" || strings.Contains(u.Path, "/") {
					t.Errorf("%s: link %q is not a page of the site", name, a.Val)
					continue
				}
				if u.Path == "" {
					continue // #fragment of the page itself
				}
				if !slices.Contains(names, u.Path) {
					t.Errorf("%s: link %q names no file of the site", name, a.Val)
				}
			}
		})
		if !csp {
			t.Errorf("%s: no Content-Security-Policy that fetches nothing", name)
		}
		if diffPage && scripts != 2 { // the rows' JSON block and the one script
			t.Errorf("%s has %d script elements, want 2", name, scripts)
		}
	}
	index, _ := os.ReadFile(filepath.Join(site, "index.html"))
	// Hand-computed: 30, 35, 10 and 36 of 40, 40, 30 and 40 rows pass both metrics.
	for _, s := range []string{"75.0%", "87.5%", "33.3%", "90.0%", `href="diff-2-4.html"`, "no earlier comparable run", "run 1 · first"} {
		if !bytes.Contains(index, []byte(s)) {
			t.Errorf("index.html lacks %q", s)
		}
	}
	// Run 1 to 2: rows 30 to 34 rose, so +12.5 pp, 5 better, 0 worse.
	diff, _ := os.ReadFile(filepath.Join(site, "diff-1-2.html"))
	text := html.UnescapeString(string(diff))
	for _, s := range []string{"+12.5 pp", `"Question 30?"`, `\u003cscript\u003ealert(1)\u003c/script\u003e no idea`, `<a href="index.html">All runs</a>`, `<a href="run-2.html">Run 2</a>`} {
		if !strings.Contains(text, s) {
			t.Errorf("diff-1-2.html lacks %q", s)
		}
	}
	// The response holding a script element is JSON text for the page's
	// script to show as text, never markup.
	if bytes.Contains(diff, []byte("<script>alert")) {
		t.Error("diff-1-2.html holds the response's markup as markup")
	}

	// Opened by headless Chromium from disk, each page loads with its
	// title (the browser's DOM after loading).
	bin := ""
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(n); err == nil {
			bin = p
			break
		}
	}
	if bin == "" || testing.Short() {
		t.Log("no chromium (or -short): the pages are not opened in a browser")
		return
	}
	for _, name := range []string{"index.html", "run-4.html", "diff-2-4.html"} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		prof := t.TempDir()
		cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir="+prof, "--dump-dom", "file://"+filepath.Join(site, name))
		cmd.Env = append(os.Environ(), "HOME="+prof)
		out, err := cmd.Output()
		cancel()
		if err != nil {
			t.Fatalf("chromium %s: %v", name, err)
		}
		title := map[string]string{"index.html": "<title>Run history</title>", "run-4.html": "<title>run 4</title>", "diff-2-4.html": "<title>Runs compared: run 2 “score” → run 4 “score”</title>"}[name]
		foot := "nothing is loaded from the network"
		if name == "diff-2-4.html" {
			foot = "Rows 1 to 2 of 2" // the review's script ran: row 36 rose from run 2 to run 4, on both metrics
		}
		if !bytes.Contains(out, []byte(title)) || !bytes.Contains(out, []byte(foot)) {
			t.Errorf("chromium's DOM of %s lacks %s or %s", name, title, foot)
		}
	}
}

func walkNodes(n *html.Node, f func(*html.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walkNodes(c, f)
	}
}

func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
