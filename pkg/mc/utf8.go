package mc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrInvalidUTF8 is the error, wrapped in a *ParseError naming the file,
// line and column, of a field that is not valid UTF-8. Such a file is
// refused rather than repaired: a label or id with a stray byte would be
// scored as some other label, or split one question in two.
var ErrInvalidUTF8 = errors.New("invalid UTF-8")

// firstInvalid returns the byte offset of the first invalid UTF-8 sequence
// in s, or −1 when s is valid.
func firstInvalid(s string) int {
	for off := 0; off < len(s); {
		r, n := utf8.DecodeRuneInString(s[off:])
		if r == utf8.RuneError && n == 1 {
			return off
		}
		off += n
	}
	return -1
}

// fieldUTF8Error returns the error of a CSV field s, named field, that
// starts at line and column col (1-based; col 0 when unknown), or nil when
// s is valid UTF-8. The line is that of the bad byte, which in a quoted
// field with line breaks may come after the field's first line.
func fieldUTF8Error(file string, line, col int, field, s string) *ParseError {
	off := firstInvalid(s)
	if off < 0 {
		return nil
	}
	if nl := strings.Count(s[:off], "\n"); nl > 0 {
		line, col = line+nl, 0
	}
	return &ParseError{File: file, Line: line, Column: col, Field: field,
		Err: fmt.Errorf("%w: first bad byte 0x%02X at character %d of the field; re-save the file as UTF-8",
			ErrInvalidUTF8, s[off], utf8.RuneCountInString(s[:off])+1)}
}

// lineUTF8Error returns the error of a JSON line b that is not valid
// UTF-8, or nil. The column counts characters (an invalid byte counts as
// one), and the field is the top-level key whose key or value holds the
// bad byte. encoding/json would quietly turn the byte into U+FFFD, so the
// raw line is checked before it is decoded.
func lineUTF8Error(file string, line int, b []byte) error {
	if utf8.Valid(b) {
		return nil
	}
	off := firstInvalid(string(b))
	return &ParseError{File: file, Line: line, Column: utf8.RuneCount(b[:off]) + 1, Field: jsonKeyAt(b, off),
		Err: fmt.Errorf("%w: byte 0x%02X; re-save the file as UTF-8", ErrInvalidUTF8, b[off])}
}

// jsonKeyAt returns the top-level key of the JSON object in line whose
// key or value spans byte offset off, or "" when none does (or the line
// is not an object).
func jsonKeyAt(line []byte, off int) string {
	dec := json.NewDecoder(bytes.NewReader(line))
	depth, key, wantKey := 0, "", false
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
				if depth == 1 {
					wantKey = d == '{'
					continue
				}
			default:
				depth--
			}
		} else if depth == 1 && wantKey {
			key, _ = tok.(string)
			wantKey = false
			if int(dec.InputOffset()) > off {
				return key
			}
			continue
		}
		if depth >= 1 && int(dec.InputOffset()) > off {
			return key
		}
		if depth == 1 {
			wantKey = true
		}
	}
}
