package tabular

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DefaultMaxRecord is the default of Limits.MaxRecord: 64 MiB, far
// beyond any row of a real table (a long model response is a few hundred
// kilobytes) and small enough that a file that is not a table, or one
// whose unclosed quote makes the rest of it one field, cannot exhaust
// memory.
const DefaultMaxRecord = 64 << 20

// Limits bound what reading one table may cost.
type Limits struct {
	// MaxRecord is the longest record in bytes: one CSV record (its
	// quoted line breaks and line end included) or one JSON Lines line,
	// and so the longest field. A Reader holds at most one record, so
	// this bounds its memory.
	MaxRecord int
}

// DefaultLimits are the limits of a zero Options: records of up to
// DefaultMaxRecord bytes.
var DefaultLimits = Limits{MaxRecord: DefaultMaxRecord}

// Limit is what a Reader applies when Options.MaxRecord is 0, and Lines
// when NewLines is given 0; every reader of the module that reads
// through this package without a limit of its own uses it. A command
// sets it from its --max-field-mib flag before it reads; a program may
// raise it the same way. A MaxRecord of 0 means DefaultMaxRecord.
var Limit = DefaultLimits

// LimitHint is what an error about a record beyond the limit says to do.
const LimitHint = "if the file is genuine, raise the limit with --max-field-mib (tabular.Limit.MaxRecord)"

// maxRecord returns the limit a reader given max (0: none) applies.
func maxRecord(max int) int {
	if max > 0 {
		return max
	}
	if Limit.MaxRecord > 0 {
		return Limit.MaxRecord
	}
	return DefaultMaxRecord
}

// Size writes a size in bytes as messages give it: "64 MiB" when it is a
// whole number of MiB, else "300 bytes".
func Size(n int) string {
	if n > 0 && n%(1<<20) == 0 {
		return strconv.Itoa(n>>20) + " MiB"
	}
	return strconv.Itoa(n) + " bytes"
}

// Options configures a Reader. The zero value picks the format by the
// name's extension, refuses invalid UTF-8 and accepts records of up to
// Limit.MaxRecord bytes.
type Options struct {
	// Format is "csv" or "jsonl"; "" decides by the name's extension
	// (FormatOf).
	Format string
	// RepairUTF8 replaces each run of invalid UTF-8 (header included)
	// with U+FFFD and sets Record.Repaired, instead of failing.
	RepairUTF8 bool
	// MaxRecord is the longest record in bytes; 0 means Limit.MaxRecord
	// (by default DefaultMaxRecord).
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
	opt.MaxRecord = maxRecord(opt.MaxRecord)
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

// Column returns the index of the first of names that the header has.
// When it has none, the error is a *ParseError on line 1 naming the
// first name, what the column holds, every name accepted, the header, and
// need: what a file of this kind must have ("a label file needs item,
// rater and label, one row per label").
func (r *Reader) Column(names []string, what, need string) (int, error) {
	for _, c := range names {
		if i := r.Index(c); i >= 0 {
			return i, nil
		}
	}
	return -1, &ParseError{File: r.name, Line: 1, Field: names[0], Err: fmt.Errorf("no %s column (%s); the header has %s (%s)",
		what, strings.Join(names, ", "), QuoteList(r.Header()), need)}
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
	if _, ok := r.src.(*csvSource); ok { // checked on the raw bytes
		return true
	}
	for i, f := range r.rec.Fields {
		if k := strings.IndexByte(f, 0); k >= 0 {
			r.err = r.nulError(i, f[:k])
			return false
		}
	}
	return true
}

// ScanBytes is Scan without making strings of the fields: it reads and
// checks the next record as Scan does (field count, UTF-8, NUL) and
// makes its fields available to Bytes, for a caller that keeps few of
// them (a reader of labels interns them; one that needs a column or two
// copies those). Record then holds the record's Line and Repaired but
// no Fields. It reports false at the end of the input or at an error.
// For CSV a field is then cut from the reader's buffer, not copied.
func (r *Reader) ScanBytes() bool {
	c, ok := r.src.(*csvSource)
	if !ok {
		return r.Scan()
	}
	if r.err != nil {
		return false
	}
	r.rec = Record{}
	if err := c.nextRaw(&r.rec); err != nil {
		if err != io.EOF {
			r.err = err
		}
		return false
	}
	return true
}

// Bytes returns field i of the record ScanBytes (or Scan) read: its
// text as Record.Fields would hold it. It is valid until the next Scan
// or ScanBytes and must not be modified.
func (r *Reader) Bytes(i int) []byte {
	if c, ok := r.src.(*csvSource); ok {
		return c.bytes(i)
	}
	return []byte(r.rec.Fields[i])
}

// nulError is the error for a NUL in field i of the record just read
// (JSONL, where it is written as \u0000: the place of the value), after
// the text before.
func (r *Reader) nulError(i int, before string) *ParseError {
	line, col := r.FieldPos(i)
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
