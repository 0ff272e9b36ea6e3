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

// InvalidUTF8String is InvalidUTF8 for a string.
func InvalidUTF8String(s string) int {
	if utf8.ValidString(s) {
		return -1
	}
	for off := 0; off < len(s); {
		r, n := utf8.DecodeRuneInString(s[off:])
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

// CSVBadByte returns the 1-based line and character column of the first
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
func CSVBadByte(data []byte, line, col int, b byte) (badLine, badCol int, ok bool) {
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
	rel := InvalidUTF8(data[field:])
	if rel < 0 || data[field+rel] != b {
		return 0, 0, false
	}
	bad := field + rel
	lineStart := bytes.LastIndexByte(data[:bad], '\n') + 1
	return line + bytes.Count(data[field:bad], []byte("\n")), utf8.RuneCount(data[lineStart:bad]) + 1, true
}
