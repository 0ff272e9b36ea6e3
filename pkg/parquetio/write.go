package parquetio

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/evalbook/evalbook/pkg/results"
)

// DefaultRowGroupRows is the number of rows per row group when
// WriteOptions.RowGroupRows is 0.
const DefaultRowGroupRows = 64 << 10

// WriteOptions configures a Writer.
type WriteOptions struct {
	// RowGroupRows is the number of rows buffered, then written as one
	// row group; 0 means DefaultRowGroupRows. Memory is about this many
	// rows' text.
	RowGroupRows int
	// Omit names input columns not to write (a partitioned folder keeps
	// its partition columns in the directory names, as Hive does).
	Omit []string
}

// A Writer writes verdict rows (results.Row, as pkg/qa scores them) to one
// Parquet file, with the columns of the verdict file `score --out`
// writes, typed:
//
//   - each input column (question, answer, Domain, response, ...): string;
//   - each metric (exact_substring, word_overlap, ...): double, 1 or 0
//     for a binary metric, the score for a graded one, null where the row
//     has no verdict (NaN);
//   - matching_words, total_golden_words (with word_overlap): int64;
//   - blank_response, empty_golden: boolean;
//   - a verdict file's extra columns (a judge's reasons): string.
//
// Columns are Snappy-compressed, strings dictionary-encoded while that
// pays. The file's key-value metadata records evalbook's metric ids
// ("evalbook.metrics", "evalbook.graded"). Rows are buffered and written
// a row group at a time; Close writes the last one and the footer (it
// does not close the io.Writer).
type Writer struct {
	schema  *results.RowSchema
	fields  []int               // indices in Row.Fields that are written
	fw      *pqarrow.FileWriter // started by the first row group
	asc     *arrow.Schema
	out     io.Writer
	bg      chan arrow.RecordBatch // row groups to the encoding goroutine
	bgDone  chan error
	bgErr   atomic.Pointer[error]
	bld     *array.RecordBuilder
	strs    []*array.StringBuilder // fields, then extra
	vals    []*array.Float64Builder
	words   [2]*array.Int64Builder
	flags   [2]*array.BooleanBuilder
	n, max  int
	written int64
	closed  bool
}

// ArrowSchema returns the Arrow schema of the Parquet file a Writer writes
// for rows of s, without the omitted input columns.
func ArrowSchema(s *results.RowSchema, omit []string) (*arrow.Schema, []int, error) {
	if s == nil {
		return nil, nil, errors.New("parquetio: the row schema is nil")
	}
	var fs []arrow.Field
	var keep []int
	seen := map[string]bool{}
	add := func(name string, t arrow.DataType, nullable bool) error {
		if seen[name] {
			return fmt.Errorf("parquetio: the verdict table would have two columns named %q (rename the input column)", name)
		}
		seen[name] = true
		fs = append(fs, arrow.Field{Name: name, Type: t, Nullable: nullable})
		return nil
	}
	omitted := map[string]bool{}
	for _, o := range omit {
		omitted[o] = true
	}
	for i, c := range s.Columns {
		if omitted[c] {
			delete(omitted, c)
			continue
		}
		keep = append(keep, i)
		if err := add(c, arrow.BinaryTypes.String, false); err != nil {
			return nil, nil, err
		}
	}
	for o := range omitted {
		return nil, nil, fmt.Errorf("parquetio: no input column %q to leave out (the columns are %s)", o, strings.Join(s.Columns, ", "))
	}
	for _, m := range s.Metrics {
		if err := add(m, arrow.PrimitiveTypes.Float64, true); err != nil {
			return nil, nil, err
		}
	}
	if s.Words {
		for _, n := range []string{"matching_words", "total_golden_words"} {
			if err := add(n, arrow.PrimitiveTypes.Int64, false); err != nil {
				return nil, nil, err
			}
		}
	}
	if s.Flags {
		for _, n := range []string{"blank_response", "empty_golden"} {
			if err := add(n, arrow.FixedWidthTypes.Boolean, false); err != nil {
				return nil, nil, err
			}
		}
	}
	for _, e := range s.Extra {
		if err := add(e, arrow.BinaryTypes.String, false); err != nil {
			return nil, nil, err
		}
	}
	graded := make([]string, len(s.Graded))
	for i, g := range s.Graded {
		graded[i] = fmt.Sprint(g)
	}
	md := arrow.NewMetadata([]string{"evalbook.metrics", "evalbook.graded"},
		[]string{strings.Join(s.Metrics, ","), strings.Join(graded, ",")})
	return arrow.NewSchema(fs, &md), keep, nil
}

// NewWriter starts a Parquet file on w for rows of schema s.
func NewWriter(w io.Writer, s *results.RowSchema, opt WriteOptions) (*Writer, error) {
	asc, keep, err := ArrowSchema(s, opt.Omit)
	if err != nil {
		return nil, err
	}
	if opt.RowGroupRows <= 0 {
		opt.RowGroupRows = DefaultRowGroupRows
	}
	wr := &Writer{schema: s, fields: keep, max: opt.RowGroupRows, asc: asc, out: w}
	wr.bld = array.NewRecordBuilder(memory.DefaultAllocator, asc)
	k := 0
	for range keep {
		wr.strs = append(wr.strs, wr.bld.Field(k).(*array.StringBuilder))
		k++
	}
	for range s.Metrics {
		wr.vals = append(wr.vals, wr.bld.Field(k).(*array.Float64Builder))
		k++
	}
	if s.Words {
		wr.words = [2]*array.Int64Builder{wr.bld.Field(k).(*array.Int64Builder), wr.bld.Field(k + 1).(*array.Int64Builder)}
		k += 2
	}
	if s.Flags {
		wr.flags = [2]*array.BooleanBuilder{wr.bld.Field(k).(*array.BooleanBuilder), wr.bld.Field(k + 1).(*array.BooleanBuilder)}
		k += 2
	}
	for range s.Extra {
		wr.strs = append(wr.strs, wr.bld.Field(k).(*array.StringBuilder))
		k++
	}
	return wr, nil
}

// Write adds one row. The row is copied: it may be reused after Write
// returns (as pkg/qa reuses its rows).
func (w *Writer) Write(r *results.Row) error {
	if w.closed {
		return errors.New("parquetio: Write after Close")
	}
	if r.Schema != w.schema && (len(r.Fields) != len(w.schema.Columns) || len(r.Values) != len(w.schema.Metrics)) {
		return fmt.Errorf("parquetio: row %d has %d fields and %d verdicts; the writer's schema has %d and %d",
			r.Line, len(r.Fields), len(r.Values), len(w.schema.Columns), len(w.schema.Metrics))
	}
	for j, i := range w.fields {
		w.strs[j].Append(r.Fields[i])
	}
	for j, v := range r.Values {
		if math.IsNaN(v) {
			w.vals[j].AppendNull()
		} else {
			w.vals[j].Append(v)
		}
	}
	if w.schema.Words {
		w.words[0].Append(int64(r.Matching))
		w.words[1].Append(int64(r.TotalGolden))
	}
	if w.schema.Flags {
		w.flags[0].Append(r.Blank)
		w.flags[1].Append(r.EmptyGolden)
	}
	if len(w.schema.Extra) > 0 {
		base := len(w.fields)
		for j := range w.schema.Extra {
			v := ""
			if j < len(r.Extra) {
				v = r.Extra[j]
			}
			w.strs[base+j].Append(v)
		}
	}
	w.n++
	if w.n >= w.max {
		return w.Flush()
	}
	return nil
}

// Flush writes the buffered rows as a row group (nothing when none are
// buffered).
func (w *Writer) Flush() error {
	if w.n == 0 {
		return nil
	}
	// The builders start empty again after NewRecordBatch; reserving the
	// last row group's sizes up front spares them growing by doubling
	// (copying and clearing each buffer several times) in every group.
	rows := w.n
	data := make([]int, len(w.strs))
	for j, b := range w.strs {
		data[j] = b.DataLen()
	}
	rec := w.bld.NewRecordBatch()
	w.written += int64(w.n)
	w.n = 0
	if rows == w.max { // a full group: the next is likely its like
		w.bld.Reserve(rows)
		for j, b := range w.strs {
			b.ReserveData(data[j] + data[j]/16)
		}
	}
	if err := w.start(rec); err != nil {
		rec.Release()
		return err
	}
	// Row groups are encoded and compressed on a goroutine of their own
	// while the next one is built: with two cores, building and
	// encoding overlap. At most one row group waits.
	if w.bg == nil {
		w.bg = make(chan arrow.RecordBatch, 1)
		w.bgDone = make(chan error, 1)
		go func(fw *pqarrow.FileWriter, in <-chan arrow.RecordBatch, done chan<- error) {
			var err error
			for rec := range in {
				if err == nil {
					if werr := fw.Write(rec); werr != nil {
						err = fmt.Errorf("parquetio: writing a row group: %w", werr)
						w.bgErr.Store(&err)
					}
				}
				rec.Release()
			}
			done <- err
		}(w.fw, w.bg, w.bgDone)
	}
	if e := w.bgErr.Load(); e != nil {
		rec.Release()
		return *e
	}
	w.bg <- rec
	return nil
}

// wait ends the encoding goroutine and returns its error.
func (w *Writer) wait() error {
	if w.bg == nil {
		return nil
	}
	close(w.bg)
	err := <-w.bgDone
	w.bg = nil
	return err
}

// Rows returns the number of rows written or buffered.
func (w *Writer) Rows() int64 { return w.written + int64(w.n) }

// Buffered returns the number of rows buffered for the next row group.
func (w *Writer) Buffered() int { return w.n }

// Close writes the buffered rows and the file's footer.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	err := w.Flush()
	if werr := w.wait(); err == nil {
		err = werr
	}
	w.closed = true
	if err == nil && w.fw == nil { // no rows: an empty file with the schema
		rec := w.bld.NewRecordBatch()
		err = w.start(rec)
		rec.Release()
	}
	w.bld.Release()
	if w.fw == nil {
		return err
	}
	if cerr := w.fw.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("parquetio: closing the file: %w", cerr)
	}
	return err
}

// WriteRows writes the rows of seq (as qa.Rows yields them) to w as one
// Parquet file and returns how many it wrote. The schema is the first
// row's; a sequence without rows writes nothing and returns 0 and an
// error, as a Parquet file needs a schema (use NewWriter with a schema to
// write an empty file). An error from seq stops the writing and is
// returned as it is (a *tabular.ParseError for bad input).
func WriteRows(w io.Writer, seq iter.Seq2[*results.Row, error], opt WriteOptions) (int64, error) {
	var wr *Writer
	for r, err := range seq {
		if err != nil {
			if wr != nil {
				wr.Close()
			}
			return rowsOf(wr), err
		}
		if wr == nil {
			var nerr error
			if wr, nerr = NewWriter(w, r.Schema, opt); nerr != nil {
				return 0, nerr
			}
		}
		if err := wr.Write(r); err != nil {
			wr.Close()
			return wr.Rows(), err
		}
	}
	if wr == nil {
		return 0, errors.New("parquetio: no rows to write")
	}
	return wr.Rows(), wr.Close()
}

func rowsOf(w *Writer) int64 {
	if w == nil {
		return 0
	}
	return w.Rows()
}

// start creates the file writer, choosing each string column's encoding
// from the first row group rec: a column whose values repeat (model,
// language, Domain: fewer distinct values than half the rows) is
// dictionary-encoded and keeps min/max statistics; free text (questions,
// responses) is written plain, without statistics, as hashing every
// value into a dictionary that is then dropped costs a third of the
// writing time and min/max of free text prunes nothing.
func (w *Writer) start(rec arrow.RecordBatch) error {
	if w.fw != nil {
		return nil
	}
	opts := []parquet.WriterProperty{
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(int64(w.max)),
		parquet.WithCreatedBy("evalbook (arrow-go parquet)"),
		parquet.WithStats(true),
	}
	for c, f := range w.asc.Fields() {
		col, ok := rec.Column(c).(*array.String)
		if !ok || col.Len() == 0 {
			continue
		}
		if !repeats(col) {
			opts = append(opts, parquet.WithDictionaryFor(f.Name, false), parquet.WithStatsFor(f.Name, false))
		}
	}
	// pqarrow closes a sink that is an io.Closer; the caller owns w.
	fw, err := pqarrow.NewFileWriter(w.asc, struct{ io.Writer }{w.out}, parquet.NewWriterProperties(opts...),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return fmt.Errorf("parquetio: %w", err)
	}
	w.fw = fw
	return nil
}

// repeats reports whether col has fewer distinct values than half its
// length (counting stops as soon as that is decided).
func repeats(col *array.String) bool {
	n := col.Len()
	seen := make(map[string]struct{}, 64)
	for i := 0; i < n; i++ {
		seen[col.Value(i)] = struct{}{}
		if len(seen) >= (n+1)/2 {
			return false
		}
	}
	return true
}
