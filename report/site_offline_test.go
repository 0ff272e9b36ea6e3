package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// chromiumPath returns a headless Chromium on PATH, or skips the test
// saying so (-short skips too: each page takes a second or two).
func chromiumPath(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the browser is not started")
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	t.Skip("no chromium on PATH (apt-get install chromium): the pages are not opened in a browser")
	return ""
}

// browserServices are the hosts Chromium itself asks (its clock, its
// updater, its sign-in) whatever page it opens, seen at this test's proxy
// with the flags below; a page's own request goes to any other host. Only
// these exact names are set aside, so a page loading, say, a web font
// from fonts.googleapis.com is still caught.
var browserServices = map[string]bool{
	"clients2.google.com": true, "update.googleapis.com": true, "accounts.google.com": true,
	"optimizationguide-pa.googleapis.com": true, "safebrowsing.googleapis.com": true,
}

// Issue 27: the static site of runs report, and the pages of score and
// compare, opened by headless Chromium from disk make no network
// request. Every request the browser would send off the machine goes to
// a proxy that is a loopback server of this test (--proxy-server, with
// loopback not bypassed), which counts them; the browser's own
// background traffic is turned off by flags where it can be, and its
// few remaining hosts (browserServices) are set aside. A control page holding an
// image at an http:// address shows that a request would be seen. Each
// page's DOM after loading holds its title, so the page did load.
func TestPagesOpenOfflineInChromium(t *testing.T) {
	bin := chromiumPath(t)
	var mu sync.Mutex
	var seen []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, _ := strings.Cut(r.Host, ":")
		if browserServices[host] {
			http.Error(w, "no network in this test", http.StatusForbidden)
			return
		}
		mu.Lock()
		seen = append(seen, r.Method+" "+r.Host+r.URL.Path)
		mu.Unlock()
		http.Error(w, "no network in this test", http.StatusForbidden)
	}))
	defer proxy.Close()
	requests := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), seen...)
	}

	dir := t.TempDir()
	store := filepath.Join(dir, "runs.db")
	scoreAndRecord(t, store, "v1.csv", storeTestTable(40, func(i int) bool { return i < 30 }), "--record-title", "first")
	scoreAndRecord(t, store, "v2.csv", storeTestTable(40, func(i int) bool { return i < 35 }), "--record-title", "second")
	site := filepath.Join(dir, "site")
	if _, errb, code := runCLI(t, "runs", "report", "--store", store, "--out", site); code != 0 {
		t.Fatalf("runs report: exit %d: %s", code, errb)
	}
	score, cmp := filepath.Join(dir, "score.html"), filepath.Join(dir, "compare.html")
	if _, errb, code := runCLI(t, "score", "--html", score); code != 0 {
		t.Fatalf("score: exit %d: %s", code, errb)
	}
	if _, errb, code := runCLI(t, "compare", "--old", "testdata/compare_old.csv", "--new", "testdata/compare_new.csv", "--metric", "pass", "--html", cmp); code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errb)
	}
	control := filepath.Join(dir, "control.html")
	if err := os.WriteFile(control, []byte(`<!doctype html><title>control</title><img src="http://evalbook-probe.invalid/x.png">`), 0o644); err != nil {
		t.Fatal(err)
	}

	open := func(page string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		prof := t.TempDir()
		cmd := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir="+prof,
			"--proxy-server="+proxy.URL, "--proxy-bypass-list=<-loopback>",
			"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
			"--no-first-run", "--no-default-browser-check", "--disable-features=OptimizationHints,MediaRouter,Translate",
			"--dump-dom", "file://"+page)
		cmd.Env = append(os.Environ(), "HOME="+prof)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("chromium %s: %v", page, err)
		}
		return string(out)
	}

	// The control first: an http:// image is asked of the proxy.
	open(control)
	if got := requests(); len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), "evalbook-probe.invalid") {
		t.Fatalf("the control page's http:// image did not reach the proxy (requests %q): the check would see nothing", got)
	}
	mu.Lock()
	seen = nil
	mu.Unlock()

	for page, title := range map[string]string{
		filepath.Join(site, "index.html"):    "<title>Run history</title>",
		filepath.Join(site, "run-2.html"):    "<title>run 2",
		filepath.Join(site, "diff-1-2.html"): "<title>Runs compared: run 1",
		score:                                "<title>Evaluation report: ",
		cmp:                                  "<title>",
	} {
		dom := open(page)
		if !strings.Contains(dom, title) {
			t.Errorf("%s: the DOM after loading lacks %s", filepath.Base(page), title)
		}
		if got := requests(); len(got) != 0 {
			t.Errorf("%s: the browser sent %d requests off the machine: %q", filepath.Base(page), len(got), got)
			mu.Lock()
			seen = nil
			mu.Unlock()
		}
	}
}
