package qa

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evalbook/evalbook/internal/rawpos"
	"github.com/evalbook/evalbook/pkg/results"
)

// csvSource reads CSV with encoding/csv; it is used when invalid UTF-8
// is to be repaired rather than rejected.
type csvSource struct {
	name     string
	r        *csv.Reader
	repair   bool
	repaired results.Warning // rows in which invalid UTF-8 was replaced
	header   []string
}

func newCSVSource(r io.Reader, name string, repair bool) *csvSource {
	br := bufio.NewReader(r)
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte("\xEF\xBB\xBF")) {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.ReuseRecord = false
	return &csvSource{name: name, r: cr, repair: repair}
}

func (s *csvSource) wrap(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{File: s.name, Line: pe.StartLine, Column: pe.Column, Err: fmt.Errorf("%w: %v", ErrQuote, pe.Err)}
	}
	return err
}

// badUTF8 locates the first invalid UTF-8 of field i of record f.
func (s *csvSource) badUTF8(f []string, i int) error {
	off := rawpos.InvalidUTF8String(f[i])
	fl, fc := s.r.FieldPos(i)
	line, col := lineCol(f[i], off, fl)
	if line == fl {
		// FieldPos counts bytes; the fields before this one on its line
		// are valid UTF-8, so take their extra bytes off.
		for j := range i {
			lj, _ := s.r.FieldPos(j)
			part := f[j]
			if lj+strings.Count(part, "\n") != fl {
				continue // the field ends on an earlier line
			}
			if k := strings.LastIndexByte(part, '\n'); k >= 0 {
				part = part[k+1:]
			}
			fc -= len(part) - utf8.RuneCountInString(part)
		}
		col += fc - 1
	}
	pe := &ParseError{File: s.name, Line: line, Column: col, Err: badUTF8Err(f[i][off], utf8.RuneCountInString(f[i][:off])+1, true)}
	if i < len(s.header) {
		pe.Field = s.header[i]
	}
	return pe
}

func (s *csvSource) Header() ([]string, error) {
	h, err := s.r.Read()
	if err == io.EOF {
		return nil, &ParseError{File: s.name, Err: ErrEmptyFile}
	}
	if err != nil {
		return nil, s.wrap(err)
	}
	s.r.FieldsPerRecord = -1
	s.header = h
	for i := range h {
		h[i] = strings.ToValidUTF8(h[i], "\uFFFD")
	}
	return h, nil
}

func (s *csvSource) Next() ([]string, int, error) {
	f, err := s.r.Read()
	if err != nil {
		return nil, 0, s.wrap(err)
	}
	line, _ := s.r.FieldPos(0)
	fixed := false
	for i := range f {
		if !utf8.ValidString(f[i]) {
			if !s.repair {
				return nil, line, s.badUTF8(f, i)
			}
			f[i] = strings.ToValidUTF8(f[i], "\uFFFD")
			fixed = true
		}
	}
	if fixed {
		s.repaired.Count++
		if len(s.repaired.Lines) < maxWarnLines {
			s.repaired.Lines = append(s.repaired.Lines, line)
		}
	}
	return f, line, nil
}

// jsonlSource reads one JSON object per line. The header is the key
// order of the first object; later objects may list keys in any order
// but must not add keys (a typo in a key name would otherwise be lost).
//
// A value that is a string, number or boolean becomes its text and null
// becomes the empty string; an object or array (model outputs often
// carry metadata) is kept as its compact JSON text, and is an error only
// in a column the scorer reads (see textOnly).
type jsonlSource struct {
	name     string
	sc       *bufio.Scanner
	line     int
	header   []string
	index    map[string]int
	first    []string
	firstCmp []bool // which of first's values are objects or arrays
	// textOnly marks the columns that must hold a scalar, set by the
	// engine once the header is resolved; nil checks none.
	textOnly []bool
	repair   bool
	repaired results.Warning // rows in which invalid UTF-8 was replaced
}

func newJSONLSource(r io.Reader, name string, repair bool) *jsonlSource {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	return &jsonlSource{name: name, sc: sc, repair: repair}
}

func (s *jsonlSource) Header() ([]string, error) {
	keys, vals, composite, _, err := s.object()
	if err == io.EOF {
		return nil, &ParseError{File: s.name, Err: errEmptyJSONL}
	}
	if err != nil {
		return nil, err
	}
	s.header = keys
	s.index = map[string]int{}
	for i, k := range keys {
		s.index[k] = i
	}
	s.first, s.firstCmp = vals, composite
	return keys, nil
}

// requireText makes the columns at idx (negative indices are ignored)
// an error when they hold an object or array.
func (s *jsonlSource) requireText(idx []int) {
	s.textOnly = make([]bool, len(s.header))
	for _, i := range idx {
		if i >= 0 && i < len(s.textOnly) {
			s.textOnly[i] = true
		}
	}
}

func (s *jsonlSource) Next() ([]string, int, error) {
	if s.first != nil {
		// Header read only the first object, so s.line is its line.
		f, c := s.first, s.firstCmp
		s.first, s.firstCmp = nil, nil
		for j, comp := range c {
			if err := s.checkText(j, comp, s.line); err != nil {
				return nil, s.line, err
			}
		}
		return f, s.line, nil
	}
	keys, vals, composite, line, err := s.object()
	if err != nil {
		return nil, line, err
	}
	out := make([]string, len(s.header))
	seen := make([]bool, len(s.header))
	for i, k := range keys {
		j, ok := s.index[k]
		if !ok {
			return nil, line, &ParseError{File: s.name, Line: line, Field: k, Err: fmt.Errorf("key %q is not in the first line's keys (%s)", k, quoteList(s.header))}
		}
		if err := s.checkText(j, composite[i], line); err != nil {
			return nil, line, err
		}
		out[j] = vals[i]
		seen[j] = true
	}
	for j, ok := range seen {
		if !ok {
			return nil, line, &ParseError{File: s.name, Line: line, Field: s.header[j], Err: fmt.Errorf("%w %q in this object", ErrMissingColumn, s.header[j])}
		}
	}
	return out, line, nil
}

func (s *jsonlSource) checkText(j int, composite bool, line int) error {
	if composite && s.textOnly != nil && s.textOnly[j] {
		return &ParseError{File: s.name, Line: line, Field: s.header[j],
			Err: fmt.Errorf("the value of %q is an object or array; this column is scored or grouped on, so it must be a string, number, boolean or null", s.header[j])}
	}
	return nil
}

// object reads the next non-empty line as a JSON object, keeping key
// order; composite[i] reports whether vals[i] was an object or array.
func (s *jsonlSource) object() (keys, vals []string, composite []bool, line int, err error) {
	for s.sc.Scan() {
		s.line++
		b := bytes.TrimSpace(s.sc.Bytes())
		if s.line == 1 {
			b = bytes.TrimPrefix(b, []byte("\uFEFF"))
		}
		if len(b) == 0 {
			continue
		}
		obj, repaired := b, false // the object as the file holds it
		if !utf8.Valid(b) {
			if !s.repair {
				raw := s.sc.Bytes()
				off := rawpos.InvalidUTF8String(string(raw))
				_, col := lineCol(string(raw), off, s.line)
				return nil, nil, nil, s.line, &ParseError{File: s.name, Line: s.line, Column: col, Field: rawpos.JSONKeyAt(raw, off),
					Err: badUTF8Err(raw[off], 0, false)}
			}
			b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
			repaired = true
			s.repaired.Count++
			if len(s.repaired.Lines) < maxWarnLines {
				s.repaired.Lines = append(s.repaired.Lines, s.line)
			}
		}
		keys, vals, composite, err := flatObject(b)
		if err != nil {
			pe := &ParseError{File: s.name, Line: s.line, Err: err}
			var je *jsonError
			if errors.As(err, &je) {
				// The object is b, trimmed out of the line: place the
				// offset in the line as read. A repaired b has U+FFFD
				// (3 bytes) for each run of bad bytes, so its offset is
				// first taken back to the object as the file holds it;
				// the column then counts the characters of that line,
				// each bad byte as one.
				raw := s.sc.Bytes()
				start := len(raw) - len(bytes.TrimLeftFunc(raw, unicode.IsSpace))
				if s.line == 1 && bytes.HasPrefix(raw[start:], []byte("\uFEFF")) {
					start += 3
				}
				off := je.off
				if repaired {
					off = unrepairedOffset(obj, off)
				}
				if off := start + off; off >= 0 && off <= len(raw) {
					_, pe.Column = lineCol(string(raw), off, s.line)
				}
				pe.Field = je.key
			}
			return nil, nil, nil, s.line, pe
		}
		return keys, vals, composite, s.line, nil
	}
	if err := s.sc.Err(); err != nil {
		return nil, nil, nil, s.line, &ParseError{File: s.name, Line: s.line + 1, Err: err}
	}
	return nil, nil, nil, s.line, io.EOF
}

// unrepairedOffset maps byte offset off in bytes.ToValidUTF8(b, "\uFFFD")
// back to b. ToValidUTF8 replaces each run of invalid bytes with one
// U+FFFD (3 bytes) and copies everything else, so the offsets agree up
// to the first run and then differ by 3 − (the run's length) per run; an
// offset inside a replacement maps to the first byte of its run.
func unrepairedOffset(b []byte, off int) int {
	i, o := 0, 0 // offsets in b and in the repaired bytes
	for i < len(b) && o < off {
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || n != 1 {
			i, o = i+n, o+n
			continue
		}
		if off < o+3 {
			return i
		}
		for i++; i < len(b); i++ {
			if r, n := utf8.DecodeRune(b[i:]); r != utf8.RuneError || n != 1 {
				break
			}
		}
		o += 3
	}
	return i + off - o
}

// jsonError is an error of flatObject with the byte offset in the object
// where it was found and the key being read, if any.
type jsonError struct {
	off int
	key string
	err error
}

func (e *jsonError) Error() string { return e.err.Error() }
func (e *jsonError) Unwrap() error { return e.err }

func flatObject(b []byte) (keys, vals []string, composite []bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	key := ""
	fail := func(format string, a ...any) error {
		off := int(dec.InputOffset())
		// A Decoder's SyntaxError.Offset is skewed after Token calls;
		// Unmarshal checks the whole line first and places the error
		// exactly (its Offset counts the bad byte).
		var v any
		var se *json.SyntaxError
		if errors.As(json.Unmarshal(b, &v), &se) {
			off = min(int(se.Offset), len(b)) - 1
		}
		return &jsonError{off: max(off, 0), key: key, err: fmt.Errorf(format, a...)}
	}
	t, err := dec.Token()
	if err != nil {
		return nil, nil, nil, fail("not JSON: %v", err)
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, nil, nil, &jsonError{err: fmt.Errorf("each line must be a JSON object, found %v", t)}
	}
	seen := map[string]bool{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, nil, nil, fail("bad JSON: %v", err)
		}
		k := kt.(string)
		key = k
		if seen[k] {
			return nil, nil, nil, fail("key %q appears twice", k)
		}
		seen[k] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, nil, fail("bad JSON in %q: %v", k, err)
		}
		v, comp, err := jsonText(raw)
		if err != nil {
			return nil, nil, nil, fail("bad JSON in %q: %v", k, err)
		}
		keys = append(keys, k)
		vals = append(vals, v)
		composite = append(composite, comp)
	}
	key = ""
	if _, err := dec.Token(); err != nil {
		return nil, nil, nil, fail("bad JSON: %v", err)
	}
	// Decoder.More reports false before a stray '}' or ']', so look at
	// the rest of the line itself.
	if rest := b[dec.InputOffset():]; len(bytes.TrimSpace(rest)) > 0 {
		return nil, nil, nil, &jsonError{off: int(dec.InputOffset()) + len(rest) - len(bytes.TrimLeftFunc(rest, unicode.IsSpace)), err: errors.New("trailing data after the object")}
	}
	return keys, vals, composite, nil
}

// jsonText turns one JSON value into field text: a string's text, a
// number as written, true or false, "" for null, and an object or array
// as compact JSON (composite).
func jsonText(raw json.RawMessage) (string, bool, error) {
	switch raw[0] {
	case '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, false, err
	case '{', '[':
		var buf bytes.Buffer
		err := json.Compact(&buf, raw)
		return buf.String(), true, err
	case 'n':
		return "", false, nil
	}
	// A number or a boolean: its text as written (the decoder has
	// checked the syntax).
	return string(raw), false, nil
}
