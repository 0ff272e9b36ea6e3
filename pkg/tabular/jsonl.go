package tabular

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/evalbook/evalbook/internal/rawpos"
)

// Lines reads a file line by line for readers of JSON Lines that decode
// each line themselves (into a struct, strictly): it numbers the lines,
// skips blank ones, strips a byte-order mark from the first, bounds the
// length of a line and refuses a line that is not UTF-8, with the
// character column of the first bad byte and the top-level key holding
// it. encoding/json would quietly turn a bad byte into U+FFFD, so the
// check must come before decoding.
//
//	ln := tabular.NewLines(r, name, 0)
//	for ln.Scan() {
//		if err := decode(ln.Bytes()); err != nil {
//			return ln.Errorf(0, "%v", err)
//		}
//	}
//	if err := ln.Err(); err != nil { ... }
type Lines struct {
	name      string
	sc        *lineScanner
	max       int
	line      int
	b         []byte
	err       error
	unchecked bool // leave invalid UTF-8 to the caller (RepairUTF8)
}

// NewLines returns a Lines over r, named name in errors; maxLine bounds
// one line in bytes (0 means Limit.MaxRecord).
func NewLines(r io.Reader, name string, maxLine int) *Lines {
	maxLine = maxRecord(maxLine)
	return &Lines{name: name, sc: &lineScanner{r: bufio.NewReaderSize(r, 64<<10), max: maxLine}, max: maxLine}
}

// Scan advances to the next line that is not blank, reporting false at
// the end of the input or at an error (see Err).
func (l *Lines) Scan() bool {
	if l.err != nil {
		return false
	}
	for l.sc.Scan() {
		l.line++
		raw := l.sc.Bytes()
		if l.line == 1 {
			raw = bytes.TrimPrefix(raw, []byte("\uFEFF"))
		}
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		if !l.unchecked && !utf8.Valid(raw) {
			off := rawpos.InvalidUTF8(raw)
			l.err = &ParseError{File: l.name, Line: l.line, Column: utf8.RuneCount(raw[:off]) + 1,
				Field: rawpos.JSONKeyAt(raw, off), Err: BadByteError(raw[off], 0)}
			return false
		}
		l.b = raw
		if len(raw) >= freeAfter {
			// One huge line: the pieces it was read in go back to the
			// system before the line is decoded.
			debug.FreeOSMemory()
		}
		return true
	}
	if err := l.sc.Err(); err != nil {
		if errors.Is(err, errLineTooLong) {
			err = fmt.Errorf("%w: the line is longer than %s, the most this reader takes; %s (is the file really JSON Lines?)", ErrTooLong, Size(l.max), LimitHint)
		}
		l.err = &ParseError{File: l.name, Line: l.line + 1, Err: err}
	}
	return false
}

// Bytes returns the line Scan read, without its line end (and, on line
// 1, without a byte-order mark); valid until the next Scan.
func (l *Lines) Bytes() []byte { return l.b }

// owned reports whether the line Scan read is in a buffer of its own,
// which no later Scan writes (a line longer than the read buffer), so
// that strings may share its bytes.
func (l *Lines) owned() bool { return l.sc.owned }

// Line returns the 1-based number of the line Scan read.
func (l *Lines) Line() int { return l.line }

// Err returns the error that stopped Scan (a *ParseError), or nil at the
// end of the input.
func (l *Lines) Err() error { return l.err }

// Column returns the 1-based character column of byte offset off of the
// line Scan read (each invalid byte counts as one character), clamped to
// the line.
func (l *Lines) Column(off int) int {
	off = max(0, min(off, len(l.b)))
	return utf8.RuneCount(l.b[:off]) + 1
}

// KeyColumn returns the character column of the first occurrence of the
// key "key" (quoted) in the line Scan read, or 0 when it is not there.
func (l *Lines) KeyColumn(key string) int {
	if key == "" {
		return 0
	}
	q, _ := json.Marshal(key)
	i := bytes.Index(l.b, q)
	if i < 0 {
		return 0
	}
	return l.Column(i)
}

// Errorf returns a *ParseError at byte offset off of the line Scan read
// (off < 0: no column).
func (l *Lines) Errorf(off int, format string, a ...any) *ParseError {
	pe := &ParseError{File: l.name, Line: l.line, Err: fmt.Errorf(format, a...)}
	if off >= 0 {
		pe.Column = l.Column(off)
	}
	return pe
}

// jsonlSource reads one JSON object per line. The header is the key
// order of the first object; without Options.Sparse later objects may
// list keys in any order but must have exactly those keys.
type jsonlSource struct {
	name   string
	ln     *Lines
	repair bool
	sparse bool
	hdr    []string
	index  map[string]int
	first  *Record // the first object, read to find the header
	offs   []int   // byte offset in ln.Bytes() of each field's value; -1 when absent
}

func newJSONL(r io.Reader, name string, opt Options) (*jsonlSource, error) {
	s := &jsonlSource{name: name, ln: NewLines(r, name, opt.MaxRecord), repair: opt.RepairUTF8, sparse: opt.Sparse, index: map[string]int{}}
	s.ln.unchecked = opt.RepairUTF8
	obj, err := s.object()
	if err == io.EOF {
		return nil, &ParseError{File: name, Err: fmt.Errorf("%w: expected one JSON object per line", ErrEmptyFile)}
	}
	if err != nil {
		return nil, err
	}
	rec := &Record{Line: s.ln.Line(), Repaired: obj.repaired, Fields: obj.vals, Kinds: obj.kinds}
	for i, k := range obj.keys {
		s.index[k] = i
	}
	s.hdr = obj.keys
	s.offs = obj.offs
	s.first = rec
	return s, nil
}

func (s *jsonlSource) header() []string { return s.hdr }

func (s *jsonlSource) pos(i int) (int, int) {
	if i < 0 || i >= len(s.offs) || s.offs[i] < 0 {
		return 0, 0
	}
	return s.ln.Line(), s.ln.Column(s.offs[i])
}

func (s *jsonlSource) next(rec *Record) error {
	if s.first != nil {
		*rec = *s.first
		s.first = nil
		return nil
	}
	obj, err := s.object()
	if err != nil {
		return err
	}
	line := s.ln.Line()
	*rec = Record{Line: line, Repaired: obj.repaired}
	for _, k := range obj.keys {
		if _, ok := s.index[k]; !ok {
			if !s.sparse {
				return &ParseError{File: s.name, Line: line, Field: k, Err: fmt.Errorf("key %s is not in the first line's keys (%s)", Quote(k), quoteList(s.hdr))}
			}
			s.index[k] = len(s.hdr)
			s.hdr = append(s.hdr, k)
		}
	}
	rec.Fields = make([]string, len(s.hdr))
	rec.Kinds = make([]Kind, len(s.hdr))
	s.offs = make([]int, len(s.hdr))
	for j := range rec.Kinds {
		rec.Kinds[j] = Absent
		s.offs[j] = -1
	}
	for i, k := range obj.keys {
		j := s.index[k]
		rec.Fields[j], rec.Kinds[j], s.offs[j] = obj.vals[i], obj.kinds[i], obj.offs[i]
	}
	if !s.sparse {
		for j, k := range rec.Kinds {
			if k == Absent {
				return &ParseError{File: s.name, Line: line, Field: s.hdr[j], Err: fmt.Errorf("%w %s in this object", ErrMissingColumn, Quote(s.hdr[j]))}
			}
		}
	}
	return nil
}

// flat is one line's object: its keys in order, their values' texts and
// kinds, and the byte offsets of the values in the line.
type flat struct {
	keys     []string
	vals     []string
	kinds    []Kind
	offs     []int
	repaired bool
}

// object reads the next non-blank line as a JSON object, keeping key
// order.
func (s *jsonlSource) object() (*flat, error) {
	if !s.ln.Scan() {
		if err := s.ln.Err(); err != nil {
			return nil, err
		}
		return nil, io.EOF
	}
	raw := s.ln.Bytes()
	line := s.ln.Line()
	start := len(raw) - len(bytes.TrimLeftFunc(raw, unicode.IsSpace))
	obj := bytes.TrimSpace(raw) // the object as the file holds it
	b, repaired := obj, false
	if !utf8.Valid(b) { // only with RepairUTF8: Lines checks otherwise
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
		repaired = true
	}
	// back maps an offset in b to one in raw.
	back := func(off int) int {
		if repaired {
			off = unrepairedOffset(obj, off)
		}
		return start + off
	}
	var f *flat
	var err error
	if len(b) >= flatFastFrom {
		f = flatValid(b, repaired || s.ln.owned())
	}
	if f == nil {
		f, err = flatObject(b)
	}
	if err != nil {
		pe := &ParseError{File: s.name, Line: line, Err: err}
		var je *jsonError
		if errors.As(err, &je) {
			if off := back(je.off); off >= 0 && off <= len(raw) {
				pe.Column = s.ln.Column(off)
			}
			pe.Field = je.key
		}
		return nil, pe
	}
	for i := range f.offs {
		f.offs[i] = back(f.offs[i])
	}
	f.repaired = repaired
	if len(raw) >= freeAfter {
		debug.FreeOSMemory() // and the decoder's buffers, before the values are used
	}
	return f, nil
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

// flatObject reads the JSON object b as keys and value texts.
func flatObject(b []byte) (*flat, error) {
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
		return nil, fail("not JSON: %v", err)
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, &jsonError{err: fmt.Errorf("each line must be a JSON object, found %v", t)}
	}
	f := &flat{}
	seen := map[string]bool{}
	for dec.More() {
		keyAt := skipSep(b, int(dec.InputOffset()))
		kt, err := dec.Token()
		if err != nil {
			return nil, fail("bad JSON: %v", err)
		}
		k := kt.(string)
		key = k
		if seen[k] {
			return nil, &jsonError{off: keyAt, key: k, err: fmt.Errorf("key %s appears twice", Quote(k))}
		}
		seen[k] = true
		at := skipSep(b, int(dec.InputOffset())) // after the key: the colon and spaces
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fail("bad JSON in %s: %v", Quote(k), err)
		}
		v, kind, err := jsonText(raw)
		if err != nil {
			return nil, fail("bad JSON in %s: %v", Quote(k), err)
		}
		f.keys = append(f.keys, k)
		f.vals = append(f.vals, v)
		f.kinds = append(f.kinds, kind)
		f.offs = append(f.offs, at)
		key = "" // an error after this value is not in it
	}
	key = ""
	if _, err := dec.Token(); err != nil {
		return nil, fail("bad JSON: %v", err)
	}
	// Decoder.More reports false before a stray '}' or ']', so look at
	// the rest of the line itself.
	if rest := b[dec.InputOffset():]; len(bytes.TrimSpace(rest)) > 0 {
		return nil, &jsonError{off: int(dec.InputOffset()) + len(rest) - len(bytes.TrimLeftFunc(rest, unicode.IsSpace)), err: errors.New("trailing data after the object")}
	}
	return f, nil
}

// skipSep returns the offset of the first byte of b at or after off that
// is neither JSON white space nor a separator (',' or ':').
func skipSep(b []byte, off int) int {
	for off < len(b) && (b[off] == ',' || b[off] == ':' || b[off] == ' ' || b[off] == '\t' || b[off] == '\r' || b[off] == '\n') {
		off++
	}
	return off
}

// jsonText turns one JSON value into field text: a string's text, a
// number as written, true or false, "" for null, and an object or array
// as compact JSON.
func jsonText(raw json.RawMessage) (string, Kind, error) {
	switch raw[0] {
	case '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, Text, err
	case '{', '[':
		var buf bytes.Buffer
		err := json.Compact(&buf, raw)
		return buf.String(), Composite, err
	case 'n':
		return "", Null, nil
	case 't', 'f':
		return string(raw), Bool, nil
	}
	// A number: its text as written (the decoder has checked the syntax).
	return string(raw), Number, nil
}

// flatFastFrom is the length of a line from which object reads it with
// flatValid first: a long line, whose copies through json.Decoder (its
// buffer, then each value as a RawMessage) cost twice its size again.
// Tests set it to 0 to hold the two paths equal.
var flatFastFrom = 4 << 20

// flatValid reads b as flatObject does when b is one valid JSON object
// without a repeated key, walking the bytes in place: json.Valid checks
// the syntax without allocating, the walk finds each key and value, and
// only the values' texts are made (jsonText). It returns nil for any
// other b, whose error flatObject then places.
//
// With share, b is never written again (a buffer of the line's own), and
// a string value without escapes is a string of b's bytes rather than a
// copy: json.Unmarshal would give the same text, since b is valid UTF-8
// and valid JSON.
func flatValid(b []byte, share bool) *flat {
	if !json.Valid(b) {
		return nil
	}
	i := skipSpace(b, 0)
	if b[i] != '{' {
		return nil
	}
	i++
	f := &flat{}
	seen := map[string]bool{}
	for {
		i = skipSpace(b, i)
		if b[i] == '}' {
			break
		}
		if b[i] == ',' {
			i = skipSpace(b, i+1)
		}
		end := jsonStringEnd(b, i)
		var k string
		if json.Unmarshal(b[i:end], &k) != nil || seen[k] {
			return nil
		}
		seen[k] = true
		i = skipSpace(b, skipSpace(b, end)+1) // past the colon
		end = jsonValueEnd(b, i)
		var v string
		var kind Kind
		if raw := b[i:end]; share && raw[0] == '"' && len(raw) > 2 && bytes.IndexByte(raw, '\\') < 0 {
			v, kind = unsafe.String(&raw[1], len(raw)-2), Text
		} else {
			var err error
			if v, kind, err = jsonText(raw); err != nil {
				return nil
			}
		}
		f.keys = append(f.keys, k)
		f.vals = append(f.vals, v)
		f.kinds = append(f.kinds, kind)
		f.offs = append(f.offs, i)
		i = end
	}
	return f
}

// skipSpace returns the offset of the first byte of b at or after i that
// is not JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// jsonStringEnd returns the offset just past the string that starts at
// b[i] (a quote) in valid JSON.
func jsonStringEnd(b []byte, i int) int {
	for j := i + 1; ; j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
}

// jsonValueEnd returns the offset just past the value that starts at
// b[i] in valid JSON.
func jsonValueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return jsonStringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; ; j++ {
			switch b[j] {
			case '"':
				j = jsonStringEnd(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
	}
	j := i
	for j < len(b) && !strings.ContainsRune(",}] \t\r\n", rune(b[j])) {
		j++
	}
	return j
}

// errLineTooLong is a line longer than a lineScanner's max.
var errLineTooLong = errors.New("line too long")

// lineScanner splits its input into lines as bufio.Scanner with
// bufio.ScanLines does (the line end, "\n" or "\r\n", left out; a last
// line without one kept), but a line longer than its read buffer is
// collected in pieces and then copied once into a buffer of its own
// (owned), which it never writes again: a Scanner doubles its buffer up
// to the line's length and reuses it for every later line.
type lineScanner struct {
	r     *bufio.Reader
	max   int
	line  []byte
	owned bool
	err   error
}

// Scan reads the next line; false at the end of the input or an error.
func (s *lineScanner) Scan() bool {
	if s.err != nil {
		return false
	}
	s.owned = false
	frag, err := s.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		var pieces [][]byte
		n := 0
		for err == bufio.ErrBufferFull {
			n += len(frag)
			if n > s.max+1 { // room for a "\r"
				s.err = errLineTooLong
				return false
			}
			pieces = append(pieces, append([]byte(nil), frag...))
			frag, err = s.r.ReadSlice('\n')
		}
		line := make([]byte, 0, n+len(frag))
		for _, p := range pieces {
			line = append(line, p...)
		}
		frag, s.owned = append(line, frag...), true
	}
	if err != nil && err != io.EOF {
		s.err = err
		return false
	}
	if len(frag) == 0 { // the end of the input
		s.err = io.EOF
		return false
	}
	frag = bytes.TrimSuffix(frag, []byte("\n"))
	frag = bytes.TrimSuffix(frag, []byte("\r"))
	if len(frag) > s.max {
		s.err = errLineTooLong
		return false
	}
	if err == io.EOF {
		s.err = io.EOF // this line is the last
	}
	s.line = frag
	return true
}

// Bytes returns the line Scan read; valid until the next Scan, and for
// good when owned.
func (s *lineScanner) Bytes() []byte { return s.line }

// Err returns the error that stopped Scan, nil at the end of the input.
func (s *lineScanner) Err() error {
	if s.err == io.EOF {
		return nil
	}
	return s.err
}
