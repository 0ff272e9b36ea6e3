package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// ErrEmpty is matched (errors.Is) by the error for an input file without
// any record: an empty file, blank lines, "[]", a run file's header alone.
var ErrEmpty = errors.New("no records")

// emptyError is the *ParseError, matching ErrEmpty, for a file without
// any record, in its own words.
func emptyError(file, msg string) *ParseError {
	return &ParseError{File: file, Err: &emptyCause{msg}}
}

type emptyCause struct{ msg string }

func (e *emptyCause) Error() string        { return e.msg }
func (e *emptyCause) Is(target error) bool { return target == ErrEmpty }

// ParseError is a problem in an input file with its place: file, 1-based
// line, 1-based character column, the field concerned, and the cause. It
// is tabular.ParseError, the one error type of every evalbook reader.
type ParseError = tabular.ParseError

// checkText returns a *ParseError naming file, line, column and member
// for the first text in the JSON data that is not UTF-8 or escapes a lone
// surrogate (design.BadText): encoding/json would read it as U+FFFD.
func checkText(data []byte, file string) error {
	off, err := design.BadText(data)
	if err == nil {
		return nil
	}
	line := lineAt(data, int64(off))
	start := bytes.LastIndexByte(data[:off], '\n') + 1
	col := utf8.RuneCount(data[start:off]) + 1
	return &ParseError{File: file, Line: line, Column: col, Field: memberAt(data, off), Err: err}
}

// memberAt names the object member whose value (or name) holds byte off
// of the JSON text data, the innermost one; "" when there is none or data
// is not JSON up to off.
func memberAt(data []byte, off int) string {
	type frame struct {
		obj     bool
		wantKey bool
		key     string
	}
	var stack []frame
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF || err != nil {
			return ""
		}
		end := dec.InputOffset()
		var top *frame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				stack = append(stack, frame{obj: d == '{', wantKey: d == '{'})
			default:
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].obj {
					stack[len(stack)-1].wantKey = true
				}
			}
			continue
		}
		if top != nil && top.obj && top.wantKey {
			top.key, top.wantKey = tok.(string), false
			if int(start) <= off && off < int(end) {
				return top.key
			}
			continue
		}
		if int(start) <= off && off < int(end) {
			if top != nil && top.obj {
				return top.key
			}
			for i := len(stack) - 1; i >= 0; i-- { // an element of a list: its member
				if stack[i].obj {
					return stack[i].key
				}
			}
			return ""
		}
		if top != nil && top.obj {
			top.wantKey = true
		}
	}
}
