package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
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
	off := 0
	for off < len(raw) {
		r, n := utf8.DecodeRune(raw[off:])
		if r == utf8.RuneError && n == 1 {
			break
		}
		off += n
	}
	err := fmt.Errorf("%w: byte 0x%02X; re-save the file as UTF-8", ErrInvalidUTF8, raw[off])
	if key := jsonKeyAt(raw, off); key != "" {
		err = fmt.Errorf("field %q: %w", key, err)
	}
	return &ParseError{File: file, Line: line, Column: off + 1, Err: err}
}

// jsonKeyAt returns the top-level key of the JSON object in line whose
// key or value spans byte offset off, or "" when none does.
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
