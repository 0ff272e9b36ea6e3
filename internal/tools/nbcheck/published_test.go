package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sha256("abc"), the example of FIPS 180-2, appendix B.1.
const abcSum = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"

// TestPublished: a page passes when it was made from the notebook as it
// is (line endings aside) and its style sheet is there; a stale, missing,
// orphaned or machine-specific page fails with a line that says what to do.
func TestPublished(t *testing.T) {
	root := t.TempDir()
	nbDir, docs := filepath.Join(root, "notebooks"), filepath.Join(root, "docs", "notebooks")
	for _, d := range []string{nbDir, docs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, s string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	nb := filepath.Join(nbDir, "01-x.ipynb")
	page := filepath.Join(docs, "01-x.html")
	pageFor := func(name, sum, extra string) string {
		return `<head><meta charset="utf-8" />
<meta name="evalbook-notebook" content="` + name + `.ipynb sha256:` + sum + `">
<link rel="stylesheet" href="notebook-1.css">
</head><body>` + extra + `</body>`
	}
	check := func() (int, string) {
		var stdout, stderr bytes.Buffer
		code := run([]string{"-q", "-published", docs, nb}, &stdout, &stderr)
		return code, stdout.String()
	}
	pass, err := os.ReadFile(filepath.Join("testdata", "pass.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	lf := strings.ReplaceAll(string(pass), "\r\n", "\n")
	sum := notebookSum([]byte(lf)) // checked against FIPS 180-2 in TestNotebookSum
	write(nb, lf)
	write(page, pageFor("01-x", sum, "<p>0.603</p>"))
	write(filepath.Join(docs, "notebook-1.css"), "body{}")
	if code, out := check(); code != 0 || out != "" {
		t.Fatalf("a fresh page: exit %d, %q", code, out)
	}
	// Windows line endings in a checkout do not make the page stale.
	write(nb, strings.ReplaceAll(lf, "\n", "\r\n"))
	write(page, pageFor("01-x", sum, ""))
	if code, out := check(); code != 0 {
		t.Errorf("CRLF notebook: exit %d, %q", code, out)
	}
	for _, tt := range []struct {
		name, page, want string
	}{
		{"stale", pageFor("01-x", abcSum, ""), "made from another version of " + nb + " (sha256 ba7816bf8f01, the notebook's is " + sum[:12]},
		{"another notebook's page", pageFor("02-y", sum, ""), "made from 02-y.ipynb, not 01-x.ipynb"},
		{"no meta", "<head></head>", `no <meta name="evalbook-notebook"> line`},
		{"machine path", pageFor("01-x", sum, "<pre>open /home/asha/evalbook/x.csv</pre>"), "shows a path of the machine it was made on"},
		// The checkout's own folder, wherever it is (here a temporary one).
		{"checkout path", pageFor("01-x", sum, "<pre>open "+root+"/datasets/x.csv</pre>"), "shows a path of the machine it was made on"},
	} {
		write(page, tt.page)
		code, out := check()
		if code != 1 || !strings.Contains(out, tt.want) || !strings.Contains(out, "FAIL ") {
			t.Errorf("%s: exit %d, %q; want 1 and %q", tt.name, code, out, tt.want)
		}
	}
	write(page, pageFor("01-x", sum, ""))
	if err := os.Remove(filepath.Join(docs, "notebook-1.css")); err != nil {
		t.Fatal(err)
	}
	if code, out := check(); code != 1 || !strings.Contains(out, "style sheet notebook-1.css is missing") {
		t.Errorf("missing style sheet: exit %d, %q", code, out)
	}
	write(filepath.Join(docs, "notebook-1.css"), "body{}")
	write(filepath.Join(docs, "03-gone.html"), pageFor("03-gone", abcSum, ""))
	if code, out := check(); code != 1 || !strings.Contains(out, "03-gone.html: its notebook 03-gone.ipynb is gone") {
		t.Errorf("orphan page: exit %d, %q", code, out)
	}
	if err := os.Remove(page); err != nil {
		t.Fatal(err)
	}
	if code, out := check(); code != 1 || !strings.Contains(out, "not published: "+page+" is missing (run scripts/nbhtml.py") {
		t.Errorf("missing page: exit %d, %q", code, out)
	}
}

// TestNotebookSum: the hash is SHA-256 of the bytes with CRLF as LF.
func TestNotebookSum(t *testing.T) {
	if got := notebookSum([]byte("abc")); got != abcSum {
		t.Errorf("notebookSum(abc) = %s, want %s", got, abcSum)
	}
}
