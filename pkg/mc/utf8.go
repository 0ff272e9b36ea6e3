package mc

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/evalbook/evalbook/internal/rawpos"
)

// ErrInvalidUTF8 is the error, wrapped in a *ParseError naming the file,
// line and column, of a field that is not valid UTF-8. Such a file is
// refused rather than repaired: a label or id with a stray byte would be
// scored as some other label, or split one question in two.
var ErrInvalidUTF8 = errors.New("invalid UTF-8")

// fieldUTF8Error returns the error of a CSV field s, named field, that
// starts at line and byte column col of data (as csv.Reader.FieldPos
// gives them; data is what the reader parsed, after any byte-order
// mark), or nil when s is valid UTF-8. The error names the line and the
// character column of the bad byte itself, as an editor shows them (see
// badBytePlace); when data does not hold the field there, the bad byte's
// line only.
func fieldUTF8Error(data []byte, file string, line, col int, field, s string) *ParseError {
	off := rawpos.InvalidUTF8([]byte(s))
	if off < 0 {
		return nil
	}
	badLine, badCol := line+strings.Count(s[:off], "\n"), 0
	if l, c, ok := badBytePlace(data, line, col, s[off]); ok && l == badLine {
		badCol = c
	}
	return &ParseError{File: file, Line: badLine, Column: badCol, Field: field,
		Err: fmt.Errorf("%w: first bad byte 0x%02X at character %d of the field; re-save the file as UTF-8",
			ErrInvalidUTF8, s[off], utf8.RuneCountInString(s[:off])+1)}
}

// badBytePlace returns the 1-based line and character column of the first
// invalid UTF-8 byte of the CSV field that starts at line and byte column
// col of data (csv.Reader.FieldPos counts bytes, and from the opening
// quote of a quoted field), or ok false when data has no such place or
// the byte found there is not b, the field's bad byte.
//
// The column counts the characters of the bad byte's line before it, an
// invalid byte as one, plus one: the field's start is found in the raw
// bytes and the first invalid byte from there on is the field's. The raw
// field differs from its value only in ASCII (the quotes around it, a
// doubled quote for each quote in it, CR before LF), which can neither
// make nor mend a bad sequence, so its valid prefix is the value's and
// every quote, escaped or not, is counted where the file has it. A bad
// byte on a later line of a quoted field gets that line and its column.
func badBytePlace(data []byte, line, col int, b byte) (badLine, badCol int, ok bool) {
	if line < 1 || col < 1 {
		return 0, 0, false
	}
	start := 0 // of line
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[start:], '\n')
		if i < 0 {
			return 0, 0, false
		}
		start += i + 1
	}
	field := start + col - 1
	if field >= len(data) || bytes.IndexByte(data[start:field], '\n') >= 0 {
		return 0, 0, false
	}
	rel := rawpos.InvalidUTF8(data[field:])
	if rel < 0 || data[field+rel] != b {
		return 0, 0, false
	}
	bad := field + rel
	lineStart := bytes.LastIndexByte(data[:bad], '\n') + 1
	return line + bytes.Count(data[field:bad], []byte("\n")), utf8.RuneCount(data[lineStart:bad]) + 1, true
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
	off := rawpos.InvalidUTF8(b)
	return &ParseError{File: file, Line: line, Column: utf8.RuneCount(b[:off]) + 1, Field: rawpos.JSONKeyAt(b, off),
		Err: fmt.Errorf("%w: byte 0x%02X; re-save the file as UTF-8", ErrInvalidUTF8, b[off])}
}
