package interop

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// Errors callers may branch on with errors.Is; readers wrap them in a
// *tabular.ParseError naming the file and record.
var (
	// ErrTooLarge: a file, line or ZIP member is over its limit.
	ErrTooLarge = errors.New("over the reading limit")
	// ErrSchema: the file is not the format (or version) it claims.
	ErrSchema = errors.New("unsupported schema")
	// ErrMissing: a field the format requires is absent.
	ErrMissing = errors.New("missing field")
	// ErrOutside: a harness file names a path outside the folder
	// imported (absolute, with .., or a link leading out).
	ErrOutside = errors.New("a path outside the imported folder")
)

func perr(file string, line int, field string, err error) *tabular.ParseError {
	return &tabular.ParseError{File: file, Line: line, Field: field, Err: err}
}

// sizeText writes n bytes as tabular.Size does ("64 MiB", "300 bytes").
func sizeText(n int64) string {
	if n > 0 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// readBounded reads a whole file of at most max bytes (Limits.File).
func readBounded(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, perr(path, 0, "", fmt.Errorf("%w (%w): the file is larger than %s, the most this reader takes whole; %s (or Options.Limits.File)", ErrTooLarge, tabular.ErrFileTooLarge, sizeText(max), tabular.FileLimitHint))
	}
	if !utf8.Valid(data) {
		line, col := lineCol(data, firstBad(data))
		return nil, &tabular.ParseError{File: path, Line: line, Column: col, Err: tabular.ErrInvalidUTF8}
	}
	return data, nil
}

func firstBad(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// lineCol turns a byte offset into a 1-based line and character column.
func lineCol(data []byte, off int) (int, int) {
	off = max(0, min(off, len(data)))
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	return line, utf8.RuneCount(data[start:off]) + 1
}

// decodeDoc decodes a whole JSON document into v, turning encoding/json's
// errors into a ParseError with the line, column and JSON path.
func decodeDoc(file string, data []byte, v any) error {
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := lineCol(data, int(se.Offset)-1)
		return &tabular.ParseError{File: file, Line: line, Column: col, Err: fmt.Errorf("not valid JSON: %v", se)}
	case errors.As(err, &te):
		line, col := lineCol(data, int(te.Offset)-1)
		return &tabular.ParseError{File: file, Line: line, Column: col, Field: te.Field,
			Err: fmt.Errorf("%s: a JSON %s where the format has %s", te.Field, te.Value, te.Type)}
	}
	return perr(file, 0, "", err)
}

// eachKey calls fn with each top-level key of the JSON object in b and
// the raw bytes of its value. It checks the structure (strings, nesting)
// as it skips, so it needs no second pass; values fn decodes are checked
// by encoding/json. It is the fast path of the JSONL readers: a sample
// line's large fields (doc, arguments) are stepped over, not decoded.
func eachKey(b []byte, fn func(key []byte, val []byte, off int) error) error {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return fmt.Errorf("at character 1: the line is not a JSON object")
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return trailing(b, i+1)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return syntaxAt(b, i, "a key in double quotes")
		}
		ks := i
		j, err := skipString(b, i)
		if err != nil {
			return err
		}
		key := b[ks+1 : j-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			var k string
			if err := json.Unmarshal(b[ks:j], &k); err != nil {
				return syntaxAt(b, ks, "a valid key")
			}
			key = []byte(k)
		}
		i = skipWS(b, j)
		if i >= len(b) || b[i] != ':' {
			return syntaxAt(b, i, "':' after a key")
		}
		i = skipWS(b, i+1)
		vs := i
		if i, err = skipValue(b, i); err != nil {
			return err
		}
		if err := fn(key, b[vs:i], vs); err != nil {
			return err
		}
		i = skipWS(b, i)
		if i < len(b) && b[i] == ',' {
			i = skipWS(b, i+1)
			continue
		}
		if i < len(b) && b[i] == '}' {
			return trailing(b, i+1)
		}
		return syntaxAt(b, i, "',' or '}'")
	}
}

func trailing(b []byte, i int) error {
	if i = skipWS(b, i); i != len(b) {
		return syntaxAt(b, i, "the end of the line after the object")
	}
	return nil
}

// syntaxError is a JSON syntax error of the fast path at a character
// column of the line (1-based), which the reader's ParseError carries.
type syntaxError struct {
	col int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

// syntaxColumn returns the column of a syntaxError in err, or 0.
func syntaxColumn(err error) int {
	var se *syntaxError
	if errors.As(err, &se) {
		return se.col
	}
	return 0
}

func syntaxAt(b []byte, i int, want string) error {
	if i >= len(b) {
		return &syntaxError{col: utf8.RuneCount(b) + 1, msg: fmt.Sprintf("not valid JSON: the line ends where %s should be (is it truncated?)", want)}
	}
	col := utf8.RuneCount(b[:i]) + 1
	return &syntaxError{col: col, msg: fmt.Sprintf("not valid JSON at character %d: want %s", col, want)}
}

// controlAt returns the offset of the first raw control character
// (U+0000 to U+001F) in b, or -1: JSON strings carry them escaped
// (\u0000, \n), and encoding/json refuses them raw.
func controlAt(b []byte) int {
	i := 0
	// eight bytes at a time: a byte below 0x20 is one whose subtraction
	// of 0x20 borrows into its high bit while its own high bit is clear
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if (x-0x2020202020202020)&^x&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if b[i] < 0x20 {
			return i
		}
	}
	return -1
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

func skipString(b []byte, i int) (int, error) {
	start := i
	i++
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return 0, syntaxAt(b, len(b), fmt.Sprintf("the end of the string opened at character %d", utf8.RuneCount(b[:start])+1))
		}
		// an escaped quote has an odd run of backslashes before it
		k := i + j
		bs := 0
		for k-1-bs > start && b[k-1-bs] == '\\' {
			bs++
		}
		if bs%2 == 0 {
			if c := controlAt(b[start+1 : k]); c >= 0 {
				at := start + 1 + c
				col := utf8.RuneCount(b[:at]) + 1
				return 0, &syntaxError{col: col, msg: fmt.Sprintf("not valid JSON at character %d: a raw control character U+%04X inside a string (JSON strings carry it escaped, as \\u%04X)", col, b[at], b[at])}
			}
			return k + 1, nil
		}
		i = k + 1
	}
}

// quoted returns the string a raw JSON string holds, without decoding
// when it has no escapes (the common case) and through encoding/json
// when it has.
func quoted(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	in := raw[1 : len(raw)-1]
	if bytes.IndexByte(in, '\\') < 0 {
		return string(in), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// stringList decodes a JSON list of strings (lm-eval's "metrics") into
// dst, quickly when the strings have no escapes.
func stringList(raw []byte, dst []string) ([]string, error) {
	dst = dst[:0]
	i := skipWS(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		return dst, fmt.Errorf("not a list")
	}
	i = skipWS(raw, i+1)
	if i < len(raw) && raw[i] == ']' {
		return dst, nil
	}
	for {
		if i >= len(raw) || raw[i] != '"' {
			return dst, fmt.Errorf("not a list of strings")
		}
		j, err := skipString(raw, i)
		if err != nil {
			return dst, err
		}
		s, ok := quoted(raw[i:j])
		if !ok {
			return dst, fmt.Errorf("a bad string")
		}
		dst = append(dst, s)
		i = skipWS(raw, j)
		if i < len(raw) && raw[i] == ',' {
			i = skipWS(raw, i+1)
			continue
		}
		if i < len(raw) && raw[i] == ']' {
			return dst, nil
		}
		return dst, fmt.Errorf("not a list of strings")
	}
}

func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, syntaxAt(b, i, "a value")
	}
	switch c := b[i]; c {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				j, err := skipString(b, i)
				if err != nil {
					return 0, err
				}
				i = j
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, nil
				}
			}
			i++
		}
		return 0, syntaxAt(b, len(b), "the closing bracket")
	default:
		j := i
		for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' && b[j] != '\n' {
			j++
		}
		tok := b[i:j]
		switch string(tok) {
		case "true", "false", "null", "NaN", "Infinity", "-Infinity":
			return j, nil
		}
		if _, err := strconv.ParseFloat(string(tok), 64); err != nil || len(tok) == 0 {
			return 0, syntaxAt(b, i, "a value")
		}
		return j, nil
	}
}

// number reads a JSON scalar as a metric value: a number, true/false
// (1/0), or the non-standard NaN/Infinity Python's json writes. ok is
// false for anything else (a list, an object, a string, null).
func number(raw []byte) (float64, bool) {
	switch string(raw) {
	case "true":
		return 1, true
	case "false":
		return 0, true
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
	}
	if len(raw) == 0 || !(raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9')) {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	return f, err == nil
}

// text turns a raw JSON value into display text: a string as itself, a
// list of strings joined by newlines (lm-eval's resps), anything else as
// its JSON.
func text(raw []byte) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		if s, ok := quoted(raw); ok {
			return s
		}
	}
	if raw[0] == '[' {
		var l []json.RawMessage
		if json.Unmarshal(raw, &l) == nil {
			if len(l) == 1 {
				return text(l[0])
			}
			var buf bytes.Buffer
			for i, e := range l {
				if i > 0 {
					buf.WriteByte('\n')
				}
				buf.WriteString(text(e))
			}
			return buf.String()
		}
	}
	return string(raw)
}
