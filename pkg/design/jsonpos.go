package design

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// ParseError is a problem in an input file, with the place it comes from:
// tabular.ParseError, the one error type of every evalbook reader. Line
// and Column are 1-based; Column counts characters (runes), not bytes, so
// it matches what an editor shows for Bengali or Hindi text. Field is the
// JSON path of the offending value ("metrics[2].gate"), empty when the
// problem is the syntax of the line itself.
type ParseError = tabular.ParseError

// ErrorList is every problem found in one read, in file order.
type ErrorList []*ParseError

func (l ErrorList) Error() string {
	const most = 20
	var b strings.Builder
	for i, e := range l {
		if i == most {
			fmt.Fprintf(&b, "\n(and %d more)", len(l)-most)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap lets errors.As find the individual *ParseError values.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// jsonDoc is one JSON value with the start offset of every value in it,
// keyed by path: "" is the root, "a.b" a member, "a[2]" an element.
type jsonDoc struct {
	data []byte
	pos  map[string]int64
}

// schema lists, for each object path pattern (indexes written "[]"), the
// member names allowed there.
type schema map[string][]string

// parseStrict checks that data holds exactly one JSON object with no
// duplicate member names and no member the schema does not allow, then
// decodes it into v. Errors carry the byte offset of the problem inside
// data (see offsetError).
func parseStrict(data []byte, sch schema, v any) (*jsonDoc, error) {
	doc := &jsonDoc{data: data, pos: map[string]int64{}}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	first := skipSpace(data, 0)
	if first >= int64(len(data)) {
		return nil, &offsetError{0, "", errors.New("empty input, want a JSON object")}
	}
	if data[first] != '{' {
		return nil, &offsetError{first, "", errors.New("want a JSON object")}
	}
	if err := doc.walk(dec, "", "", sch); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		at := skipSpace(data, dec.InputOffset())
		return nil, &offsetError{at, "", errors.New("unexpected data after the JSON object")}
	}
	if err := json.Unmarshal(data, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			field, at := doc.innermostBefore(te.Offset)
			return nil, &offsetError{at, field, fmt.Errorf("want %s, got a JSON %s", goTypeWords(te.Type.String()), te.Value)}
		}
		return nil, &offsetError{0, "", err}
	}
	return doc, nil
}

// offsetError is a problem at a byte offset; readers turn it into a
// *ParseError with line and column.
type offsetError struct {
	off   int64
	field string
	err   error
}

func (e *offsetError) Error() string { return e.err.Error() }

func (d *jsonDoc) walk(dec *json.Decoder, path, pattern string, sch schema) error {
	start := skipSpace(d.data, dec.InputOffset())
	tok, err := dec.Token()
	if err != nil {
		return syntaxAt(d.data, err, start)
	}
	d.pos[path] = start
	switch tok {
	case json.Delim('{'):
		allowed, known := sch[pattern]
		seen := map[string]bool{}
		for dec.More() {
			kstart := skipSpace(d.data, dec.InputOffset())
			ktok, err := dec.Token()
			if err != nil {
				return syntaxAt(d.data, err, kstart)
			}
			key, _ := ktok.(string)
			child := key
			childPattern := key
			if path != "" {
				child = path + "." + key
				childPattern = pattern + "." + key
			}
			if seen[key] {
				return &offsetError{kstart, child, errors.New("duplicate member name")}
			}
			seen[key] = true
			if known && !contains(allowed, key) {
				return &offsetError{kstart, child, fmt.Errorf("unknown field %s (allowed: %s)", tabular.Quote(key), strings.Join(allowed, ", "))}
			}
			if err := d.walk(dec, child, childPattern, sch); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return syntaxAt(d.data, err, dec.InputOffset())
		}
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if err := d.walk(dec, fmt.Sprintf("%s[%d]", path, i), pattern+"[]", sch); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return syntaxAt(d.data, err, dec.InputOffset())
		}
	}
	return nil
}

func syntaxAt(data []byte, err error, fallback int64) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &offsetError{se.Offset, "", err}
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return &offsetError{int64(len(data)), "", errors.New("unexpected end of JSON input")}
	}
	return &offsetError{fallback, "", err}
}

// at returns the offset where the value at path starts, or -1.
func (d *jsonDoc) at(path string) int64 {
	if d == nil {
		return -1
	}
	if off, ok := d.pos[path]; ok {
		return off
	}
	return -1
}

// innermostBefore finds the value starting last before off: the value a
// decoding error at off is about.
func (d *jsonDoc) innermostBefore(off int64) (string, int64) {
	paths := make([]string, 0, len(d.pos))
	for p := range d.pos {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	best, bestOff := "", int64(-1)
	for _, p := range paths {
		if o := d.pos[p]; o < off && o > bestOff {
			best, bestOff = p, o
		}
	}
	if bestOff < 0 {
		bestOff = 0
	}
	return best, bestOff
}

func skipSpace(data []byte, off int64) int64 {
	for off < int64(len(data)) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

// lineCol converts a byte offset in data into a 1-based line and a 1-based
// column counted in runes.
func lineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	head := data[:off]
	line = 1 + bytes.Count(head, []byte{'\n'})
	lastNL := bytes.LastIndexByte(head, '\n')
	col = 1 + utf8.RuneCount(head[lastNL+1:])
	return line, col
}

func goTypeWords(t string) string {
	switch {
	case t == "string":
		return "a string"
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "*float"), strings.HasPrefix(t, "float"):
		return "a number"
	case strings.HasPrefix(t, "int"):
		return "an integer"
	}
	return "an object"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
