package qa

import (
	"errors"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// A ParseError is a problem with the input file, located as precisely as
// the format allows: file, 1-based line (0 for the whole file), 1-based
// character column (0 when the problem has no one place in the line),
// the column concerned, and the cause. It is tabular.ParseError, the one
// error type of every evalbook reader; see there for the details.
type ParseError = tabular.ParseError

// Errors callers may branch on.
var (
	// ErrEmptyFile also matches tabular.ErrEmptyFile.
	ErrEmptyFile     error = &wrapped{tabular.ErrEmptyFile, "the file is empty: expected a header row naming the columns question, answer, Domain, response"}
	ErrNoRows              = errors.New("the file has a header but no data rows")
	ErrMissingColumn       = tabular.ErrMissingColumn
	// ErrRequiredColumn is also matched (besides ErrMissingColumn) when
	// a required column (question, golden answer, domain, response) is
	// missing, which renaming through Options.Columns can fix.
	ErrRequiredColumn = errors.New("missing required column")
	ErrFieldCount     = tabular.ErrFieldCount
	ErrQuote          = tabular.ErrQuote
	// ErrInvalidUTF8 is tabular.ErrInvalidUTF8. The messages name no
	// remedy but re-saving: how to repair the bytes instead
	// (Options.RepairUTF8) is for the caller to say, in its own terms (a
	// flag, an option).
	ErrInvalidUTF8 = tabular.ErrInvalidUTF8
)

// errInvalidUTF8 is ErrInvalidUTF8 in the words qa has always used where
// it cannot say which byte is bad.
var errInvalidUTF8 = &wrapped{ErrInvalidUTF8, "invalid UTF-8 (re-save the file as UTF-8)"}

// errEmptyJSONL is ErrEmptyFile for JSONL, which has no header row.
var errEmptyJSONL = &wrapped{ErrEmptyFile, "the file is empty: expected one JSON object per line, with the keys question, answer, Domain, response"}

// wrapped is a sentinel error with a different message.
type wrapped struct {
	err error
	msg string
}

func (w *wrapped) Error() string { return w.msg }
func (w *wrapped) Unwrap() error { return w.err }
