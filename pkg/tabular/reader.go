package tabular

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DefaultMaxRecord is the longest record (one CSV record, quoted line
// breaks included, or one JSONL line), in bytes, that a Reader accepts
// when Options.MaxRecord is 0: 16 MiB, far beyond any table row and small
// enough that a file that is not a table cannot exhaust memory.
const DefaultMaxRecord = 16 << 20

// Options configures a Reader. The zero value picks the format by the
// name's extension, refuses invalid UTF-8 and accepts records of up to
// DefaultMaxRecord bytes.
type Options struct {
	// Format is "csv" or "jsonl"; "" decides by the name's extension
	// (FormatOf).
	Format string
	// RepairUTF8 replaces each run of invalid UTF-8 (header included)
	// with U+FFFD and sets Record.Repaired, instead of failing.
	RepairUTF8 bool
	// MaxRecord is the longest record in bytes; 0 means DefaultMaxRecord.
	MaxRecord int
	// Sparse (JSONL only) lets an object leave out keys of earlier
	// objects (the field's Kind is Absent, its text "") and add keys,
	// which extend the header in the order they first appear. Without
	// it every object must have exactly the first object's keys, so a
	// misspelt key is an error rather than a column lost.
	Sparse bool
}

// FormatOf returns the table format a file name implies: "jsonl" for
// .jsonl and .ndjson, "csv" for .csv, .txt, .tsv and no extension, and
// otherwise the lower-case extension without its dot (which Open
// refuses; package qa reads registered formats such as xlsx).
func FormatOf(name string) string {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(name), "."))
	switch ext {
	case "jsonl", "ndjson":
		return "jsonl"
	case "", "csv", "txt", "tsv":
		return "csv"
	}
	return ext
}

// A Kind says what a JSONL value was. Every CSV field is Text.
type Kind uint8

// The kinds of field value.
const (
	Text      Kind = iota // a string (every CSV field)
	Number                // a JSON number, kept as written
	Bool                  // true or false
	Null                  // null, whose text is ""
	Composite             // an object or array, kept as compact JSON
	Absent                // a key the object left out (Options.Sparse)
)

var kindNames = [...]string{"text", "number", "bool", "null", "composite", "absent"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// A Record is one row of a table.
type Record struct {
	// Line is the 1-based line on which the record starts.
	Line int
	// Fields holds one text per header name, in header order: a CSV
	// field as written, a JSONL value as its text (a string's text, a
	// number as written, true or false, "" for null or an absent key,
	// an object or array as compact JSON).
	Fields []string
	// Kinds says what each JSONL value was; nil for CSV, where every
	// field is Text.
	Kinds []Kind
	// Repaired reports that invalid UTF-8 in the record was replaced
	// (Options.RepairUTF8).
	Repaired bool
}

// Kind returns the kind of field i.
func (r *Record) Kind(i int) Kind {
	if r.Kinds == nil || i >= len(r.Kinds) {
		return Text
	}
	return r.Kinds[i]
}

// A Reader reads a table one record at a time, in the manner of
// bufio.Scanner: Scan advances to the next record, Record returns it and
// Err returns the error that stopped Scan (nil at the end of the input).
// Every error is a *ParseError.
type Reader struct {
	name   string
	format string
	header []string
	rec    Record
	err    error
	src    source
}

// source is a format's reader.
type source interface {
	// next reads the next record into rec; io.EOF at the end.
	next(rec *Record) error
	// pos is the line and character column of field i of the record
	// last read; 0, 0 when unknown.
	pos(i int) (line, column int)
	header() []string
}

// Open returns a Reader over the table in r, named name in errors;
// format is "csv", "jsonl" or "" (decide by name, FormatOf). It reads
// the header (CSV) or the first object (JSONL) before returning, so an
// empty file or a bad header is an error here. The zero Options apply.
func Open(r io.Reader, name, format string) (*Reader, error) {
	return NewReader(r, name, Options{Format: format})
}

// NewReader is Open with options.
func NewReader(r io.Reader, name string, opt Options) (*Reader, error) {
	if opt.MaxRecord <= 0 {
		opt.MaxRecord = DefaultMaxRecord
	}
	format := opt.Format
	if format == "" {
		format = FormatOf(name)
	}
	rd := &Reader{name: name, format: format}
	var err error
	switch format {
	case "csv":
		rd.src, err = newCSV(r, name, opt)
	case "jsonl":
		rd.src, err = newJSONL(r, name, opt)
	default:
		return nil, &ParseError{File: name, Err: fmt.Errorf("unknown table format %q (want csv or jsonl)", format)}
	}
	if err != nil {
		return nil, err
	}
	rd.header = rd.src.header()
	return rd, nil
}

// Name returns the name the Reader was opened with.
func (r *Reader) Name() string { return r.name }

// Format returns "csv" or "jsonl".
func (r *Reader) Format() string { return r.format }

// Header returns the column names: the CSV header row, or the JSONL keys
// in the order they first appear (with Options.Sparse the list grows as
// later objects add keys). The caller must not modify it.
func (r *Reader) Header() []string {
	r.header = r.src.header()
	return r.header
}

// Index returns the index of the first column called name, or -1.
func (r *Reader) Index(name string) int {
	for i, h := range r.Header() {
		if h == name {
			return i
		}
	}
	return -1
}

// HeaderColumn returns the character column at which header name i
// starts on its line (CSV), or 0 (JSONL, where the header is not a line).
func (r *Reader) HeaderColumn(i int) int {
	if c, ok := r.src.(*csvSource); ok && i >= 0 && i < len(c.hdrCols) {
		return c.hdrCols[i]
	}
	return 0
}

// Scan advances to the next record, reporting false at the end of the
// input or at an error (see Err).
func (r *Reader) Scan() bool {
	if r.err != nil {
		return false
	}
	r.rec = Record{}
	if err := r.src.next(&r.rec); err != nil {
		if err != io.EOF {
			r.err = err
		}
		return false
	}
	for i, f := range r.rec.Fields {
		if k := strings.IndexByte(f, 0); k >= 0 {
			r.err = r.nulError(i, f[:k])
			return false
		}
	}
	return true
}

// nulError is the error for a NUL in field i of the record just read,
// after the text before: where it is (in CSV the NUL itself; in JSONL,
// where it is written as \u0000, the value) and the field.
func (r *Reader) nulError(i int, before string) *ParseError {
	line, col := r.FieldPos(i)
	if c, ok := r.src.(*csvSource); ok {
		if l, k, ok := c.byteAt(i, 0); ok {
			line, col = l, k
		}
	}
	pe := &ParseError{File: r.name, Line: line, Column: col, Err: NULError(utf8.RuneCountInString(before) + 1)}
	if h := r.Header(); i < len(h) {
		pe.Field = h[i]
	}
	return pe
}

// Record returns the record Scan read. It and its Fields stay valid
// after the next Scan.
func (r *Reader) Record() *Record { return &r.rec }

// FieldPos returns the line and character column (both 1-based) at
// which field i of the record Scan read starts, where an error about its
// value should point: the field's first character (its opening quote, if
// quoted) in CSV, where a field after a quoted line break starts on a
// later line than Record.Line; the value's first character in JSONL. The
// column is 0 when unknown (an absent key). It must be called before the
// next Scan.
func (r *Reader) FieldPos(i int) (line, column int) {
	line, column = r.src.pos(i)
	if line == 0 {
		line = r.rec.Line
	}
	return line, column
}

// Err returns the error that stopped Scan, or nil at the end of the
// input. It is a *ParseError.
func (r *Reader) Err() error { return r.err }

// Errorf returns a *ParseError about field i of the record Scan read: its
// FieldPos and its header name as the Field. It must be called before
// the next Scan.
func (r *Reader) Errorf(i int, format string, a ...any) *ParseError {
	line, col := r.FieldPos(i)
	pe := &ParseError{File: r.name, Line: line, Column: col, Err: fmt.Errorf(format, a...)}
	if h := r.Header(); i >= 0 && i < len(h) {
		pe.Field = h[i]
	}
	return pe
}

// quoteList quotes and joins names, for messages.
func quoteList(names []string) string { return QuoteList(names) }
