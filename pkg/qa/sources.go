package qa

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/results"
)

// csvSource reads CSV with encoding/csv; it is used when invalid UTF-8
// is to be repaired rather than rejected.
type csvSource struct {
	name     string
	r        *csv.Reader
	repair   bool
	repaired results.Warning // rows in which invalid UTF-8 was replaced
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

func (s *csvSource) Header() ([]string, error) {
	h, err := s.r.Read()
	if err == io.EOF {
		return nil, &ParseError{File: s.name, Err: ErrEmptyFile}
	}
	if err != nil {
		return nil, s.wrap(err)
	}
	s.r.FieldsPerRecord = -1
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
				return nil, line, &ParseError{File: s.name, Line: line, Err: ErrInvalidUTF8}
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
type jsonlSource struct {
	name   string
	sc     *bufio.Scanner
	line   int
	header []string
	index  map[string]int
	first  []string
}

func newJSONLSource(r io.Reader, name string) *jsonlSource {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	return &jsonlSource{name: name, sc: sc}
}

func (s *jsonlSource) Header() ([]string, error) {
	keys, vals, line, err := s.object()
	if err == io.EOF {
		return nil, &ParseError{File: s.name, Err: ErrEmptyFile}
	}
	if err != nil {
		return nil, err
	}
	s.header = keys
	s.index = map[string]int{}
	for i, k := range keys {
		s.index[k] = i
	}
	s.first = vals
	_ = line
	return keys, nil
}

func (s *jsonlSource) Next() ([]string, int, error) {
	if s.first != nil {
		f := s.first
		s.first = nil
		return f, s.line, nil
	}
	keys, vals, line, err := s.object()
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

// object reads the next non-empty line as a flat JSON object of scalars,
// keeping key order.
func (s *jsonlSource) object() (keys, vals []string, line int, err error) {
	for s.sc.Scan() {
		s.line++
		b := bytes.TrimSpace(s.sc.Bytes())
		if s.line == 1 {
			b = bytes.TrimPrefix(b, []byte("\uFEFF"))
		}
		if len(b) == 0 {
			continue
		}
		if !utf8.Valid(b) {
			return nil, nil, s.line, &ParseError{File: s.name, Line: s.line, Err: ErrInvalidUTF8}
		}
		keys, vals, err := flatObject(b)
		if err != nil {
			return nil, nil, s.line, &ParseError{File: s.name, Line: s.line, Err: err}
		}
		return keys, vals, s.line, nil
	}
	if err := s.sc.Err(); err != nil {
		return nil, nil, s.line, &ParseError{File: s.name, Line: s.line + 1, Err: err}
	}
	return nil, nil, s.line, io.EOF
}

func flatObject(b []byte) (keys, vals []string, err error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	t, err := dec.Token()
	if err != nil {
		return nil, nil, fmt.Errorf("not JSON: %v", err)
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, nil, fmt.Errorf("each line must be a JSON object, found %v", t)
	}
	seen := map[string]bool{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, nil, fmt.Errorf("bad JSON: %v", err)
		}
		k := kt.(string)
		if seen[k] {
			return nil, nil, fmt.Errorf("key %q appears twice", k)
		}
		seen[k] = true
		vt, err := dec.Token()
		if err != nil {
			return nil, nil, fmt.Errorf("bad JSON in %q: %v", k, err)
		}
		var v string
		switch x := vt.(type) {
		case string:
			v = x
		case json.Number:
			v = x.String()
		case bool:
			v = strconv.FormatBool(x)
		case nil:
			v = ""
		default:
			return nil, nil, fmt.Errorf("value of %q must be a string, number, boolean or null, not an array or object", k)
		}
		keys = append(keys, k)
		vals = append(vals, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, fmt.Errorf("bad JSON: %v", err)
	}
	if dec.More() {
		return nil, nil, fmt.Errorf("trailing data after the object")
	}
	return keys, vals, nil
}
