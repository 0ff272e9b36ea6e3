package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// The line scripts/nbhtml.py writes into every published page: the
// notebook it was made from and that notebook's SHA-256 (line endings LF).
var (
	publishedMeta = regexp.MustCompile(`<meta name="evalbook-notebook" content="([^"]+)\.ipynb sha256:([0-9a-f]{64})">`)
	publishedCSS  = regexp.MustCompile(`<link rel="stylesheet" href="([^"/]+\.css)">`)
	// machinePath finds a path of the machine a page was made on: a
	// home folder or a file URL (the checkout's own folder is looked for
	// too, whatever its name: checkPublished).
	machinePath = regexp.MustCompile(`file:///|/home/[a-z_][a-z0-9_-]*/|/Users/[A-Za-z]|/root/`)
)

// notebookSum is what scripts/nbhtml.py records for a notebook.
func notebookSum(data []byte) string {
	s := sha256.Sum256(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")))
	return hex.EncodeToString(s[:])
}

// checkPublished checks that dir holds a page for each notebook, made
// from the notebook as it is now, with its style sheet, and no page whose
// notebook is gone (looked for beside the notebooks given). It returns
// one problem per line.
func checkPublished(dir string, notebooks []string) ([]string, error) {
	var problems []string
	// The checkout the pages sit in (dir is its docs/notebooks): a page
	// that names it shows where it was made, wherever that is.
	var checkout []byte
	if abs, err := filepath.Abs(dir); err == nil {
		if root := filepath.Dir(filepath.Dir(abs)); len(root) > 1 {
			checkout = []byte(root + "/")
		}
	}
	fix := func(nb string) string {
		return fmt.Sprintf("run scripts/nbhtml.py %s and commit %s", nb, dir)
	}
	nbDirs := map[string]bool{}
	for _, nb := range notebooks {
		nbDirs[filepath.Dir(nb)] = true
		data, err := os.ReadFile(nb)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(filepath.Base(nb), ".ipynb")
		page := filepath.Join(dir, name+".html")
		html, err := os.ReadFile(page)
		if os.IsNotExist(err) {
			problems = append(problems, fmt.Sprintf("%s: not published: %s is missing (%s)", nb, page, fix(nb)))
			continue
		}
		if err != nil {
			return nil, err
		}
		m := publishedMeta.FindSubmatch(html)
		switch {
		case m == nil:
			problems = append(problems, fmt.Sprintf("%s: no <meta name=\"evalbook-notebook\"> line saying which notebook it shows (%s)", page, fix(nb)))
		case string(m[1]) != name:
			problems = append(problems, fmt.Sprintf("%s: made from %s.ipynb, not %s (%s)", page, m[1], filepath.Base(nb), fix(nb)))
		case string(m[2]) != notebookSum(data):
			problems = append(problems, fmt.Sprintf("%s: made from another version of %s (sha256 %.12s, the notebook's is %.12s): %s", page, nb, m[2], notebookSum(data), fix(nb)))
		}
		for _, css := range publishedCSS.FindAllSubmatch(html, -1) {
			if _, err := os.Stat(filepath.Join(dir, string(css[1]))); err != nil {
				problems = append(problems, fmt.Sprintf("%s: its style sheet %s is missing (%s)", page, css[1], fix(nb)))
			}
		}
		loc := machinePath.FindIndex(html)
		if i := bytes.Index(html, checkout); loc == nil && len(checkout) > 0 && i >= 0 {
			loc = []int{i, i + len(checkout)}
		}
		if loc != nil {
			problems = append(problems, fmt.Sprintf("%s: shows a path of the machine it was made on: %s", page, clip(string(html[max(loc[0]-40, 0):min(loc[1]+40, len(html))]))))
		}
	}
	pages, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil {
		return nil, err
	}
	sort.Strings(pages)
	for _, page := range pages {
		name := strings.TrimSuffix(filepath.Base(page), ".html")
		found := false
		for d := range nbDirs {
			if _, err := os.Stat(filepath.Join(d, name+".ipynb")); err == nil {
				found = true
			}
		}
		if !found {
			problems = append(problems, fmt.Sprintf("%s: its notebook %s.ipynb is gone; delete the page", page, name))
		}
	}
	return problems, nil
}
