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
// starts at line and byte column col of data (as csv.Reader.FieldPos
// gives them; data is what the reader parsed, after any byte-order
// mark), or nil when s is valid UTF-8. The error names the line and the
// character column of the bad byte itself, as an editor shows them (see
// rawpos.CSVBadByte); when data does not hold the field there, the bad byte's
// line only.
func fieldUTF8Error(data []byte, file string, line, col int, field, s string) *ParseError {
	off := rawpos.InvalidUTF8([]byte(s))
	if off < 0 {
		return nil
	}
	badLine, badCol := line+strings.Count(s[:off], "\n"), 0
	if l, c, ok := rawpos.CSVBadByte(data, line, col, s[off]); ok && l == badLine {
		badCol = c
	}
	return &ParseError{File: file, Line: badLine, Column: badCol, Field: field,
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
