package parquetio

import (
	"bytes"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

// parquetFile writes a Parquet file of the given schema from rows of Go
// values (one []any per row, one value per field, nil for null), in row
// groups of groupRows rows (0: one group). Values: string, int64, float64,
// bool, []string, []int64, []float64, map[string]any for a struct (its
// fields as above, missing ones null). It is the tests' fixture writer:
// every Parquet file the tests read is made here.
func parquetFile(t testing.TB, sc *arrow.Schema, rows [][]any, groupRows int) []byte {
	t.Helper()
	var buf bytes.Buffer
	props := parquet.NewWriterProperties()
	fw, err := pqarrow.NewFileWriter(sc, &buf, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	if groupRows <= 0 {
		groupRows = len(rows) + 1
	}
	bld := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	defer bld.Release()
	flush := func() {
		rec := bld.NewRecordBatch()
		defer rec.Release()
		if rec.NumRows() == 0 {
			return
		}
		if err := fw.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	for n, r := range rows {
		for i, v := range r {
			appendValue(t, bld.Field(i), v)
		}
		if (n+1)%groupRows == 0 {
			flush()
		}
	}
	flush()
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func appendValue(t testing.TB, b array.Builder, v any) {
	t.Helper()
	if v == nil {
		b.AppendNull()
		return
	}
	switch b := b.(type) {
	case *array.StringBuilder:
		b.Append(v.(string))
	case *array.LargeStringBuilder:
		b.Append(v.(string))
	case *array.BinaryBuilder:
		switch x := v.(type) {
		case string:
			b.AppendString(x)
		case []byte:
			b.Append(x)
		}
	case *array.BinaryDictionaryBuilder:
		if err := b.AppendString(v.(string)); err != nil {
			t.Fatal(err)
		}
	case *array.Int64Builder:
		b.Append(v.(int64))
	case *array.Int32Builder:
		b.Append(int32(v.(int64)))
	case *array.Float64Builder:
		b.Append(v.(float64))
	case *array.BooleanBuilder:
		b.Append(v.(bool))
	case *array.ListBuilder:
		b.Append(true)
		vb := b.ValueBuilder()
		switch x := v.(type) {
		case []string:
			for _, s := range x {
				appendValue(t, vb, s)
			}
		case []int64:
			for _, s := range x {
				appendValue(t, vb, s)
			}
		case []float64:
			for _, s := range x {
				appendValue(t, vb, s)
			}
		default:
			t.Fatalf("list value %T", v)
		}
	case *array.StructBuilder:
		b.Append(true)
		m := v.(map[string]any)
		st := b.Type().(*arrow.StructType)
		for k := 0; k < b.NumField(); k++ {
			appendValue(t, b.FieldBuilder(k), m[st.Field(k).Name])
		}
	default:
		t.Fatalf("builder %T", b)
	}
}

func str(name string) arrow.Field {
	return arrow.Field{Name: name, Type: arrow.BinaryTypes.String, Nullable: true}
}

func field(name string, t arrow.DataType) arrow.Field {
	return arrow.Field{Name: name, Type: t, Nullable: true}
}
