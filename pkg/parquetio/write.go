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
	// row group; 0 means DefaultRowGroupRows. A group ends sooner when its
	// text reaches 64 MiB. Memory is about two groups' text (one filled
	// while the other is encoded).
	RowGroupRows int
	// Omit names input columns not to write (a partitioned folder keeps
	// its partition columns in the directory names, as Hive does).
	Omit []string
	// Compression is the pages' codec: "snappy" (also ""), "zstd" or
	// "none". Snappy is the default of pyarrow, Spark and DuckDB, and the
	// cheapest codec to write here; zstd makes files about 30% smaller
	// for about 40% more writing CPU; none skips the codec, the cheapest
	// in CPU, for files 3 times as large (measured on verdict rows: see
	// docs/speed.md, Reports and Parquet).
	Compression string
}

// codec returns the arrow-go codec Compression names.
func (o WriteOptions) codec() (compress.Compression, error) {
	switch strings.ToLower(o.Compression) {
	case "", "snappy":
		return compress.Codecs.Snappy, nil
	case "zstd":
		return compress.Codecs.Zstd, nil
	case "none", "uncompressed":
		return compress.Codecs.Uncompressed, nil
	}
	return 0, fmt.Errorf("parquetio: no Parquet compression %q (snappy, zstd or none)", o.Compression)
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
//
// Each row's values are appended to column buffers of the Writer's own,
// which are reused from one row group to the next and handed to arrow-go
// as arrays without a copy: a string column is one byte buffer and its
// offsets, and a column that repeats (model, language) is kept as a
// dictionary and the rows' indices into it, so that arrow-go writes the
// indices without hashing every value again.
type Writer struct {
	schema  *results.RowSchema
	fields  []int               // indices in Row.Fields that are written
	fw      *pqarrow.FileWriter // started by the first row group
	asc     *arrow.Schema
	out     io.Writer
	cur     *group      // the row group being filled
	free    chan *group // groups written, to fill again
	bg      chan *group // row groups to the encoding goroutine
	bgDone  chan error
	bgErr   atomic.Pointer[error]
	dict    []bool // per string column, decided at the first row group
	nstr    int    // string columns: kept input columns, then extra
	codec   compress.Compression
	n, max  int
	written int64
	closed  bool
}

// group is one row group's values, column by column.
type group struct {
	n     int
	strs  []strCol
	vals  [][]float64 // per metric, a value for every row (0 where null)
	valid [][]byte    // per metric, the validity bitmap
	nulls []int       // per metric, the number of nulls
	words [2][]int64
	flags [2][]byte // bitmaps
	bytes int       // text bytes held
}

// strCol is a string column of a row group: the values as one buffer and
// Arrow's offsets into it or, for a dictionary column, the distinct
// values so and the rows' indices into them.
type strCol struct {
	data []byte
	offs []int32
	dict bool
	memo map[string]int32
	idx  []int32
}

func (c *strCol) reset(dict bool) {
	c.data, c.offs, c.idx = c.data[:0], append(c.offs[:0], 0), c.idx[:0]
	c.dict = dict
	if dict {
		if c.memo == nil {
			c.memo = map[string]int32{}
		}
		clear(c.memo)
	}
}

func (c *strCol) add(s string) {
	if !c.dict {
		c.data = append(c.data, s...)
		c.offs = append(c.offs, int32(len(c.data)))
		return
	}
	// A few distinct values (a model, a language) are found faster by
	// comparing with each than by hashing.
	if k := len(c.offs) - 1; k <= smallDict {
		for i := range k {
			if int(c.offs[i+1]-c.offs[i]) == len(s) && string(c.data[c.offs[i]:c.offs[i+1]]) == s {
				c.idx = append(c.idx, int32(i))
				return
			}
		}
		if k < smallDict {
			c.data = append(c.data, s...)
			c.offs = append(c.offs, int32(len(c.data)))
			c.idx = append(c.idx, int32(k))
			return
		}
		for i := range k { // the dictionary outgrows the scan: index it
			c.memo[string(c.data[c.offs[i]:c.offs[i+1]])] = int32(i)
		}
	}
	i, ok := c.memo[s]
	if !ok {
		i = int32(len(c.offs) - 1)
		c.memo[strings.Clone(s)] = i
		c.data = append(c.data, s...)
		c.offs = append(c.offs, int32(len(c.data)))
	}
	c.idx = append(c.idx, i)
}

// smallDict is the most distinct values a dictionary column keeps
// without a map.
const smallDict = 16

// toDict turns a plain column (the first row group's) into a dictionary
// column.
func (c *strCol) toDict() {
	data, offs := c.data, c.offs
	c.data, c.offs = make([]byte, 0, 1024), nil
	c.reset(true)
	for i := 0; i+1 < len(offs); i++ {
		c.add(string(data[offs[i]:offs[i+1]]))
	}
}

// array returns the column as an Arrow array over its buffers (no copy).
func (c *strCol) array() arrow.Array {
	vals := array.NewData(arrow.BinaryTypes.String, len(c.offs)-1,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(c.offs)), memory.NewBufferBytes(c.data)}, nil, 0, 0)
	defer vals.Release()
	if !c.dict {
		return array.MakeFromData(vals)
	}
	idx := array.NewData(arrow.PrimitiveTypes.Int32, len(c.idx),
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(c.idx))}, nil, 0, 0)
	defer idx.Release()
	d := array.NewData(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String},
		len(c.idx), idx.Buffers(), nil, 0, 0)
	d.SetDictionary(vals)
	defer d.Release()
	return array.MakeFromData(d)
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
	codec, err := opt.codec()
	if err != nil {
		return nil, err
	}
	wr := &Writer{codec: codec, schema: s, fields: keep, max: opt.RowGroupRows, asc: asc, out: w, nstr: len(keep) + len(s.Extra)}
	wr.cur = wr.newGroup()
	return wr, nil
}

func (w *Writer) newGroup() *group {
	m := len(w.schema.Metrics)
	g := &group{strs: make([]strCol, w.nstr), vals: make([][]float64, m), valid: make([][]byte, m), nulls: make([]int, m)}
	g.reset(w.dict)
	return g
}

func (g *group) reset(dict []bool) {
	g.n, g.bytes = 0, 0
	for j := range g.strs {
		g.strs[j].reset(j < len(dict) && dict[j])
	}
	for j := range g.vals {
		g.vals[j], g.valid[j], g.nulls[j] = g.vals[j][:0], g.valid[j][:0], 0
	}
	for k := range 2 {
		g.words[k], g.flags[k] = g.words[k][:0], g.flags[k][:0]
	}
}

// setBit sets (or leaves clear) bit i of the bitmap *b, which holds i bits.
func setBit(b *[]byte, i int, v bool) {
	if i%8 == 0 {
		*b = append(*b, 0)
	}
	if v {
		(*b)[i/8] |= 1 << (i % 8)
	}
}

// maxGroupBytes bounds the text of a row group of more than one row: a
// row that would take it past this starts the next group, so that rows
// of long text make smaller groups, not more memory (a Writer holds two
// groups). Arrow's 32-bit offsets address at most 2 GiB a column.
var maxGroupBytes = 64 << 20 // a variable for the tests

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
	g := w.cur
	size := 0
	for _, i := range w.fields {
		size += len(r.Fields[i])
	}
	for _, e := range r.Extra {
		size += len(e)
	}
	if g.n > 0 && g.bytes+size > maxGroupBytes {
		if err := w.Flush(); err != nil {
			return err
		}
		g = w.cur
	}
	if size >= math.MaxInt32 {
		return fmt.Errorf("parquetio: row %d holds %d MiB of text; a Parquet row group's column holds at most 2 GiB", r.Line, size>>20)
	}
	g.bytes += size
	for j, i := range w.fields {
		g.strs[j].add(r.Fields[i])
	}
	for j, v := range r.Values {
		nan := math.IsNaN(v)
		if nan {
			v = 0
			g.nulls[j]++
		}
		g.vals[j] = append(g.vals[j], v)
		setBit(&g.valid[j], g.n, !nan)
	}
	if w.schema.Words {
		g.words[0] = append(g.words[0], int64(r.Matching))
		g.words[1] = append(g.words[1], int64(r.TotalGolden))
	}
	if w.schema.Flags {
		setBit(&g.flags[0], g.n, r.Blank)
		setBit(&g.flags[1], g.n, r.EmptyGolden)
	}
	if len(w.schema.Extra) > 0 {
		base := len(w.fields)
		for j := range w.schema.Extra {
			v := ""
			if j < len(r.Extra) {
				v = r.Extra[j]
			}
			g.strs[base+j].add(v)
		}
	}
	g.n++
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
	g := w.cur
	if err := w.start(g); err != nil {
		return err
	}
	w.written += int64(w.n)
	w.n = 0
	// Row groups are encoded and compressed on a goroutine of their own
	// while the next one is filled: with two cores, filling and
	// encoding overlap. Two groups take turns.
	if w.bg == nil {
		w.bg = make(chan *group, 1)
		w.free = make(chan *group, 2)
		w.bgDone = make(chan error, 1)
		w.free <- w.newGroup()
		nf, words, flags := len(w.fields), w.schema.Words, w.schema.Flags
		go func(fw *pqarrow.FileWriter, in <-chan *group, free chan<- *group, done chan<- error) {
			var err error
			for g := range in {
				if err == nil {
					if werr := writeGroup(fw, g, nf, words, flags); werr != nil {
						err = fmt.Errorf("parquetio: writing a row group: %w", werr)
						w.bgErr.Store(&err)
					}
				}
				free <- g
			}
			done <- err
		}(w.fw, w.bg, w.free, w.bgDone)
	}
	if e := w.bgErr.Load(); e != nil {
		return *e
	}
	w.bg <- g
	w.cur = <-w.free
	w.cur.reset(w.dict)
	return nil
}

// writeGroup writes g as one row group of fw, column by column in the
// schema's order (the nf kept input columns, the metrics, the word counts
// and flags when the schema has them, the extra columns), as arrays over
// g's buffers.
func writeGroup(fw *pqarrow.FileWriter, g *group, nf int, words, flags bool) error {
	if err := fw.NewRowGroupChecked(); err != nil {
		return err
	}
	put := func(a arrow.Array) error {
		defer a.Release()
		return fw.WriteColumnData(a)
	}
	for j := range nf {
		if err := put(g.strs[j].array()); err != nil {
			return err
		}
	}
	for j, v := range g.vals {
		var valid *memory.Buffer
		if g.nulls[j] > 0 {
			valid = memory.NewBufferBytes(g.valid[j])
		}
		d := array.NewData(arrow.PrimitiveTypes.Float64, g.n,
			[]*memory.Buffer{valid, memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(v))}, nil, g.nulls[j], 0)
		err := put(array.MakeFromData(d))
		d.Release()
		if err != nil {
			return err
		}
	}
	if words {
		for _, v := range g.words {
			d := array.NewData(arrow.PrimitiveTypes.Int64, g.n, []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(v))}, nil, 0, 0)
			err := put(array.MakeFromData(d))
			d.Release()
			if err != nil {
				return err
			}
		}
	}
	if flags {
		for _, b := range g.flags {
			d := array.NewData(arrow.FixedWidthTypes.Boolean, g.n, []*memory.Buffer{nil, memory.NewBufferBytes(b)}, nil, 0, 0)
			err := put(array.MakeFromData(d))
			d.Release()
			if err != nil {
				return err
			}
		}
	}
	for j := nf; j < len(g.strs); j++ {
		if err := put(g.strs[j].array()); err != nil {
			return err
		}
	}
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
		err = w.start(w.cur)
	}
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
// from the first row group g: a column whose values repeat (model,
// language, Domain: fewer distinct values than half the rows) is
// dictionary-encoded and keeps min/max statistics; free text (questions,
// responses) is written plain, without statistics, as building a
// dictionary that is then dropped costs a third of the writing time and
// min/max of free text prunes nothing. The dictionary columns of g are
// turned into dictionaries here; later groups are filled as such.
func (w *Writer) start(g *group) error {
	if w.fw != nil {
		return nil
	}
	opts := []parquet.WriterProperty{
		parquet.WithCompression(w.codec),
		parquet.WithMaxRowGroupLength(int64(w.max)),
		parquet.WithCreatedBy("evalbook (arrow-go parquet)"),
		parquet.WithStats(true),
	}
	fields := w.asc.Fields()
	w.dict = make([]bool, w.nstr)
	for j := range g.strs {
		f := fields[j]
		if j >= len(w.fields) {
			f = fields[len(fields)-(w.nstr-j)]
		}
		if g.n == 0 {
			continue
		}
		if w.dict[j] = g.strs[j].repeats(); w.dict[j] {
			g.strs[j].toDict()
		} else {
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

// repeats reports whether the plain column c has fewer distinct values
// than half its length (counting stops as soon as that is decided).
func (c *strCol) repeats() bool {
	n := len(c.offs) - 1
	seen := make(map[string]struct{}, 64)
	for i := 0; i < n; i++ {
		seen[string(c.data[c.offs[i]:c.offs[i+1]])] = struct{}{}
		if len(seen) >= (n+1)/2 {
			return false
		}
	}
	return true
}
