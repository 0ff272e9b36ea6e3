package qa

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A ParseError is a problem with the input file, located as precisely as
// the format allows.
//
// Line is 1-based (the header is line 1 of a CSV file; an XLSX reader
// gives the sheet row); 0 when the problem is with the file as a whole
// (it is empty, or has no data rows).
//
// Column is the 1-based character (rune, not byte) position within that
// line where the problem is: the first bad byte of invalid UTF-8, a bad
// quote, a JSON syntax error. It is 0 when the problem has no one place
// within the line: a missing column, a record with the wrong number of
// fields, a repeated header name, an empty file; and for readers that
// cannot tell (a registered format may leave it 0).
//
// Field names the column concerned when there is one: the column holding
// invalid UTF-8, the (first) missing column, a repeated header name, the
// JSON key whose value is bad.
type ParseError struct {
	File   string
	Line   int
	Column int
	Field  string
	Err    error
}

func (e *ParseError) Error() string {
	s := e.File
	if e.Line > 0 {
		s += fmt.Sprintf(":%d", e.Line)
		if e.Column > 0 {
			s += fmt.Sprintf(":%d", e.Column)
		}
	}
	// The column is named unless the message names it already.
	if e.Field != "" && !strings.Contains(e.Err.Error(), strconv.Quote(e.Field)) {
		s += fmt.Sprintf(" (column %q)", e.Field)
	}
	return s + ": " + e.Err.Error()
}

func (e *ParseError) Unwrap() error { return e.Err }

// Errors callers may branch on.
var (
	ErrEmptyFile     = errors.New("the file is empty: expected a header row naming the columns question, answer, Domain, response")
	ErrNoRows        = errors.New("the file has a header but no data rows")
	ErrMissingColumn = errors.New("missing column")
	// ErrRequiredColumn is also matched (besides ErrMissingColumn) when
	// a required column (question, golden answer, domain, response) is
	// missing, which renaming through Options.Columns can fix.
	ErrRequiredColumn = errors.New("missing required column")
	ErrFieldCount     = errors.New("wrong number of fields")
	ErrQuote          = errors.New("bad quoting")
	// ErrInvalidUTF8 names no remedy but re-saving: how to repair the
	// bytes instead (Options.RepairUTF8) is for the caller to say, in
	// its own terms (a flag, an option).
	ErrInvalidUTF8 = errors.New("invalid UTF-8 (re-save the file as UTF-8)")
)

// errEmptyJSONL is ErrEmptyFile for JSONL, which has no header row.
var errEmptyJSONL = &wrapped{ErrEmptyFile, "the file is empty: expected one JSON object per line, with the keys question, answer, Domain, response"}

// wrapped is a sentinel error with a different message.
type wrapped struct {
	err error
	msg string
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }

// badUTF8Err is ErrInvalidUTF8 with the place of the first bad byte, in
// the words the other readers of evalbook use.
func badUTF8Err(b byte, char int, inField bool) error {
	where := ""
	if inField {
		where = fmt.Sprintf(" at character %d of the field", char)
	}
	return &wrapped{ErrInvalidUTF8, fmt.Sprintf("invalid UTF-8: first bad byte 0x%02X%s; re-save the file as UTF-8", b, where)}
}
