package parquetio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/tabular"
)

func init() {
	qa.RegisterFormat("parquet", func(r io.Reader, name string) (qa.RowSource, error) { return Open(r, name) })
}

// DefaultMaxBytes is the largest Parquet file Open reads when
// ReadOptions.MaxBytes is 0: 1 GiB. A Parquet file is read from its footer
// backwards, so a reader that is not a file is held in memory whole; the
// limit keeps a mistaken input from exhausting it.
const DefaultMaxBytes = 1 << 30

// ReadOptions bounds a read.
type ReadOptions struct {
	// MaxBytes is the largest file accepted, in bytes; 0 means
	// DefaultMaxBytes.
	MaxBytes int64
	// MaxCell is the longest value accepted, in bytes, after conversion
	// to text; 0 means tabular.DefaultMaxRecord (16 MiB).
	MaxCell int
	// BatchRows is how many rows are decoded at a time; 0 means 4096.
	BatchRows int
}

// ErrNotText marks a value that cannot stand in a column the scorer
// reads: a list, struct or map (a Hugging Face "answers" struct, a
// lighteval "gold" list). Elsewhere such a value is kept as its JSON text.
var ErrNotText = errors.New("the value is a list, struct or map, not text")

// Source streams the rows of a Parquet file as text, one row group at a
// time: it is the qa.RowSource that `score --responses x.parquet` reads
// (the format "parquet", registered with pkg/qa when this package is
// imported).
//
// Each top-level column becomes one field. string, large_string,
// string_view and dictionary-encoded strings are read as they are;
// binary is read as text when it is valid UTF-8; integers, floats,
// booleans ("true"/"false"), decimals, dates and timestamps become their
// text (floats in their shortest form); a null becomes "" (so a null
// response is a blank response, and a null golden answer an empty one, as
// qa counts them). A list, struct or map becomes its compact JSON text,
// except in a column Score reads (qa.TextColumnsSource), where it is an
// error wrapping ErrNotText. Text that is not UTF-8 is an error wrapping
// tabular.ErrInvalidUTF8.
//
// Rows are numbered from 1 over the whole file, row groups in order (a
// Parquet file has no header row); an error is a *tabular.ParseError
// whose Line is that number, whose Field is the column, and whose
// message also gives the row group and the row within it.
type Source struct {
	name      string
	opt       ReadOptions
	fr        *pqarrow.FileReader
	header    []string
	numGroups int

	text  []bool // columns that must hold text (RequireText)
	group int    // current row group, -1 before the first
	rr    pqarrow.RecordReader
	rec   arrow.RecordBatch
	i     int // next row of rec
	inRG  int // rows of the current row group before rec's row i
	line  int // rows returned so far
	buf   bytes.Buffer
}

// Open reads the Parquet file in r. A reader that is an io.ReaderAt and
// io.Seeker (an *os.File, a *bytes.Reader) is read in place; any other is
// read into memory first, up to opt.MaxBytes. The file's footer and schema
// are read now; an unreadable file (truncated, not Parquet) is a
// *tabular.ParseError naming it.
func Open(r io.Reader, name string, opts ...ReadOptions) (*Source, error) {
	var opt ReadOptions
	if len(opts) > 0 {
		opt = opts[0]
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = DefaultMaxBytes
	}
	if opt.MaxCell <= 0 {
		opt.MaxCell = tabular.DefaultMaxRecord
	}
	if opt.BatchRows <= 0 {
		opt.BatchRows = 4096
	}
	pf, err := openParquet(r, name, opt.MaxBytes)
	if err != nil {
		return nil, err
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: int64(opt.BatchRows)}, memory.DefaultAllocator)
	if err != nil {
		return nil, &tabular.ParseError{File: name, Err: fmt.Errorf("the Parquet schema cannot be read as Arrow: %v", err)}
	}
	sc, err := fr.Schema()
	if err != nil {
		return nil, &tabular.ParseError{File: name, Err: fmt.Errorf("the Parquet schema cannot be read as Arrow: %v", err)}
	}
	s := &Source{name: name, opt: opt, fr: fr, numGroups: pf.NumRowGroups(), group: -1}
	for _, f := range sc.Fields() {
		s.header = append(s.header, f.Name)
	}
	return s, nil
}

// readerAt returns r as a parquet.ReaderAtSeeker, reading it into memory
// (at most max bytes) when it is not one.
func readerAt(r io.Reader, name string, max int64) (*sizedReader, error) {
	if ra, ok := r.(interface {
		io.ReaderAt
		io.Seeker
	}); ok {
		size, err := ra.Seek(0, io.SeekEnd)
		if err != nil {
			return nil, &tabular.ParseError{File: name, Err: err}
		}
		if size > max {
			return nil, tooBig(name, max)
		}
		if _, err := ra.Seek(0, io.SeekStart); err != nil {
			return nil, &tabular.ParseError{File: name, Err: err}
		}
		return &sizedReader{ra: ra, size: size}, nil
	}
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, &tabular.ParseError{File: name, Err: err}
	}
	if int64(len(data)) > max {
		return nil, tooBig(name, max)
	}
	if len(data) == 0 {
		return nil, &tabular.ParseError{File: name, Err: fmt.Errorf("%w: a Parquet file has at least its 8-byte footer", tabular.ErrEmptyFile)}
	}
	br := bytes.NewReader(data)
	return &sizedReader{ra: br, size: int64(len(data))}, nil
}

func tooBig(name string, max int64) error {
	return &tabular.ParseError{File: name, Err: fmt.Errorf("%w: the file is larger than the %d-byte limit for Parquet input (ReadOptions.MaxBytes)", tabular.ErrTooLong, max)}
}

// sizedReader is the parquet.ReaderAtSeeker over the input.
type sizedReader struct {
	ra interface {
		io.ReaderAt
		io.Seeker
	}
	size int64
}

func (s *sizedReader) ReadAt(p []byte, off int64) (int, error) { return s.ra.ReadAt(p, off) }
func (s *sizedReader) Seek(off int64, whence int) (int64, error) {
	return s.ra.Seek(off, whence)
}

// Header returns the names of the file's top-level columns.
func (s *Source) Header() ([]string, error) {
	if len(s.header) == 0 {
		return nil, &tabular.ParseError{File: s.name, Err: fmt.Errorf("%w: the Parquet file has no columns", tabular.ErrEmptyFile)}
	}
	return s.header, nil
}

// RequireText marks the columns (indices into Header) in which a list,
// struct or map is an error rather than JSON text; pkg/qa calls it with
// the columns it scores and groups on.
func (s *Source) RequireText(columns []int) {
	s.text = make([]bool, len(s.header))
	for _, c := range columns {
		if c >= 0 && c < len(s.text) {
			s.text[c] = true
		}
	}
}

// NumRows returns the number of rows in the file, from its footer.
func (s *Source) NumRows() int64 { return s.fr.ParquetReader().NumRows() }

// Next returns the next row's fields (one per Header column) and its
// 1-based row number, or io.EOF after the last row. The slice and its
// strings are the caller's to keep (qa keeps a batch of rows).
func (s *Source) Next() ([]string, int, error) {
	for s.rec == nil || s.i >= int(s.rec.NumRows()) {
		if err := s.advance(); err != nil {
			return nil, s.line, err
		}
	}
	s.line++
	fields := make([]string, len(s.header))
	for c := range s.header {
		v, err := s.cell(s.rec.Column(c), s.i, c)
		if err != nil {
			return nil, s.line, err
		}
		fields[c] = v
	}
	s.i++
	s.inRG++
	return fields, s.line, nil
}

// advance moves to the next record batch, opening the next row group
// when the current one is done.
func (s *Source) advance() error {
	if s.rec != nil {
		s.rec = nil
	}
	if s.rr != nil && s.rr.Next() {
		s.rec = s.rr.RecordBatch()
		s.i = 0
		return nil
	}
	if s.rr != nil {
		err := s.rr.Err()
		s.rr.Release()
		s.rr = nil
		if err != nil && !errors.Is(err, io.EOF) {
			return s.errAt(s.line+1, -1, fmt.Errorf("the row group cannot be decoded (a damaged file?): %v", err))
		}
	}
	s.group++
	if s.group >= s.numGroups {
		return io.EOF
	}
	s.inRG = 0
	rr, err := s.fr.GetRecordReader(context.Background(), nil, []int{s.group})
	if err != nil {
		return s.errAt(s.line+1, -1, fmt.Errorf("the row group cannot be read: %v", err))
	}
	s.rr = rr
	return nil
}

// errAt is the error for row line (1-based over the file), column c (-1
// for none): the row group and the row within it are in the message.
func (s *Source) errAt(line, c int, err error) error {
	pe := &tabular.ParseError{File: s.name, Line: line,
		Err: &locatedErr{fmt.Sprintf("row group %d, row %d of the group", s.group+1, s.inRG+1), err}}
	if c >= 0 {
		pe.Field = s.header[c]
	}
	return pe
}

// locatedErr prefixes a cause with where it is, and unwraps to it.
type locatedErr struct {
	where string
	err   error
}

func (e *locatedErr) Error() string { return e.where + ": " + e.err.Error() }
func (e *locatedErr) Unwrap() error { return e.err }

// cell returns the text of row i of arr, the column c.
func (s *Source) cell(arr arrow.Array, i, c int) (string, error) {
	if arr.DataType().ID() == arrow.NULL || arr.IsNull(i) {
		return "", nil
	}
	// Strings are copied out of the decoded pages, which the reader
	// may reuse for the next batch.
	var v string
	switch a := arr.(type) {
	case *array.String:
		v = strings.Clone(a.Value(i))
	case *array.LargeString:
		v = strings.Clone(a.Value(i))
	case *array.StringView:
		v = strings.Clone(a.Value(i))
	case *array.Binary:
		v = string(a.Value(i))
	case *array.LargeBinary:
		v = string(a.Value(i))
	case *array.Dictionary:
		return s.cell(a.Dictionary(), a.GetValueIndex(i), c)
	case *array.Boolean:
		return strconv.FormatBool(a.Value(i)), nil
	case *array.Int8:
		return strconv.FormatInt(int64(a.Value(i)), 10), nil
	case *array.Int16:
		return strconv.FormatInt(int64(a.Value(i)), 10), nil
	case *array.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10), nil
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10), nil
	case *array.Uint8:
		return strconv.FormatUint(uint64(a.Value(i)), 10), nil
	case *array.Uint16:
		return strconv.FormatUint(uint64(a.Value(i)), 10), nil
	case *array.Uint32:
		return strconv.FormatUint(uint64(a.Value(i)), 10), nil
	case *array.Uint64:
		return strconv.FormatUint(a.Value(i), 10), nil
	case *array.Float32:
		return strconv.FormatFloat(float64(a.Value(i)), 'g', -1, 32), nil
	case *array.Float64:
		return strconv.FormatFloat(a.Value(i), 'g', -1, 64), nil
	case *array.Float16:
		return strconv.FormatFloat(float64(a.Value(i).Float32()), 'g', -1, 32), nil
	case array.ListLike, *array.Struct:
		if s.text != nil && s.text[c] {
			return "", s.errAt(s.line, c, fmt.Errorf("%w (Parquet type %s); this column is scored or grouped on, so it must hold a string, number or boolean (pick one element into its own column first, or read the file with a reader of its harness: --format lighteval)", ErrNotText, arr.DataType()))
		}
		s.buf.Reset()
		enc := json.NewEncoder(&s.buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(arr.GetOneForMarshal(i)); err != nil {
			return "", s.errAt(s.line, c, fmt.Errorf("the %s value cannot be written as JSON: %v", arr.DataType(), err))
		}
		v = string(bytes.TrimSuffix(s.buf.Bytes(), []byte("\n")))
	default:
		switch arr.DataType().ID() {
		case arrow.DECIMAL32, arrow.DECIMAL64, arrow.DECIMAL128, arrow.DECIMAL256,
			arrow.DATE32, arrow.DATE64, arrow.TIMESTAMP, arrow.TIME32, arrow.TIME64, arrow.DURATION:
			return arr.ValueStr(i), nil
		}
		return "", s.errAt(s.line, c, fmt.Errorf("the column's Parquet type %s cannot be read as text (evalbook reads strings, numbers, booleans, decimals, dates, timestamps, and lists or structs as JSON)", arr.DataType()))
	}
	if len(v) > s.opt.MaxCell {
		return "", s.errAt(s.line, c, fmt.Errorf("%w: the value is %d bytes, beyond the %d-byte limit for one cell (ReadOptions.MaxCell)", tabular.ErrTooLong, len(v), s.opt.MaxCell))
	}
	if !utf8.ValidString(v) {
		return "", s.errAt(s.line, c, fmt.Errorf("%w: the value is not UTF-8 text (a binary column?)", tabular.ErrInvalidUTF8))
	}
	return v, nil
}

// openParquet opens the Parquet file r (at most maxBytes) for reading.
func openParquet(r io.Reader, name string, maxBytes int64) (*file.Reader, error) {
	ra, err := readerAt(r, name, maxBytes)
	if err != nil {
		return nil, err
	}
	pf, err := file.NewParquetReader(ra)
	if err != nil {
		return nil, &tabular.ParseError{File: name, Err: fmt.Errorf("not a readable Parquet file (truncated, or not Parquet at all): %v", err)}
	}
	return pf, nil
}
