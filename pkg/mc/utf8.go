package mc

import (
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
// starts at line and column col (1-based; col 0 when unknown), or nil when
// s is valid UTF-8. The line is that of the bad byte, which in a quoted
// field with line breaks may come after the field's first line.
func fieldUTF8Error(file string, line, col int, field, s string) *ParseError {
	off := rawpos.InvalidUTF8([]byte(s))
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
	off := rawpos.InvalidUTF8(b)
	return &ParseError{File: file, Line: line, Column: utf8.RuneCount(b[:off]) + 1, Field: rawpos.JSONKeyAt(b, off),
		Err: fmt.Errorf("%w: byte 0x%02X; re-save the file as UTF-8", ErrInvalidUTF8, b[off])}
}
