package parquetio

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"

	"github.com/apache/arrow-go/v18/parquet/compress"
)

// This file writes the Parquet format itself for the verdict Writer:
// pages, column chunks and the footer, the footer and page headers in
// Thrift's compact protocol. Going through arrow-go's generic column
// writers cost more than scoring did (arrays built, every value hashed
// into a dictionary of its own, buffers zeroed and copied); the Writer's
// columns are already laid out as Parquet wants them, so they are written
// as they are. The format: https://parquet.apache.org/docs/file-format/
// and parquet.thrift (field ids below are that file's).

// Parquet physical types, encodings, codecs and page types (parquet.thrift).
const (
	ptBoolean   = 0
	ptInt64     = 2
	ptDouble    = 5
	ptByteArray = 6

	encPlain     = 0
	encRLE       = 3
	encRLEDict   = 8
	pageData     = 0
	pageDict     = 2
	repRequired  = 0
	repOptional  = 1
	convUTF8     = 0
	codecNone    = 0
	codecSnappy  = 1
	codecZstd    = 6
	fileVersion  = 2
	pageMaxBytes = 256 << 10 // a data page's values before compression: a quarter of arrow-go's and parquet-mr's 1 MiB (see Writer.compressPage)
)

// Thrift compact protocol types.
const (
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tBinary = 8
	tList   = 9
	tStruct = 12
)

// compact writes Thrift compact-protocol structs into buf.
type compact struct {
	buf   []byte
	last  int16   // the previous field id in the open struct
	stack []int16 // the enclosing structs' last ids
}

func (c *compact) field(id int16, typ byte) {
	if d := id - c.last; d > 0 && d <= 15 {
		c.buf = append(c.buf, byte(d)<<4|typ)
	} else {
		c.buf = append(c.buf, typ)
		c.buf = binary.AppendUvarint(c.buf, zigzag(int64(id)))
	}
	c.last = id
}

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

func (c *compact) i16(id, v int16) {
	c.field(id, tI16)
	c.buf = binary.AppendUvarint(c.buf, zigzag(int64(v)))
}

func (c *compact) i32(id int16, v int32) {
	c.field(id, tI32)
	c.buf = binary.AppendUvarint(c.buf, zigzag(int64(v)))
}

func (c *compact) i64(id int16, v int64) {
	c.field(id, tI64)
	c.buf = binary.AppendUvarint(c.buf, zigzag(v))
}

func (c *compact) bin(id int16, b []byte) {
	c.field(id, tBinary)
	c.rawBin(b)
}

func (c *compact) rawBin(b []byte) {
	c.buf = binary.AppendUvarint(c.buf, uint64(len(b)))
	c.buf = append(c.buf, b...)
}

// list starts field id as a list of n elements of type elem; the
// elements follow (structs each between begin and end).
func (c *compact) list(id int16, elem byte, n int) {
	c.field(id, tList)
	if n < 15 {
		c.buf = append(c.buf, byte(n)<<4|elem)
		return
	}
	c.buf = append(c.buf, 0xf0|elem)
	c.buf = binary.AppendUvarint(c.buf, uint64(n))
}

// begin opens a struct: as field id, or (id 0) as a list element or the
// top-level struct.
func (c *compact) begin(id int16) {
	if id != 0 {
		c.field(id, tStruct)
	}
	c.stack = append(c.stack, c.last)
	c.last = 0
}

func (c *compact) end() {
	c.buf = append(c.buf, 0)
	c.last = c.stack[len(c.stack)-1]
	c.stack = c.stack[:len(c.stack)-1]
}

// column is one leaf of the file's schema.
type column struct {
	name     string
	typ      int32 // physical type
	optional bool  // a metric (null where the row has no verdict)
	text     bool  // a UTF-8 string (BYTE_ARRAY)
}

// stats are a column chunk's statistics (min and max in the type's
// plain encoding; nil when not kept).
type stats struct {
	nulls    int64
	min, max []byte
}

// chunk is a column chunk's metadata, for the footer.
type chunk struct {
	encodings    []int32
	numValues    int64
	uncompressed int64 // pages and their headers
	compressed   int64
	dataOff      int64
	dictOff      int64 // -1: no dictionary page
	st           *stats
	// The pages, for ColumnMetaData.encoding_stats: the dictionary
	// page's encoding, and the data pages' (all of a chunk's data pages
	// have one encoding) and their number.
	dictEnc, dataEnc int32
	dataPages        int32
}

type rowGroup struct {
	chunks []chunk
	rows   int64
	start  int64
}

// pqFile writes a Parquet file's pages as they come and its footer at
// the end. Not safe for concurrent use.
type pqFile struct {
	out    io.Writer
	off    int64
	cols   []column
	codec  compress.Codec // nil: uncompressed
	codeID int32
	groups []rowGroup
	kv     [][2]string
	hdr    compact
	cbuf   []byte // compressed page
	err    error
}

func newPQFile(out io.Writer, cols []column, codec compress.Compression, kv [][2]string) (*pqFile, error) {
	f := &pqFile{out: out, cols: cols, kv: kv}
	switch codec {
	case compress.Codecs.Uncompressed:
	case compress.Codecs.Snappy:
		f.codeID = codecSnappy
	case compress.Codecs.Zstd:
		f.codeID = codecZstd
	default:
		return nil, fmt.Errorf("parquetio: no Parquet writer for codec %v", codec)
	}
	if f.codeID != codecNone {
		c, err := compress.GetCodec(codec)
		if err != nil {
			return nil, fmt.Errorf("parquetio: %w", err)
		}
		f.codec = c
	}
	f.write([]byte("PAR1"))
	return f, f.err
}

func (f *pqFile) write(b []byte) {
	if f.err != nil {
		return
	}
	n, err := f.out.Write(b)
	f.off += int64(n)
	if err != nil {
		f.err = err
	}
}

// page writes one page (its values before compression in raw) and adds
// its sizes to ch. For a data page, values is the page's number of
// values (nulls included); for a dictionary page, its entries.
func (f *pqFile) page(ch *chunk, typ int32, raw []byte, values int, enc int32) {
	f.putPage(ch, typ, len(raw), f.compress(raw), values, enc)
}

// compress returns raw compressed with the file's codec (raw itself when
// uncompressed), in a buffer reused by the next call.
func (f *pqFile) compress(raw []byte) []byte { return encodeWith(f.codec, &f.cbuf, raw, math.MaxInt) }

// encodeWith returns raw compressed with codec (raw itself when codec is
// nil) in *buf, which the next call reuses unless it had to grow past
// keep bytes for this page (a huge value's page: its buffer is let go).
func encodeWith(codec compress.Codec, buf *[]byte, raw []byte, keep int) []byte {
	if codec == nil {
		return raw
	}
	b := *buf
	if need := int(codec.CompressBound(int64(len(raw)))); cap(b) < need {
		b = make([]byte, need)
	}
	body := codec.Encode(b[:cap(b)], raw)
	if cap(body) <= keep {
		*buf = body
	}
	return body
}

// putPage writes a page whose body is already compressed (from raw bytes
// before compression) and adds its sizes to ch.
func (f *pqFile) putPage(ch *chunk, typ int32, raw int, body []byte, values int, enc int32) {
	if raw > math.MaxInt32 || len(body) > math.MaxInt32 {
		f.err = fmt.Errorf("parquetio: a page of %d bytes is too large", raw)
		return
	}
	h := &f.hdr
	h.buf, h.last, h.stack = h.buf[:0], 0, h.stack[:0]
	h.begin(0)
	h.i32(1, typ)
	h.i32(2, int32(raw))
	h.i32(3, int32(len(body)))
	if typ == pageDict {
		h.begin(7) // DictionaryPageHeader
		h.i32(1, int32(values))
		h.i32(2, enc)
		h.end()
	} else {
		h.begin(5) // DataPageHeader
		h.i32(1, int32(values))
		h.i32(2, enc)
		h.i32(3, encRLE) // definition levels
		h.i32(4, encRLE) // repetition levels (none: no column repeats)
		h.end()
	}
	h.end()
	if typ == pageDict {
		ch.dictOff, ch.dictEnc = f.off, enc
	} else {
		if ch.dataOff < 0 {
			ch.dataOff = f.off
		}
		ch.dataEnc = enc
		ch.dataPages++
	}
	ch.uncompressed += int64(len(h.buf) + raw)
	ch.compressed += int64(len(h.buf) + len(body))
	f.write(h.buf)
	f.write(body)
}

// createdBy names the writer in the footer (FileMetaData.created_by) in
// the form parquet.thrift asks for, "<application> version <version>":
// readers (parquet-mr's VersionParser, arrow's ApplicationVersion) take
// the application and its version from it to work around a known bug of
// a writer's release, as they do for parquet-mr's and parquet-cpp's. Raise
// the version when the bytes this file writes change.
const createdBy = "evalbook parquetio version 1.0.0"

// close writes the footer: the schema, the row groups' metadata and the
// key-value metadata, then its length and the magic number.
func (f *pqFile) close() error {
	if f.err != nil {
		return f.err
	}
	var c compact
	c.begin(0) // FileMetaData
	c.i32(1, fileVersion)
	f.schema(&c)
	var rows int64
	for _, g := range f.groups {
		rows += g.rows
	}
	c.i64(3, rows)
	c.list(4, tStruct, len(f.groups))
	for gi, g := range f.groups {
		f.rowGroup(&c, gi, g, len(f.groups) <= math.MaxInt16+1)
	}
	c.list(5, tStruct, len(f.kv))
	for _, kv := range f.kv {
		c.begin(0)
		c.bin(1, []byte(kv[0]))
		c.bin(2, []byte(kv[1]))
		c.end()
	}
	c.bin(6, []byte(createdBy))
	c.list(7, tStruct, len(f.cols)) // ColumnOrder: TYPE_ORDER for each, so readers trust min and max
	for range f.cols {
		c.begin(0)
		c.begin(1)
		c.end()
		c.end()
	}
	c.end()
	f.write(c.buf)
	f.write(binary.LittleEndian.AppendUint32(nil, uint32(len(c.buf))))
	f.write([]byte("PAR1"))
	return f.err
}

// schema writes FileMetaData's schema (field 2): the root, then a leaf
// for each column.
func (f *pqFile) schema(c *compact) {
	c.list(2, tStruct, len(f.cols)+1)
	c.begin(0) // the root
	c.bin(4, []byte("schema"))
	c.i32(5, int32(len(f.cols)))
	c.end()
	for _, col := range f.cols {
		c.begin(0)
		c.i32(1, col.typ)
		rep := int32(repRequired)
		if col.optional {
			rep = repOptional
		}
		c.i32(3, rep)
		c.bin(4, []byte(col.name))
		if col.text {
			c.i32(6, convUTF8)
			c.begin(10) // LogicalType
			c.begin(1)  // STRING
			c.end()
			c.end()
		}
		c.end()
	}
}

// rowGroup writes row group gi's RowGroup struct: its column chunks'
// metadata and its totals, and its ordinal (an i16) when ordinal is set:
// a file of more than 32,768 row groups gives none of them one, as
// arrow-rs takes ordinals given to some row groups and not to others for
// a broken file (it reads no file of that many row groups either).
func (f *pqFile) rowGroup(c *compact, gi int, g rowGroup, ordinal bool) {
	var total, comp int64
	for _, ch := range g.chunks {
		total += ch.uncompressed
		comp += ch.compressed
	}
	c.begin(0)
	c.list(1, tStruct, len(g.chunks))
	for j, ch := range g.chunks {
		start := ch.dataOff
		if ch.dictOff >= 0 {
			start = ch.dictOff
		}
		c.begin(0) // ColumnChunk
		c.i64(2, start)
		c.begin(3) // ColumnMetaData
		c.i32(1, f.cols[j].typ)
		c.list(2, tI32, len(ch.encodings))
		for _, e := range ch.encodings {
			c.buf = binary.AppendUvarint(c.buf, zigzag(int64(e)))
		}
		c.list(3, tBinary, 1)
		c.rawBin([]byte(f.cols[j].name))
		c.i32(4, f.codeID)
		c.i64(5, ch.numValues)
		c.i64(6, ch.uncompressed)
		c.i64(7, ch.compressed)
		c.i64(9, ch.dataOff)
		if ch.dictOff >= 0 {
			c.i64(11, ch.dictOff)
		}
		if st := ch.st; st != nil {
			c.begin(12) // Statistics
			c.i64(3, st.nulls)
			if st.max != nil {
				c.bin(5, st.max)
				c.bin(6, st.min)
			}
			c.end()
		}
		f.encodingStats(c, &ch)
		c.end()
		c.end()
	}
	c.i64(2, total)
	c.i64(3, g.rows)
	c.i64(5, g.start)
	c.i64(6, comp)
	if ordinal {
		c.i16(7, int16(gi))
	}
	c.end()
}

// encodingStats writes ColumnMetaData.encoding_stats (field 13): the
// dictionary page and the data pages of ch, each kind with its encoding
// and number (PageEncodingStats), so that a reader knows whether every
// data page is dictionary-encoded without reading the pages: parquet-mr's
// DictionaryFilter (Spark's, Iceberg's, Trino's) skips row groups by their
// dictionaries only then.
func (f *pqFile) encodingStats(c *compact, ch *chunk) {
	n := 1
	if ch.dictOff >= 0 {
		n++
	}
	c.list(13, tStruct, n)
	if ch.dictOff >= 0 {
		c.begin(0)
		c.i32(1, pageDict)
		c.i32(2, ch.dictEnc)
		c.i32(3, 1)
		c.end()
	}
	c.begin(0)
	c.i32(1, pageData)
	c.i32(2, ch.dataEnc)
	c.i32(3, ch.dataPages)
	c.end()
}

// bitWidth is the bits an index below n takes (at least 1).
func bitWidth(n int) int {
	if n <= 2 {
		return 1
	}
	return bits.Len(uint(n - 1))
}

// appendBitPacked appends v as one bit-packed run of the RLE/bit-packed
// hybrid encoding at width w (1 to 32): the run's header, then v packed
// eight values to w bytes, least significant bits first, the last group
// padded with zeros.
func appendBitPacked(dst []byte, v []int32, w int) []byte {
	groups := (len(v) + 7) / 8
	dst = binary.AppendUvarint(dst, uint64(groups)<<1|1)
	if w <= 8 {
		return appendPacked8(dst, v, w, groups)
	}
	dst = slices.Grow(dst, groups*w)
	var acc uint64 // bits not yet appended: nb < 32 of them
	nb := 0
	for _, x := range v {
		acc |= uint64(uint32(x)) << nb
		if nb += w; nb >= 32 {
			dst = binary.LittleEndian.AppendUint32(dst, uint32(acc))
			acc >>= 32
			nb -= 32
		}
	}
	nb += (groups*8 - len(v)) * w // the padding: zeros
	for ; nb > 0; nb -= 8 {
		dst = append(dst, byte(acc))
		acc >>= 8
	}
	return dst
}

// appendPacked8 is appendBitPacked's body for widths up to 8 (a binary
// metric's 1, a word count's few): a group of eight values is one 64-bit
// word of which the low w bytes are appended, the shifts known per call
// rather than counted per value. Each word is stored whole, eight bytes,
// over room the next group or the end of the slice takes.
func appendPacked8(dst []byte, v []int32, w, groups int) []byte {
	n := len(dst)
	dst = slices.Grow(dst, groups*w+8)
	out := dst[:cap(dst)]
	s1 := uint(w) & 63
	s2, s3, s4, s5, s6, s7 := 2*s1&63, 3*s1&63, 4*s1&63, 5*s1&63, 6*s1&63, 7*s1&63
	for len(v) >= 8 {
		g := v[:8:8]
		u := uint64(uint32(g[0])) | uint64(uint32(g[1]))<<s1 | uint64(uint32(g[2]))<<s2 | uint64(uint32(g[3]))<<s3 |
			uint64(uint32(g[4]))<<s4 | uint64(uint32(g[5]))<<s5 | uint64(uint32(g[6]))<<s6 | uint64(uint32(g[7]))<<s7
		binary.LittleEndian.PutUint64(out[n:n+8], u)
		n += w
		v = v[8:]
	}
	if len(v) > 0 { // the last group, padded with zeros
		var u uint64
		for i, x := range v {
			u |= uint64(uint32(x)) << (uint(i) * s1 & 63)
		}
		binary.LittleEndian.PutUint64(out[n:n+8], u)
		n += w
	}
	return out[:n]
}

// appendLevels appends the definition levels of rows [a, b) of a column
// whose validity bitmap is valid (nil: no nulls), with their 4-byte
// length, as a data page v1 holds them: one RLE run of 1s without
// nulls, else the bitmap itself as a bit-packed run of width 1 (a must
// be a multiple of 8).
func appendLevels(dst []byte, valid []byte, a, b int) []byte {
	at := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	if valid == nil {
		dst = binary.AppendUvarint(dst, uint64(b-a)<<1)
		dst = append(dst, 1)
	} else {
		n := (b - a + 7) / 8
		dst = binary.AppendUvarint(dst, uint64(n)<<1|1)
		dst = append(dst, valid[a/8:a/8+n]...)
		if r := (b - a) % 8; r != 0 { // bits past the last row are zero
			dst[len(dst)-1] &= byte(1)<<r - 1
		}
	}
	binary.LittleEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	return dst
}
