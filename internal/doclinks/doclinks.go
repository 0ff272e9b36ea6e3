// Package doclinks checks the project's Markdown: every relative link and
// image in README.md, CONTRIBUTING.md, DESIGN.md, docs/*.md and the READMEs
// under notebooks/ and datasets/ names a file that exists, and every #anchor
// names a heading (or an <a id>) of the file it points into, by GitHub's
// rule for heading anchors. Its test runs the check over the repository.
package doclinks

import (
	"bufio"
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode"
)

// A Link is one link or image target found in a Markdown file.
type Link struct {
	File   string // the Markdown file, as given to Links
	Line   int    // 1-based
	Target string // as written, e.g. "docs/speed.md#run-store"
}

// A Problem is a link that does not resolve.
type Problem struct {
	Link
	Reason string
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: link %q: %s", p.File, p.Line, p.Target, p.Reason)
}

var (
	// [text](target) and ![alt](target); target up to a space (a title) or ')'.
	inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// [label]: target
	refDef     = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$`)
	codeSpan   = regexp.MustCompile("`+[^`]*`+")
	htmlAnchor = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	headingRE  = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	linkInText = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
)

// scan calls line for every line of md outside fenced and indented code
// blocks, with inline code spans blanked out.
func scan(md []byte, line func(n int, text string)) {
	sc := bufio.NewScanner(bytes.NewReader(md))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	fence := ""
	prevBlank := true
	inIndented := false
	n := 0
	for sc.Scan() {
		n++
		t := sc.Text()
		trim := strings.TrimLeft(t, " ")
		if fence != "" {
			if strings.HasPrefix(trim, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			fence = trim[:3]
			continue
		}
		blank := strings.TrimSpace(t) == ""
		if strings.HasPrefix(t, "    ") && (prevBlank || inIndented) && !blank {
			inIndented = true
			prevBlank = false
			continue
		}
		if !blank {
			inIndented = false
		}
		prevBlank = blank
		line(n, codeSpan.ReplaceAllStringFunc(t, func(s string) string { return strings.Repeat(" ", len(s)) }))
	}
}

// Links returns the link and image targets of a Markdown document.
func Links(file string, md []byte) []Link {
	var out []Link
	scan(md, func(n int, t string) {
		for _, m := range inlineLink.FindAllStringSubmatch(t, -1) {
			out = append(out, Link{File: file, Line: n, Target: m[1]})
		}
		if m := refDef.FindStringSubmatch(t); m != nil {
			out = append(out, Link{File: file, Line: n, Target: m[1]})
		}
	})
	return out
}

// Slug is GitHub's anchor for a heading's text: lower-cased, everything
// but letters, digits, marks, spaces, hyphens and underscores dropped,
// spaces turned into hyphens.
func Slug(heading string) string {
	heading = linkInText.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Anchors returns the anchors a Markdown document defines: one per heading
// (a repeated one gets -1, -2, ... as on GitHub) and every <a id="...">.
func Anchors(md []byte) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(md))
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	fence := ""
	for sc.Scan() {
		t := sc.Text()
		trim := strings.TrimLeft(t, " ")
		if fence != "" {
			if strings.HasPrefix(trim, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			fence = trim[:3]
			continue
		}
		for _, m := range htmlAnchor.FindAllStringSubmatch(t, -1) {
			anchors[m[1]] = true
		}
		m := headingRE.FindStringSubmatch(t)
		if m == nil {
			continue
		}
		s := Slug(m[2])
		if k := seen[s]; k > 0 {
			anchors[fmt.Sprintf("%s-%d", s, k)] = true
		} else {
			anchors[s] = true
		}
		seen[s]++
	}
	return anchors
}

// Check resolves every relative link of the Markdown files (paths relative
// to root) and returns those that do not resolve. Links with a scheme
// (https:, mailto:) are not followed.
func Check(root string, files []string) ([]Problem, error) {
	var problems []Problem
	anchorCache := map[string]map[string]bool{}
	anchorsOf := func(path string) (map[string]bool, error) {
		if a, ok := anchorCache[path]; ok {
			return a, nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		a := Anchors(b)
		anchorCache[path] = a
		return a, nil
	}
	for _, f := range files {
		md, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		for _, l := range Links(f, md) {
			if u, err := url.Parse(l.Target); err == nil && u.Scheme != "" {
				continue
			}
			pathPart, anchor, _ := strings.Cut(l.Target, "#")
			pathPart, err := url.PathUnescape(pathPart)
			if err != nil {
				problems = append(problems, Problem{l, "bad escape in path"})
				continue
			}
			target := filepath.Join(root, f)
			if pathPart != "" {
				if strings.HasPrefix(pathPart, "/") {
					problems = append(problems, Problem{l, "absolute path; use a path relative to the file"})
					continue
				}
				target = filepath.Join(root, filepath.Dir(f), filepath.FromSlash(pathPart))
			}
			st, err := os.Stat(target)
			if err != nil {
				problems = append(problems, Problem{l, "no such file " + filepath.ToSlash(mustRel(root, target))})
				continue
			}
			if anchor == "" {
				continue
			}
			if st.IsDir() || !strings.HasSuffix(strings.ToLower(target), ".md") {
				problems = append(problems, Problem{l, "an anchor into something that is not a Markdown file"})
				continue
			}
			a, err := anchorsOf(target)
			if err != nil {
				return nil, err
			}
			if !a[anchor] {
				problems = append(problems, Problem{l, fmt.Sprintf("no heading with anchor #%s in %s", anchor, filepath.ToSlash(mustRel(root, target)))})
			}
		}
	}
	return problems, nil
}

func mustRel(root, path string) string {
	r, err := filepath.Rel(root, path)
	if err != nil {
		return path
	}
	return r
}
