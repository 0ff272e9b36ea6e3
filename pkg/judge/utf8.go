package judge

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/evalbook/evalbook/internal/rawpos"
)

// ErrInvalidUTF8 is the error, wrapped in a *ParseError, of a line that
// is not valid UTF-8. encoding/json would quietly turn each bad byte into
// U+FFFD, so that a label set with a broken answer would calibrate and
// hash as if the answer were written that way; lines are checked raw.
var ErrInvalidUTF8 = errors.New("invalid UTF-8")

// lineUTF8Error returns the error of a JSON line that is not valid UTF-8,
// or nil: its column (1-based byte offset, as the other errors of this
// package count) and the top-level key whose key or value holds the first
// bad byte.
func lineUTF8Error(file string, line int, raw []byte) error {
	if utf8.Valid(raw) {
		return nil
	}
	off := rawpos.InvalidUTF8(raw)
	err := fmt.Errorf("%w: byte 0x%02X; re-save the file as UTF-8", ErrInvalidUTF8, raw[off])
	if key := rawpos.JSONKeyAt(raw, off); key != "" {
		err = fmt.Errorf("field %q: %w", key, err)
	}
	return &ParseError{File: file, Line: line, Column: off + 1, Err: err}
}
