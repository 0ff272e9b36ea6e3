package qa

import (
	"errors"
	"fmt"
)

// A ParseError is a problem with the input file, located as precisely as
// the format allows. Line and Column are 1-based; 0 means unknown.
type ParseError struct {
	File   string
	Line   int
	Column int    // 1-based character (rune) position within the line
	Field  string // the column name concerned, if any
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
	if e.Field != "" {
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
