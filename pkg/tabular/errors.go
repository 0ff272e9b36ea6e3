// Package tabular reads the small tables evalbook takes as input (label
// files, prediction files, labelled pairs, datasets, plans) and defines
// the one error type every reader of the module returns for bad input.
//
// # Errors
//
// Every reader error is a *ParseError naming the file, the 1-based line,
// the 1-based character column and the column (or key) concerned, and
// wrapping the cause; errors.As finds it through any wrapping, and the
// sentinels below (ErrInvalidUTF8, ErrQuote, ...) match with errors.Is.
// Packages qa, design, mc, agree, judge and harness re-export the type as
// an alias (qa.ParseError is tabular.ParseError), so a caller may use
// whichever name it imports.
//
// # Reading a table
//
// Open reads CSV (encoding/csv rules: RFC 4180 quoting, LF or CRLF) or
// JSONL (one JSON object per line) behind one Scanner-style API:
//
//	rd, err := tabular.Open(f, "labels.csv", "")
//	if err != nil {
//		return err // a *ParseError: an empty file, a bad header
//	}
//	for rd.Scan() {
//		rec := rd.Record() // rec.Line, rec.Fields (one per rd.Header() name)
//	}
//	if err := rd.Err(); err != nil {
//		return err // a *ParseError with file, line and character column
//	}
//
// Both formats strip a UTF-8 byte-order mark and refuse text that is not
// UTF-8 (or, with Options.RepairUTF8, replace it with U+FFFD and mark the
// record), naming the character column of the first bad byte, which is
// what an editor shows: after Hindi or Bengali text it differs from the
// byte column. A record (one CSV record or one JSONL line) may be at most
// Options.MaxRecord bytes, or else Limit.MaxRecord (DefaultMaxRecord,
// 64 MiB, unless a command's --max-field-mib or a program changed it),
// so a file that is not really a table cannot exhaust memory; a longer
// one is an error wrapping ErrTooLong that names the file, the line, the
// limit and the flag.
//
// CSV is parsed in the reader's own buffer: Scan copies each record once
// into one string that its Fields share, and ScanBytes hands the fields
// on as byte slices of that buffer (Bytes), so a long field costs its
// size once or twice, not four times as through encoding/csv.
//
// The fast scoring path of package qa parses CSV itself, for speed; this
// reader is for every other table, and for qa's slow path (repairing
// UTF-8, JSONL).
package tabular

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A ParseError is a problem with an input file, located as precisely as
// the format allows. Every reader of evalbook returns this one type (qa,
// design, mc, agree, judge and harness name it by an alias), so
//
//	var pe *tabular.ParseError
//	if errors.As(err, &pe) { ... pe.Line, pe.Column ... }
//
// works for any of them.
//
// File is the name the caller gave the reader (a path, usually).
//
// Line is 1-based (the header is line 1 of a CSV file; a spreadsheet
// reader gives the sheet row); it is 0 when the problem is with the file
// as a whole (it is empty, it has no data rows).
//
// Column is the 1-based character (rune, not byte) position within that
// line where the problem is: the first bad byte of invalid UTF-8 (each
// bad byte counts as one character), a bad quote, a JSON syntax error,
// the start of a bad value. It is 0 when the problem has no single place
// within the line: a missing column, a record with the wrong number of
// fields, a repeated header name, an empty file; and for readers that
// cannot tell (a registered format may leave it 0). Counting characters
// makes the column what an editor shows for Hindi or Bengali text, where
// one character is three bytes.
//
// Field names the column (CSV), the key (JSONL) or the JSON path (a plan:
// "metrics[2].gate") concerned, when there is one.
//
// Err is the cause; Unwrap returns it, so errors.Is matches the sentinels
// (ErrInvalidUTF8, ErrQuote, ErrFieldCount, ...) through a ParseError.
type ParseError struct {
	File   string
	Line   int
	Column int
	Field  string
	Err    error
}

// Error formats the error as
//
//	file:line:column (column "Field"): cause
//
// leaving out what is unknown: the column when Column is 0, line and
// column when Line is 0, the parenthesis when Field is empty or the cause
// already names it (quoted, as %q writes it). For example
//
//	labels.csv:3:12 (column "rater_b"): invalid UTF-8: first bad byte 0xFF at character 4 of the field; re-save the file as UTF-8
//	run.csv:1: missing column "question"
//	empty.csv: the file is empty: expected a header row
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		if e.File != "" {
			b.WriteByte(':')
		}
		b.WriteString(strconv.Itoa(e.Line))
		if e.Column > 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(e.Column))
		}
	}
	cause := "bad input"
	if e.Err != nil {
		cause = e.Err.Error()
	}
	if e.Field != "" && !strings.Contains(cause, Quote(e.Field)) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "(column %s)", Quote(e.Field))
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(cause)
	return b.String()
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// Errors callers may branch on (errors.Is); a reader wraps them in a
// *ParseError with a message that says more.
var (
	// ErrInvalidUTF8 is matched by the error for text that is not UTF-8
	// (or, in JSON, a \u escape naming half of a surrogate pair). Readers
	// refuse such text rather than guess: encoding/json would quietly
	// turn each bad byte into U+FFFD, so a label or answer with a stray
	// byte would be scored, compared and hashed as other text.
	ErrInvalidUTF8 = errors.New("invalid UTF-8")
	// ErrEmptyFile is matched by the error for a file with no header
	// (CSV) or no object (JSONL): nothing but white space.
	ErrEmptyFile = errors.New("the file is empty")
	// ErrQuote is matched by a CSV quoting error (a bare " in an
	// unquoted field, a quoted field that never ends).
	ErrQuote = errors.New("bad quoting")
	// ErrFieldCount is matched when a CSV record has more or fewer
	// fields than the header.
	ErrFieldCount = errors.New("wrong number of fields")
	// ErrMissingColumn is matched when a column (a JSONL key) that must
	// be there is not.
	ErrMissingColumn = errors.New("missing column")
	// ErrNUL is matched by the error for a NUL byte (U+0000) in a field:
	// it is valid UTF-8 but no text, and a C tool or a spreadsheet cuts
	// the text there, so it is refused, never kept or dropped silently.
	ErrNUL = errors.New("NUL byte")
	// ErrTooLong is matched when one record (a CSV record, a JSONL line)
	// is longer than the reader's limit (Options.MaxRecord, else
	// Limit.MaxRecord).
	ErrTooLong = errors.New("record too long")
)

// NULError returns the cause of a ParseError for a NUL byte that is the
// char-th character of its field.
func NULError(char int) error {
	return fmt.Errorf("%w (U+0000) at character %d of the field: a NUL is not text; remove it (e.g. tr -d '\\000' < in > out) or re-export the file", ErrNUL, char)
}

// BadByteError returns the cause of a ParseError for invalid UTF-8: it
// wraps ErrInvalidUTF8 and names the first bad byte b and, when char > 0,
// that it is the char-th character of the field (the column of the error
// gives its place in the line):
//
//	invalid UTF-8: first bad byte 0xFF at character 4 of the field; re-save the file as UTF-8
//	invalid UTF-8: first bad byte 0xFF; re-save the file as UTF-8
func BadByteError(b byte, char int) error {
	if char > 0 {
		return fmt.Errorf("%w: first bad byte 0x%02X at character %d of the field; re-save the file as UTF-8", ErrInvalidUTF8, b, char)
	}
	return fmt.Errorf("%w: first bad byte 0x%02X; re-save the file as UTF-8", ErrInvalidUTF8, b)
}
