package design

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/evalbook/evalbook/internal/rawpos"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// ErrInvalidUTF8 is wrapped by the error for input text that is not UTF-8,
// or JSON text with a \u escape that names no character (half of a UTF-16
// surrogate pair). encoding/json would quietly read both as U+FFFD, so two
// different files would read as the same records and hash alike.
// It is tabular.ErrInvalidUTF8, the one such error of every reader.
var ErrInvalidUTF8 = tabular.ErrInvalidUTF8

// BadText returns the byte offset of the first place in data where text
// would not decode to the characters written, and an error wrapping
// ErrInvalidUTF8 that says what is there; -1 and nil when there is none.
// It finds byte sequences that are not UTF-8 anywhere in data and, inside
// JSON strings, \u escapes of a lone surrogate (U+D800 to U+DFFF not
// forming a pair). data may be any JSON text, a JSONL line or plain text;
// for text that is not JSON only the first kind is found reliably.
func BadText(data []byte) (int, error) {
	inString := false
	for i := 0; i < len(data); {
		c := data[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n == 1 {
				_, err := badUTF8(data[i : i+1])
				return i, err
			}
			i += n
			continue
		}
		switch {
		case c == '"':
			inString = !inString
		case c == '\\' && inString:
			if i+1 < len(data) && data[i+1] == 'u' {
				r1, ok := hex4(data, i+2)
				if ok && utf16.IsSurrogate(r1) {
					r2, ok2 := rune(0), false
					if i+7 < len(data) && data[i+6] == '\\' && data[i+7] == 'u' {
						r2, ok2 = hex4(data, i+8)
					}
					if !ok2 || utf16.DecodeRune(r1, r2) == utf8.RuneError {
						return i, fmt.Errorf("%w: the escape %s is half of a UTF-16 surrogate pair, not a character", ErrInvalidUTF8, data[i:i+6])
					}
					i += 12
					continue
				}
			}
			i += 2 // the escaped character, so \" does not end the string
			continue
		case c == '\n':
			inString = false // a JSON string never spans lines
		}
		i++
	}
	return -1, nil
}

// badUTF8 is BadText for plain text: only byte sequences that are not
// UTF-8 are found.
func badUTF8(data []byte) (int, error) {
	if i := rawpos.InvalidUTF8(data); i >= 0 {
		return i, fmt.Errorf("%w: byte 0x%02X is not part of a UTF-8 character (re-save the file as UTF-8)", ErrInvalidUTF8, data[i])
	}
	return -1, nil
}

// hex4 reads four hex digits at data[i:].
func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// textError is the *ParseError for bad text at byte off of data, which
// starts on line lineOffset+1. The field is the innermost value holding
// off when the JSON otherwise parses under sch (so the message can say
// "question"), else empty.
func textError(file string, data []byte, lineOffset int, off int, err error, sch schema) *ParseError {
	line, col := lineCol(data, int64(off))
	pe := &ParseError{File: file, Line: line + lineOffset, Column: col, Err: err}
	var scratch any
	if doc, perr := parseStrict(data, sch, &scratch); perr == nil {
		if field, at := doc.innermostBefore(int64(off) + 1); at <= int64(off) {
			pe.Field = field
		}
	}
	return pe
}
