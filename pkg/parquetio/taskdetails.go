package parquetio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/pkg/tasks"
)

// TaskDetailsKey is the key of the file metadata that holds a task
// details file's header (tasks.Header as JSON).
const TaskDetailsKey = "evalbook.task_details"

// taskSchema is the Parquet layout of a task run's details: one row per
// item, one column per member of tasks.Sample under its JSON name, the
// continuations and responses as lists of structs, so that DuckDB reads
// e.g. continuations[1].logprob. Every column may be null (an empty list
// or a missing answer), as the JSONL form leaves those members out.
func taskSchema(header []byte) *arrow.Schema {
	str, i64, f64 := arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Float64
	f := func(name string, t arrow.DataType) arrow.Field {
		return arrow.Field{Name: name, Type: t, Nullable: true}
	}
	cont := arrow.StructOf(f("text", str), f("chars", i64), f("logprob", f64), f("tokens", i64),
		f("token_logprobs", arrow.ListOf(f64)), f("straddle", arrow.FixedWidthTypes.Boolean))
	resp := arrow.StructOf(f("text", str), f("finish_reason", str), f("extracted", str))
	md := arrow.NewMetadata([]string{TaskDetailsKey}, []string{string(header)})
	return arrow.NewSchema([]arrow.Field{
		f("task", str), f("index", i64), f("id", str), f("fewshot_ids", arrow.ListOf(str)), f("prompt", str),
		f("choices", arrow.ListOf(str)), f("gold", i64), f("golden", str), f("letters", arrow.ListOf(str)),
		f("continuations", arrow.ListOf(cont)), f("responses", arrow.ListOf(resp)),
		f("prompt_tokens", i64), f("completion_tokens", i64), f("error", str),
	}, &md)
}

// WriteTaskDetails writes a task run's details to w (which it does not
// close) as Parquet: the header in the file metadata (TaskDetailsKey),
// one row per item (see taskSchema), opt.RowGroupRows items per row group.
// ReadTaskDetails reads it back to the same Details, so `task merge` and
// re-scoring take Parquet as they take JSONL.
func WriteTaskDetails(w io.Writer, d *tasks.Details, opt WriteOptions) error {
	header, err := json.Marshal(d.Header)
	if err != nil {
		return err
	}
	if opt.RowGroupRows <= 0 {
		opt.RowGroupRows = DefaultRowGroupRows
	}
	sc := taskSchema(header)
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithMaxRowGroupLength(int64(opt.RowGroupRows)))
	fw, err := pqarrow.NewFileWriter(sc, struct{ io.Writer }{w}, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return fmt.Errorf("parquetio: %w", err)
	}
	// Each batch of items goes through its JSON form, the one the JSONL
	// details use, so both forms hold the same values (floats exactly:
	// the shortest text that reads back to the same float64).
	for start := 0; start < len(d.Samples) || start == 0; start += opt.RowGroupRows {
		end := min(start+opt.RowGroupRows, len(d.Samples))
		var buf bytes.Buffer
		buf.WriteByte('[')
		for i := start; i < end; i++ {
			if i > start {
				buf.WriteByte(',')
			}
			b, err := json.Marshal(&d.Samples[i])
			if err != nil {
				fw.Close()
				return err
			}
			buf.Write(b)
		}
		buf.WriteByte(']')
		rec, _, err := array.RecordFromJSON(memory.DefaultAllocator, sc, &buf)
		if err != nil {
			fw.Close()
			return fmt.Errorf("parquetio: task details: %w", err)
		}
		err = fw.Write(rec)
		rec.Release()
		if err != nil {
			fw.Close()
			return fmt.Errorf("parquetio: %w", err)
		}
		if end == len(d.Samples) {
			break
		}
	}
	if err := fw.Close(); err != nil {
		return fmt.Errorf("parquetio: %w", err)
	}
	return nil
}

// ReadTaskDetails reads details that WriteTaskDetails wrote, at most
// opt.MaxBytes of them. A file without the header metadata (not evalbook
// task details), a header of another format, or a row that is not an
// item (an unknown column, a value of the wrong type) is a
// *tabular.ParseError naming the file and, for a row, its number (from
// 1) as the Line.
func ReadTaskDetails(r io.Reader, name string, opt ReadOptions) (*tasks.Details, error) {
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = DefaultMaxBytes
	}
	if opt.BatchRows <= 0 {
		opt.BatchRows = 4096
	}
	pf, err := openParquet(r, name, opt.MaxBytes)
	if err != nil {
		return nil, err
	}
	defer pf.Close()
	d := &tasks.Details{}
	kv := pf.MetaData().KeyValueMetadata()
	hv := kv.FindValue(TaskDetailsKey)
	if hv == nil {
		return nil, &tabular.ParseError{File: name, Err: fmt.Errorf("no %s metadata: not an evalbook task details file (write one with task run --details FILE.parquet)", TaskDetailsKey)}
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(*hv)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d.Header); err != nil {
		return nil, &tabular.ParseError{File: name, Err: fmt.Errorf("details header: %v", err)}
	}
	if err := d.Header.Check(); err != nil {
		return nil, &tabular.ParseError{File: name, Err: err}
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: int64(opt.BatchRows)}, memory.DefaultAllocator)
	if err != nil {
		return nil, &tabular.ParseError{File: name, Err: fmt.Errorf("the Parquet schema cannot be read as Arrow: %v", err)}
	}
	rr, err := fr.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		return nil, &tabular.ParseError{File: name, Err: err}
	}
	defer rr.Release()
	row := 0
	for rr.Next() {
		var buf bytes.Buffer
		if err := array.RecordToJSON(rr.RecordBatch(), &buf); err != nil {
			return nil, &tabular.ParseError{File: name, Line: row + 1, Err: err}
		}
		dec := json.NewDecoder(&buf)
		dec.DisallowUnknownFields()
		for {
			var s tasks.Sample
			if err := dec.Decode(&s); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				return nil, &tabular.ParseError{File: name, Line: row + 1, Err: fmt.Errorf("row %d is not a task item: %v", row+1, err)}
			}
			row++
			d.Samples = append(d.Samples, s)
		}
	}
	if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
		return nil, &tabular.ParseError{File: name, Line: row + 1, Err: err}
	}
	return d, nil
}
