package parquetio

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// A TableWriter writes a plain table to Parquet: text columns (nullable
// strings) then number columns (nullable doubles, NaN written as null).
// It is for tables that are not verdict rows: the rows `evalbook import
// --out rows.parquet` writes (model, task, ..., one column per metric).
type TableWriter struct {
	fw    *pqarrow.FileWriter
	bld   *array.RecordBuilder
	ntext int
	nnum  int
	n     int
	max   int
}

// NewTableWriter starts a Parquet file on w (which it does not close)
// with the given text and number columns, in that order.
func NewTableWriter(w io.Writer, text, numbers []string, opt WriteOptions) (*TableWriter, error) {
	var fs []arrow.Field
	seen := map[string]bool{}
	for i, n := range append(append([]string{}, text...), numbers...) {
		if seen[n] {
			return nil, fmt.Errorf("parquetio: the column %q is named twice", n)
		}
		seen[n] = true
		t := arrow.DataType(arrow.BinaryTypes.String)
		if i >= len(text) {
			t = arrow.PrimitiveTypes.Float64
		}
		fs = append(fs, arrow.Field{Name: n, Type: t, Nullable: true})
	}
	if len(fs) == 0 {
		return nil, errors.New("parquetio: a table needs a column")
	}
	if opt.RowGroupRows <= 0 {
		opt.RowGroupRows = DefaultRowGroupRows
	}
	codec, err := opt.codec()
	if err != nil {
		return nil, err
	}
	sc := arrow.NewSchema(fs, nil)
	props := parquet.NewWriterProperties(parquet.WithCompression(codec),
		parquet.WithMaxRowGroupLength(int64(opt.RowGroupRows)))
	fw, err := pqarrow.NewFileWriter(sc, struct{ io.Writer }{w}, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return nil, fmt.Errorf("parquetio: %w", err)
	}
	return &TableWriter{fw: fw, bld: array.NewRecordBuilder(memory.DefaultAllocator, sc), ntext: len(text), nnum: len(numbers), max: opt.RowGroupRows}, nil
}

// Write adds a row: text[i] for the i-th text column (null where
// null[i]; null may be nil), numbers[j] for the j-th number column.
func (t *TableWriter) Write(text []string, null []bool, numbers []float64) error {
	if len(text) != t.ntext || len(numbers) != t.nnum || null != nil && len(null) != t.ntext {
		return fmt.Errorf("parquetio: a row of %d texts and %d numbers for a table of %d and %d", len(text), len(numbers), t.ntext, t.nnum)
	}
	for i, s := range text {
		b := t.bld.Field(i).(*array.StringBuilder)
		if null != nil && null[i] {
			b.AppendNull()
		} else {
			b.Append(s)
		}
	}
	for j, v := range numbers {
		b := t.bld.Field(t.ntext + j).(*array.Float64Builder)
		if math.IsNaN(v) {
			b.AppendNull()
		} else {
			b.Append(v)
		}
	}
	if t.n++; t.n >= t.max {
		return t.flush()
	}
	return nil
}

func (t *TableWriter) flush() error {
	if t.n == 0 {
		return nil
	}
	t.n = 0
	rec := t.bld.NewRecordBatch()
	defer rec.Release()
	if err := t.fw.Write(rec); err != nil {
		return fmt.Errorf("parquetio: writing a row group: %w", err)
	}
	return nil
}

// Close writes the buffered rows and the footer.
func (t *TableWriter) Close() error {
	err := t.flush()
	t.bld.Release()
	if cerr := t.fw.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("parquetio: %w", cerr)
	}
	return err
}
