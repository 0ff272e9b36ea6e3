package harness

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evalbook/evalbook/internal/rawpos"
	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// Document is one help-centre article: an id (its file name without the
// extension), a title and its paragraphs.
type Document struct {
	ID         string
	Title      string
	Paragraphs []string
}

// ParseDocument reads an article: an optional first line "# Title", then
// paragraphs separated by blank lines; the lines of a paragraph are joined
// with single spaces.
func ParseDocument(id, text string) Document {
	d := Document{ID: id}
	text = strings.ReplaceAll(strings.TrimPrefix(text, "\ufeff"), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	if len(lines) > 0 && strings.HasPrefix(lines[0], "# ") {
		d.Title = strings.TrimSpace(lines[0][2:])
		lines = lines[1:]
	}
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			d.Paragraphs = append(d.Paragraphs, strings.Join(cur, " "))
			cur = nil
		}
	}
	for _, l := range lines {
		if l = strings.TrimSpace(l); l == "" {
			flush()
		} else {
			cur = append(cur, l)
		}
	}
	flush()
	return d
}

// ReadCorpus reads every *.md file at the top of fsys as a Document, in
// file-name order. It is an error for the corpus to be empty or for a
// document to have no paragraph. A directory that does not exist (such as
// os.DirFS of a missing path) is an error saying "no such directory" that
// wraps fs.ErrNotExist, not an empty corpus. A document larger than
// tabular.FileLimit() (--max-file-mib) is an error naming it.
func ReadCorpus(fsys fs.FS) ([]Document, error) {
	// fs.Glob ignores I/O errors, so a missing directory would read as one
	// without documents: look at the top first.
	switch st, err := fs.Stat(fsys, "."); {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("no such directory: %w", err)
	case err != nil:
		return nil, fmt.Errorf("cannot read the directory: %w", err)
	case !st.IsDir():
		return nil, fmt.Errorf("not a directory")
	}
	names, err := fs.Glob(fsys, "*.md")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var docs []Document
	for _, n := range names {
		b, err := tabular.ReadFS(fsys, n)
		if err != nil {
			return nil, err
		}
		if !utf8.Valid(b) {
			off := rawpos.InvalidUTF8(b)
			start := strings.LastIndexByte(string(b[:off]), '\n') + 1
			return nil, &ParseError{File: n, Line: 1 + strings.Count(string(b[:off]), "\n"), Column: utf8.RuneCount(b[start:off]) + 1,
				Err: fmt.Errorf("%w: byte 0x%02X is not part of a UTF-8 character (re-save the file as UTF-8)", design.ErrInvalidUTF8, b[off])}
		}
		d := ParseDocument(strings.TrimSuffix(path.Base(n), ".md"), string(b))
		if len(d.Paragraphs) == 0 {
			return nil, &ParseError{File: n, Err: errors.New("no paragraph")}
		}
		docs = append(docs, d)
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("no *.md document at the top of the directory")
	}
	return docs, nil
}

// Chunking says how documents are cut into retrievable pieces.
type Chunking string

// The two chunkings.
const (
	Paragraph Chunking = "paragraph"
	Sentence  Chunking = "sentence"
)

// ParseChunking returns the chunking with the given name.
func ParseChunking(s string) (Chunking, error) {
	switch Chunking(s) {
	case Paragraph, Sentence:
		return Chunking(s), nil
	}
	return "", fmt.Errorf("unknown chunking %q (want paragraph or sentence)", s)
}

// Chunk is one retrievable piece of a document. N counts the document's
// chunks from 1.
type Chunk struct {
	DocID string
	N     int
	Text  string
}

// Chunks cuts the documents into chunks: each paragraph, or each sentence
// of each paragraph (see Sentences). A chunking other than Paragraph and
// Sentence is an error (the ParseChunking error), never a fallback.
func Chunks(docs []Document, ch Chunking) ([]Chunk, error) {
	if _, err := ParseChunking(string(ch)); err != nil {
		return nil, err
	}
	var out []Chunk
	for _, d := range docs {
		n := 0
		for _, p := range d.Paragraphs {
			pieces := []string{p}
			if ch == Sentence {
				pieces = Sentences(p)
			}
			for _, s := range pieces {
				n++
				out = append(out, Chunk{DocID: d.ID, N: n, Text: s})
			}
		}
	}
	return out, nil
}

// Sentences splits a paragraph after each '.', '!', '?', danda '।' or
// double danda '॥' that is followed by white space or the end, so "€4.50"
// stays whole. Abbreviations such as "e.g. " would be split; the sample
// corpus avoids them.
func Sentences(p string) []string {
	var out []string
	rs := []rune(p)
	start := 0
	for i, r := range rs {
		if !strings.ContainsRune(".!?।॥", r) {
			continue
		}
		if i+1 == len(rs) || unicode.IsSpace(rs[i+1]) {
			if s := strings.TrimSpace(string(rs[start : i+1])); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(string(rs[start:])); s != "" {
		out = append(out, s)
	}
	return out
}
