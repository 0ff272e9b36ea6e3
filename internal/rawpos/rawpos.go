// Package rawpos finds places in raw input bytes for error messages:
// where the first byte that is not UTF-8 is, and which top-level key of a
// JSON object holds a given byte. Readers need both before decoding,
// because encoding/json quietly turns a bad byte into U+FFFD and so
// cannot say where it was.
package rawpos

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// InvalidUTF8 returns the byte offset of the first invalid UTF-8
// sequence in b, or -1 when b is valid.
func InvalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for off := 0; off < len(b); {
		r, n := utf8.DecodeRune(b[off:])
		if r == utf8.RuneError && n == 1 {
			return off
		}
		off += n
	}
	return -1
}

// JSONKeyAt returns the top-level key of the JSON object in line whose
// key or value spans byte offset off, or "" when none does (off lies
// outside the object, or line is not an object). The line need not be
// valid UTF-8: the tokenizer steps over bad bytes inside strings.
func JSONKeyAt(line []byte, off int) string {
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
