package parquetio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/evalbook/evalbook/pkg/results"
)

// pagesRows are the rows of TestPagesAndStatistics: n rows whose columns
// take every path of the hand-written encoder in one row group.
//   - id: unique, plain;
//   - text: 60 to 99 bytes of Devanagari, plain, several 1 MiB pages;
//   - label: 300 distinct values, a dictionary past the comparison scan
//     (bit width 9), with an empty value;
//   - one: a single value for every row (a dictionary of one, width 1);
//   - bin: a binary metric, null every 7th row (dictionary of 0 and 1);
//   - graded: a graded metric, a distinct value per row (the plain
//     fallback), null every 5th row;
//   - matching_words / total_golden_words, blank_response / empty_golden.
func pagesRows(n int) (*results.RowSchema, []*results.Row) {
	s := results.NewRowSchema([]string{"id", "text", "label", "one"}, []string{"bin", "graded"}, []bool{false, true}, true, nil)
	var rows []*results.Row
	for i := range n {
		label := fmt.Sprintf("लेबल-%03d", i*37%300)
		if i%300 == 11 {
			label = ""
		}
		r := &results.Row{Schema: s, Line: i + 2,
			Fields: []string{strconv.Itoa(i), strings.Repeat("क", 20+i%14) + strconv.Itoa(i), label, "same"},
			Values: []float64{float64(i % 2), float64(i)/3 - 100}}
		if i%7 == 3 {
			r.Values[0] = math.NaN()
		}
		if i%5 == 1 {
			r.Values[1] = math.NaN()
		}
		r.Matching, r.TotalGolden = i%4, 2+i%9
		r.Blank, r.EmptyGolden = i%9 == 4, i%2 == 0
		rows = append(rows, r)
	}
	return s, rows
}

// One row group of 70,000 rows written by the hand-written encoder reads
// back cell for cell (arrow-go's reader), DuckDB agrees on counts, sums
// and nulls, the pages are where the encoder means them to be (text in
// pages of at most 1 MiB, numbers in pages of 65,536 rows, so the second
// page's definition levels start mid-bitmap), and each column chunk's
// statistics are the smallest and largest value and the null count,
// worked out here from the rows.
func TestPagesAndStatistics(t *testing.T) {
	const n = 70000
	_, rows := pagesRows(n)
	path := filepath.Join(t.TempDir(), "pages.parquet")
	data := writeFile(t, path, rows, WriteOptions{RowGroupRows: n})
	h, got := readBack(t, data)
	wantH := "id text label one bin graded matching_words total_golden_words blank_response empty_golden"
	if strings.Join(h, " ") != wantH {
		t.Fatalf("header %q", h)
	}
	if len(got) != n {
		t.Fatalf("%d rows read back, want %d", len(got), n)
	}
	cell := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	for i, r := range rows {
		want := append(append([]string{}, r.Fields...), cell(r.Values[0]), cell(r.Values[1]),
			strconv.Itoa(r.Matching), strconv.Itoa(r.TotalGolden), strconv.FormatBool(r.Blank), strconv.FormatBool(r.EmptyGolden))
		if strings.Join(got[i], "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("row %d: %q, want %q", i, got[i], want)
		}
	}

	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	checkPages(t, pf, h, rows)
	checkStatistics(t, pf, h, n)
	checkDuckDBSums(t, path, rows)
}

// checkPages counts each column's data pages with arrow-go's page reader.
func checkPages(t *testing.T, pf *file.Reader, h []string, rows []*results.Row) {
	t.Helper()
	if pf.NumRowGroups() != 1 {
		t.Fatalf("%d row groups, want 1", pf.NumRowGroups())
	}
	rg := pf.RowGroup(0)
	// Pages per column, counted by arrow-go's page reader.
	pages := map[string]int{}
	textBytes := 0
	for _, r := range rows {
		textBytes += 4 + len(r.Fields[1])
	}
	for j, name := range h {
		pr, err := rg.GetColumnPageReader(j)
		if err != nil {
			t.Fatal(err)
		}
		for pr.Next() {
			if pr.Page().Type() != file.PageTypeDictionaryPage {
				pages[name]++
			}
		}
		if err := pr.Err(); err != nil {
			t.Fatalf("column %s: %v", name, err)
		}
	}
	// text: about textBytes / 1 MiB pages, each at most 1 MiB.
	if lo := (textBytes + pageMaxBytes - 1) / pageMaxBytes; pages["text"] < lo || pages["text"] > lo+1 {
		t.Errorf("text in %d pages; %d bytes make %d or %d", pages["text"], textBytes, lo, lo+1)
	}
	for _, c := range []string{"bin", "graded", "matching_words"} {
		if pages[c] != 2 { // 70,000 rows: 65,536 + 4,464
			t.Errorf("column %s in %d data pages, want 2", c, pages[c])
		}
	}
}

// checkStatistics checks each column chunk's statistics against values
// worked out from pagesRows(n).
func checkStatistics(t *testing.T, pf *file.Reader, h []string, n int) {
	t.Helper()
	type want struct {
		min, max any
		nulls    int64
		stats    bool
	}
	wants := map[string]want{
		"id":     {stats: false}, // free text: no statistics
		"text":   {stats: false},
		"label":  {min: "", max: "लेबल-299", stats: true},
		"one":    {min: "same", max: "same", stats: true},
		"bin":    {min: 0.0, max: 1.0, nulls: int64(countRows(n, func(i int) bool { return i%7 == 3 })), stats: true},
		"graded": {min: float64(0)/3 - 100, max: float64(n-1)/3 - 100, nulls: int64(countRows(n, func(i int) bool { return i%5 == 1 })), stats: true},
		// matching_words is i%4 (0..3); total_golden_words 2+i%9 (2..10).
		"matching_words":     {min: int64(0), max: int64(3), stats: true},
		"total_golden_words": {min: int64(2), max: int64(10), stats: true},
		"blank_response":     {min: false, max: true, stats: true},
		"empty_golden":       {min: false, max: true, stats: true},
	}
	// graded's smallest value: row 0 (-100) is not null (0%5 != 1).
	for j, name := range h {
		cc, err := pf.MetaData().RowGroup(0).ColumnChunk(j)
		if err != nil {
			t.Fatal(err)
		}
		w := wants[name]
		st, err := cc.Statistics()
		if err != nil {
			t.Fatal(err)
		}
		if !w.stats {
			if st != nil && st.HasMinMax() {
				t.Errorf("column %s has min/max statistics; free text should not", name)
			}
			continue
		}
		if st == nil || !st.HasMinMax() {
			t.Errorf("column %s has no min/max statistics", name)
			continue
		}
		var lo, hi any
		switch s := st.(type) {
		case *metadata.ByteArrayStatistics:
			lo, hi = string(s.Min()), string(s.Max())
		case *metadata.Float64Statistics:
			lo, hi = s.Min(), s.Max()
		case *metadata.Int64Statistics:
			lo, hi = s.Min(), s.Max()
		case *metadata.BooleanStatistics:
			lo, hi = s.Min(), s.Max()
		default:
			t.Fatalf("column %s: statistics of type %T", name, st)
		}
		if lo != w.min || hi != w.max || st.NullCount() != w.nulls {
			t.Errorf("column %s: min %v max %v nulls %d, want %v %v %d", name, lo, hi, st.NullCount(), w.min, w.max, w.nulls)
		}
	}
	// parquet.thrift: a zero minimum is written as -0.0.
	cc, _ := pf.MetaData().RowGroup(0).ColumnChunk(4)
	if st, _ := cc.Statistics(); st != nil && !math.Signbit(st.(*metadata.Float64Statistics).Min()) {
		t.Error("bin's minimum 0 is not written as -0.0")
	}
}

// checkDuckDBSums reads the file with DuckDB, a second reader: counts,
// sums and nulls of every column.
func checkDuckDBSums(t *testing.T, path string, rows []*results.Row) {
	t.Helper()
	n := len(rows)
	src := "read_parquet(" + sqlString(path) + ")"
	res := duckdb(t, "SELECT count(*) AS n, count(DISTINCT id) AS ids, sum(length(text)) AS text_chars, "+
		"count(DISTINCT label) AS labels, count(*) FILTER (WHERE label = '') AS empty_labels, count(DISTINCT one) AS ones, "+
		"sum(bin) AS bin_sum, count(bin) AS bin_n, sum(graded) AS graded_sum, count(graded) AS graded_n, "+
		"sum(matching_words) AS mw, sum(total_golden_words) AS tw, count(*) FILTER (WHERE blank_response) AS blanks, "+
		"count(*) FILTER (WHERE empty_golden) AS empties FROM "+src)
	d := res[0][0]
	var textChars, binSum, binN, gradedN, mw, tw, blanks, empties int
	var gradedSum float64
	labels := map[string]bool{}
	for _, r := range rows {
		textChars += len([]rune(r.Fields[1]))
		labels[r.Fields[2]] = true
		if !math.IsNaN(r.Values[0]) {
			binSum += int(r.Values[0])
			binN++
		}
		if !math.IsNaN(r.Values[1]) {
			gradedSum += r.Values[1]
			gradedN++
		}
		mw += r.Matching
		tw += r.TotalGolden
		if r.Blank {
			blanks++
		}
		if r.EmptyGolden {
			empties++
		}
	}
	for k, v := range map[string]float64{"n": float64(n), "ids": float64(n), "text_chars": float64(textChars), "labels": float64(len(labels)),
		"empty_labels": float64(countRows(n, func(i int) bool { return i%300 == 11 })), "ones": 1,
		"bin_sum": float64(binSum), "bin_n": float64(binN), "graded_n": float64(gradedN),
		"mw": float64(mw), "tw": float64(tw), "blanks": float64(blanks), "empties": float64(empties)} {
		if d[k] != v {
			t.Errorf("DuckDB's %s = %v, want %v", k, d[k], v)
		}
	}
	if g, ok := d["graded_sum"].(float64); !ok || math.Abs(g-gradedSum) > 1e-6*math.Abs(gradedSum) {
		t.Errorf("DuckDB's graded_sum = %v, want %v", d["graded_sum"], gradedSum)
	}
}

// writeFile writes rows to a Parquet file at path and returns its bytes.
func writeFile(t *testing.T, path string, rows []*results.Row, opt WriteOptions) []byte {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteRows(f, seqOf(rows), opt); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func countRows(n int, f func(int) bool) int {
	k := 0
	for i := range n {
		if f(i) {
			k++
		}
	}
	return k
}

// A table of more columns than Thrift's compact protocol packs in a list
// header (15 or more elements take the long form), rows that are all
// empty strings, and a file of one row: each reads back.
func TestWideAndTinyFiles(t *testing.T) {
	var cols []string
	for i := range 20 {
		cols = append(cols, fmt.Sprintf("c%02d", i))
	}
	s := results.NewRowSchema(cols, []string{"m"}, []bool{false}, false, nil)
	for _, n := range []int{1, 3, 40} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, s, WriteOptions{RowGroupRows: 16})
		if err != nil {
			t.Fatal(err)
		}
		var want [][]string
		for i := range n {
			f := make([]string, len(cols))
			for j := range f {
				if i%2 == 1 {
					f[j] = fmt.Sprintf("r%dc%d", i, j%(3+i%5))
				}
			}
			if err := w.Write(&results.Row{Schema: s, Fields: f, Values: []float64{float64(i % 2)}}); err != nil {
				t.Fatal(err)
			}
			want = append(want, append(f, strconv.Itoa(i%2), "false", "false"))
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		h, got := readBack(t, buf.Bytes())
		if len(h) != 23 || len(got) != n { // 20 columns, the metric, the two flags
			t.Fatalf("%d rows: header of %d, %d rows read back", n, len(h), len(got))
		}
		for i := range want {
			if strings.Join(got[i], "|") != strings.Join(want[i], "|") {
				t.Fatalf("%d rows: row %d %q, want %q", n, i, got[i], want[i])
			}
		}
	}
}

// The pieces of the encoding, by hand: bit-packing (parquet's
// Encodings.md example: 0..7 at width 3 packs to 10001000 11000110
// 11111010), definition levels with and without nulls, and the compact
// protocol's field headers, long-form lists and zigzag integers.
func TestEncodingPieces(t *testing.T) {
	got := appendBitPacked(nil, []int32{0, 1, 2, 3, 4, 5, 6, 7}, 3)
	want := []byte{1<<1 | 1, 0b10001000, 0b11000110, 0b11111010}
	if !bytes.Equal(got, want) {
		t.Errorf("bit-packed 0..7 at width 3: %08b, want %08b", got, want)
	}
	// 10 values: two groups of 8, the second padded with zeros.
	if got := appendBitPacked(nil, []int32{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, 1); !bytes.Equal(got, []byte{2<<1 | 1, 0xff, 0x03}) {
		t.Errorf("ten 1s at width 1: %x", got)
	}
	// Every width and a run of every length up to 17 against the
	// definition, bit by bit: bit b of value i is bit i*w+b of the run,
	// least significant first, and the run is padded to 8 values.
	for w := 1; w <= 32; w++ {
		for n := range 18 {
			v := make([]int32, n)
			for i := range v {
				v[i] = int32(uint32(i*2654435761+w*40503) & (1<<w - 1))
			}
			groups := (n + 7) / 8
			want := binary.AppendUvarint(nil, uint64(groups)<<1|1)
			body := make([]byte, groups*w)
			for i, x := range v {
				for b := range w {
					if uint32(x)>>b&1 == 1 {
						body[(i*w+b)/8] |= 1 << ((i*w + b) % 8)
					}
				}
			}
			if got := appendBitPacked([]byte{}, v, w); !bytes.Equal(got, append(want, body...)) {
				t.Fatalf("bit-packed %v at width %d: % x, want % x", v, w, got, append(want, body...))
			}
			// After bytes already there, which stay as they were.
			pre := []byte("page")
			if got := appendBitPacked(pre[:4:4], v, w); string(got[:4]) != "page" || !bytes.Equal(got[4:], append(want, body...)) {
				t.Fatalf("bit-packed %v at width %d after 4 bytes: % x", v, w, got)
			}
		}
	}
	for n, w := range map[int]int{1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 256: 8, 257: 9, 65536: 16, 65537: 17} {
		if bitWidth(n) != w {
			t.Errorf("bitWidth(%d) = %d, want %d", n, bitWidth(n), w)
		}
	}
	// No nulls: one RLE run of 1s; the length counts the run's bytes.
	if got := appendLevels(nil, nil, 0, 300); !bytes.Equal(got, []byte{3, 0, 0, 0, 0xd8, 0x04, 1}) {
		t.Errorf("levels of 300 non-null rows: %x", got)
	}
	// Rows 8..19 of a bitmap: bytes 1 and 2, the bits past row 19 cleared.
	valid := []byte{0x00, 0b10110101, 0b11111111}
	if got := appendLevels(nil, valid, 8, 20); !bytes.Equal(got, []byte{3, 0, 0, 0, 2<<1 | 1, 0b10110101, 0b00001111}) {
		t.Errorf("levels of rows 8..19: %08b", got)
	}
	var c compact
	c.begin(0)
	c.i32(1, -1)  // delta 1, type i32: 0x15, zigzag(-1) = 1
	c.i64(3, 300) // delta 2, type i64: 0x26, zigzag(300) = 600 = 0xd8 0x04
	c.i16(20, 2)  // delta 17: long form, 0x04 then zigzag(20) = 40
	c.list(21, tI32, 15)
	c.end()
	if want := []byte{0x15, 0x01, 0x26, 0xd8, 0x04, 0x04, 40, 0x04, 0x19, 0xf5, 15, 0}; !bytes.Equal(c.buf, want) {
		t.Errorf("compact: % x, want % x", c.buf, want)
	}
}

// failAfter is an io.Writer that takes n bytes, then fails.
type failAfter struct{ n int }

var errDiskFull = errors.New("no space left on device")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) <= f.n {
		f.n -= len(p)
		return len(p), nil
	}
	k := f.n
	f.n = 0
	return k, errDiskFull
}

// A destination that fails (a full disk) at the magic number, inside a
// row group's pages, or at the footer makes Write or Close return its
// error, never a panic or a file said to be complete.
func TestWriterDestinationFails(t *testing.T) {
	_, rows := pagesRows(3000)
	var whole bytes.Buffer
	if _, err := WriteRows(&whole, seqOf(rows), WriteOptions{RowGroupRows: 500}); err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{0, 2, 100, whole.Len() / 2, whole.Len() - 10} {
		_, err := WriteRows(&failAfter{n: at}, seqOf(rows), WriteOptions{RowGroupRows: 500})
		if !errors.Is(err, errDiskFull) {
			t.Errorf("failing after %d of %d bytes: %v, want the destination's error", at, whole.Len(), err)
		}
	}
}

// From the second row group on, free text is compressed a page at a time
// as each page fills (strCol.stream, Writer.compressPage): groups of
// 20,000 rows hold about 2 MiB of text each, so every later group writes
// its text as several full pages and a last one compressed when the group
// ends. The file reads back cell for cell and DuckDB's sums are the rows'.
func TestStreamedPages(t *testing.T) {
	const n = 70000
	_, rows := pagesRows(n)
	path := filepath.Join(t.TempDir(), "streamed.parquet")
	data := writeFile(t, path, rows, WriteOptions{RowGroupRows: 20000})
	_, got := readBack(t, data)
	if len(got) != n {
		t.Fatalf("%d rows read back, want %d", len(got), n)
	}
	for i, r := range rows {
		if got[i][0] != r.Fields[0] || got[i][1] != r.Fields[1] || got[i][2] != r.Fields[2] {
			t.Fatalf("row %d: %q, want %q", i, got[i][:3], r.Fields[:3])
		}
	}
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if pf.NumRowGroups() != 4 {
		t.Fatalf("%d row groups, want 4", pf.NumRowGroups())
	}
	for g := range pf.NumRowGroups() {
		pr, err := pf.RowGroup(g).GetColumnPageReader(1) // text
		if err != nil {
			t.Fatal(err)
		}
		pages, values := 0, 0
		for pr.Next() {
			pages++
			values += int(pr.Page().NumValues())
		}
		if err := pr.Err(); err != nil {
			t.Fatal(err)
		}
		rowsIn := int(pf.MetaData().RowGroup(g).NumRows())
		if values != rowsIn || (rowsIn == 20000 && pages < 2) {
			t.Errorf("row group %d: text in %d pages holding %d values, for %d rows", g, pages, values, rowsIn)
		}
	}
	checkDuckDBSums(t, path, rows)
}

// The first group's encodings are chosen from the rows it holds when its
// text passes decideBytes before it is full (Writer.decide): the rest of
// the group is then held as later groups are, its free text a page at a
// time and a column of few values as a dictionary, and the file is byte
// for byte the one a Writer that chooses at the group's end writes (when
// both choose the same). The columns: id and text unique (free text; the
// text about 1,200 bytes a row, so the first 2,000 rows fill two pages
// and part of a third), label 30 values and one a single value
// (dictionaries from the decision on), many 900 values (more than
// lateValues, lowered here to 100: held plain and made each group's
// dictionary by the encoding goroutine). decideBytes is set to the text
// of the first 2,000 rows.
func TestDecideEarly(t *testing.T) {
	s := results.NewRowSchema([]string{"id", "text", "label", "one", "many"}, []string{"m"}, []bool{false}, false, nil)
	var rows []*results.Row
	for i := range 12000 {
		rows = append(rows, &results.Row{Schema: s, Line: i + 2, Values: []float64{float64(i % 3)},
			Fields: []string{"q" + strconv.Itoa(i), strings.Repeat("ভাষা", 100) + strconv.Itoa(i),
				fmt.Sprintf("লেবেল-%d", i*7%30), "same", fmt.Sprintf("m%03d", i*7919%900)}})
	}
	defer func(d, v int) { decideBytes, lateValues = d, v }(decideBytes, lateValues)
	lateValues = 100
	first := 0
	for _, r := range rows[:2000] {
		for _, f := range r.Fields {
			first += len(f)
		}
	}
	write := func(early bool) []byte {
		decideBytes = 1 << 40
		if early {
			decideBytes = first
		}
		var buf bytes.Buffer
		w, err := NewWriter(&buf, s, WriteOptions{RowGroupRows: 5000})
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rows {
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
			if i != 2999 {
				continue
			}
			// 3,000 rows into the first group: the text is held a page
			// at a time (1 MiB, not 3.6 MB), label and one as indices.
			text, label, one, many := &w.cur.strs[1], &w.cur.strs[2], &w.cur.strs[3], &w.cur.strs[4]
			if early != (text.stream && cap(text.data) <= pageMaxBytes && w.cur.strs[0].stream) ||
				early != (label.dict && one.dict && len(label.idx) == 3000) || many.dict || many.stream {
				t.Errorf("early %v: at row 3,000 text streams %v (a buffer of %d bytes), label and one dictionaries %v %v, many plain %v",
					early, text.stream, cap(text.data), label.dict, one.dict, !many.dict && !many.stream)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !w.late[4] || w.late[2] || w.late[3] || w.dict[0] || w.dict[1] {
			t.Errorf("early %v: dictionaries %v, held plain %v; want label, one and many, many held plain", early, w.dict, w.late)
		}
		return buf.Bytes()
	}
	early, late := write(true), write(false)
	if !bytes.Equal(early, late) {
		t.Fatalf("deciding after 2,000 rows wrote %d bytes, deciding at the group's end %d, and they differ", len(early), len(late))
	}
	_, got := readBack(t, early)
	if len(got) != len(rows) {
		t.Fatalf("%d rows read back, want %d", len(got), len(rows))
	}
	for i, r := range rows {
		if strings.Join(got[i][:5], "\x00") != strings.Join(r.Fields, "\x00") || got[i][5] != strconv.Itoa(i%3) {
			t.Fatalf("row %d: %q, want %q and %d", i, got[i], r.Fields, i%3)
		}
	}
	want := (5000*1205 + pageMaxBytes - 1) / pageMaxBytes
	if pages, _ := columnPages(t, early, 0, 1); pages < want {
		t.Errorf("the first group's text is in %d pages, want at least %d", pages, want)
	}
}

// columnPages returns the number of pages of column col in row group g of
// the Parquet file data, and its dictionary's entries (0 without one).
func columnPages(t *testing.T, data []byte, g, col int) (pages, dict int) {
	t.Helper()
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	pr, err := pf.RowGroup(g).GetColumnPageReader(col)
	if err != nil {
		t.Fatal(err)
	}
	for pr.Next() {
		pages++
		if p := pr.Page(); p.Type() == file.PageTypeDictionaryPage {
			dict = int(p.NumValues())
		}
	}
	if err := pr.Err(); err != nil {
		t.Fatal(err)
	}
	return pages, dict
}

// A first group whose text stays under decideBytes is chosen from whole:
// 3 models answering the same 1,000 questions, sorted by model, in one
// group of 3,000 rows, write the questions as a dictionary (1,000
// distinct of 3,000), though the first 1,000 rows alone show them all
// different. With decideBytes lowered to the first 1,000 rows' text the
// choice is made from those rows, and the questions are written plain.
func TestFirstGroupChosenFromWhole(t *testing.T) {
	s := results.NewRowSchema([]string{"question", "model"}, []string{"m"}, []bool{false}, false, nil)
	var rows []*results.Row
	for _, m := range []string{"a", "b", "c"} {
		for q := range 1000 {
			rows = append(rows, &results.Row{Schema: s, Line: len(rows) + 2, Fields: []string{fmt.Sprintf("प्रश्न %04d?", q), m}, Values: []float64{1}})
		}
	}
	dictPages := func() int {
		_, n := columnPages(t, writeFile(t, filepath.Join(t.TempDir(), "sorted.parquet"), rows, WriteOptions{RowGroupRows: 3000}), 0, 0)
		return n
	}
	if n := dictPages(); n != 1000 {
		t.Errorf("chosen from the whole group: the questions' dictionary has %d values, want 1000", n)
	}
	defer func(v int) { decideBytes = v }(decideBytes)
	decideBytes = 0
	for _, r := range rows[:1000] {
		decideBytes += len(r.Fields[0]) + len(r.Fields[1])
	}
	if n := dictPages(); n != 0 {
		t.Errorf("chosen from the first 1,000 rows: a dictionary of %d questions, want none (plain)", n)
	}
}

// A file keeps under maxRowGroups row groups (32,768: arrow-rs reads no
// file of more): after half of them the Writer doubles its groups' rows,
// and again each time it has used half of those left. With the limit
// lowered to 64 and groups of 10 rows, 1,900 rows are written as 32
// groups of 10, 16 of 20, 8 of 40, 4 of 80, 2 of 160 (1,600 rows in 62
// groups) and the last 300 in one: 63 groups.
func TestRowGroupsStayUnderTheLimit(t *testing.T) {
	defer func(v int) { maxRowGroups = v }(maxRowGroups)
	maxRowGroups = 64
	s := results.NewRowSchema([]string{"id", "label"}, []string{"m"}, []bool{false}, false, nil)
	var rows []*results.Row
	for i := range 1900 {
		rows = append(rows, &results.Row{Schema: s, Line: i + 2, Fields: []string{strconv.Itoa(i), fmt.Sprint(i % 4)}, Values: []float64{float64(i % 2)}})
	}
	data := writeFile(t, filepath.Join(t.TempDir(), "groups.parquet"), rows, WriteOptions{RowGroupRows: 10})
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	for _, c := range [][2]int{{32, 10}, {16, 20}, {8, 40}, {4, 80}, {2, 160}, {1, 300}} {
		for range c[0] {
			want = append(want, int64(c[1]))
		}
	}
	var got []int64
	for g := range pf.NumRowGroups() {
		got = append(got, pf.MetaData().RowGroup(g).NumRows())
	}
	if !slices.Equal(got, want) {
		t.Errorf("row groups of %v rows, want %v", got, want)
	}
	_, back := readBack(t, data)
	if len(back) != len(rows) || back[1899][0] != "1899" {
		t.Errorf("%d rows read back, want 1,900 ending with id 1899", len(back))
	}
}

// A row group that streams its free text starts each column in room for
// its pages (Writer.room: as much as the first group's column held, up
// to a page), not in an empty buffer doubled to a page, which made about
// 25 MB of garbage in a million rows; and no more than that, or each of
// a partitioned folder's writers would hold a page a column however
// little text it has (BenchmarkWriteDir1M's heap went from 38 to 57 MB
// when every group took a page). The id and text columns (unique in the
// first group) stream: in groups of 20,000 rows the text column holds
// 1.8 MB (room: a page, 256 KiB) and the ids 169 KB (room: a page); in
// groups of 1,000 rows of short text, 7-8 KB each.
func TestStreamedPagesStartInRoom(t *testing.T) {
	_, long := pagesRows(70000)
	s := long[0].Schema
	var short []*results.Row
	for i := range 3500 {
		short = append(short, &results.Row{Schema: s, Line: i + 2, Fields: []string{strconv.Itoa(i), "t" + strconv.Itoa(i), "x", "same"}, Values: []float64{1, 2}})
	}
	for _, c := range []struct {
		name      string
		rows      []*results.Row
		groupRows int
	}{{"long text", long, 20000}, {"short text", short, 1000}} {
		w, err := NewWriter(io.Discard, s, WriteOptions{RowGroupRows: c.groupRows})
		if err != nil {
			t.Fatal(err)
		}
		groups := 0
		for i, r := range c.rows {
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
			if w.Buffered() != 0 || i == len(c.rows)-1 {
				continue
			}
			groups++ // a group was just written: w.cur is the next one, empty
			streamed := 0
			for j := range w.cur.strs {
				col := &w.cur.strs[j]
				if !col.stream {
					continue
				}
				streamed++
				if room := w.room[j]; cap(col.data) < room || cap(col.data) > 2*room || room < 4000 {
					t.Errorf("%s, after group %d: streamed column %d starts in %d bytes, its room %d", c.name, groups, j, cap(col.data), room)
				}
			}
			if streamed != 2 {
				t.Errorf("%s, after group %d: %d streamed columns, want 2 (id, text)", c.name, groups, streamed)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if groups != 3 {
			t.Fatalf("%s: %d groups checked, want 3", c.name, groups)
		}
	}
}

// The first row group's buffers are grown once, after reserveAfter rows,
// to the size the group will take; a DirWriter's partition (whose groups
// end with the folder's, not at RowGroupRows) is not, or twelve
// partitions would each hold a whole group's room (the benchmark of 12
// partitions peaked at 228 MB of heap before this was seen).
func TestReserveFirstGroup(t *testing.T) {
	s := results.NewRowSchema([]string{"text"}, []string{"m"}, []bool{false}, false, nil)
	for _, part := range []bool{false, true} {
		w, err := NewWriter(io.Discard, s, WriteOptions{RowGroupRows: 64 << 10, part: part})
		if err != nil {
			t.Fatal(err)
		}
		for i := range reserveAfter + 10 {
			if err := w.Write(&results.Row{Schema: s, Fields: []string{fmt.Sprintf("value %06d", i)}, Values: []float64{1}}); err != nil {
				t.Fatal(err)
			}
		}
		// 1,024 rows of 16 bytes (4 of length, 12 of text) scaled to 65,536
		// rows and 5% more: about 1.1 MB (under decideBytes, so held whole).
		grown := cap(w.cur.strs[0].data)
		if want := 16 * (64 << 10); !part && grown < want {
			t.Errorf("first group grown to %d bytes, want at least %d", grown, want)
		}
		if part && grown >= 64<<10 {
			t.Errorf("a partition's first group grown to %d bytes ahead", grown)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// A string column's encoding is chosen from the first row group (free
// text, or a dictionary: the first group's built on the encoding
// goroutine from the values held plain, later groups' as the rows come)
// and kept for the later groups, whose values need not fit the choice:
// "few" has 3 values in the first group of 1,000 rows, 40 in the second
// (past smallDict: a hash table from then on) and 2 in the third; "many"
// has 100, then 1, then 500 (half its rows, still a dictionary); "free"
// is unique in the first group and repeats after; the metric m has 20
// distinct values in the first group (past the 16 a numeric dictionary
// finds by comparing), exactly 16 in the second and 2 in the third. Each
// group's column chunk is dictionary-encoded or not as chosen, its
// dictionary page holds the group's distinct values (worked out here),
// its min/max statistics are the group's smallest and largest values
// (byte order, worked out here), and every cell reads back.
//
// "many" is looked up as the rows come; run again with lateValues at 50,
// it is held plain and each group's dictionary built by the encoding
// goroutine, and with lateBytes at 2,000 as well, it passes that in the
// second and third groups and is made a dictionary mid-group (toDict),
// the rest of the group looked up as it comes. The files must be the same.
func TestColumnKindsAcrossGroups(t *testing.T) {
	first := columnKinds(t)
	defer func(v, b int) { lateValues, lateBytes = v, b }(lateValues, lateBytes)
	lateValues = 50
	if held := columnKinds(t); !bytes.Equal(first, held) {
		t.Error("the file differs when many's values are held plain")
	}
	lateBytes = 2000
	if converted := columnKinds(t); !bytes.Equal(first, converted) {
		t.Error("the file differs when many's held values are made a dictionary mid-group")
	}
}

func columnKinds(t *testing.T) []byte {
	t.Helper()
	s := results.NewRowSchema([]string{"free", "few", "many"}, []string{"m"}, []bool{false}, false, nil)
	const per = 1000
	var rows []*results.Row
	for i := range 3 * per {
		g, k := i/per, i%per
		few := []string{fmt.Sprintf("f%d", k%3), fmt.Sprintf("g%02d", k%40), []string{"zz", "a"}[k%2]}[g]
		many := []string{fmt.Sprintf("m%03d", k%100), "only", fmt.Sprintf("n%03d", k%500)}[g]
		free := strconv.Itoa(i)
		if g > 0 {
			free = strconv.Itoa(k % 10)
		}
		m := []float64{float64(k%20) / 4, float64(k%16) - 8, float64(k % 2)}[g]
		rows = append(rows, &results.Row{Schema: s, Line: i + 2, Fields: []string{free, few, many}, Values: []float64{m}})
	}
	path := filepath.Join(t.TempDir(), "kinds.parquet")
	data := writeFile(t, path, rows, WriteOptions{RowGroupRows: per})
	_, got := readBack(t, data)
	if len(got) != len(rows) {
		t.Fatalf("%d rows read back, want %d", len(got), len(rows))
	}
	for i, r := range rows {
		want := append(append([]string{}, r.Fields...), strconv.FormatFloat(r.Values[0], 'g', -1, 64))
		if strings.Join(got[i][:4], "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("row %d: %q, want %q", i, got[i][:4], want)
		}
	}
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if pf.NumRowGroups() != 3 {
		t.Fatalf("%d row groups, want 3", pf.NumRowGroups())
	}
	for g := range 3 {
		for j, name := range []string{"free", "few", "many"} {
			distinct := map[string]bool{}
			lo, hi := "", ""
			for i, r := range rows[g*per : (g+1)*per] {
				v := r.Fields[j]
				distinct[v] = true
				if i == 0 || v < lo {
					lo = v
				}
				if i == 0 || v > hi {
					hi = v
				}
			}
			cc, err := pf.MetaData().RowGroup(g).ColumnChunk(j)
			if err != nil {
				t.Fatal(err)
			}
			st, err := cc.Statistics()
			if err != nil {
				t.Fatal(err)
			}
			pr, err := pf.RowGroup(g).GetColumnPageReader(j)
			if err != nil {
				t.Fatal(err)
			}
			dictEntries := -1
			for pr.Next() {
				if p := pr.Page(); p.Type() == file.PageTypeDictionaryPage {
					dictEntries = int(p.NumValues())
				}
			}
			if err := pr.Err(); err != nil {
				t.Fatal(err)
			}
			if name == "free" {
				if dictEntries >= 0 || (st != nil && st.HasMinMax()) {
					t.Errorf("group %d, free text: dictionary of %d, statistics %v; want plain without min/max", g, dictEntries, st)
				}
				continue
			}
			if dictEntries != len(distinct) {
				t.Errorf("group %d, %s: dictionary of %d values, want %d", g, name, dictEntries, len(distinct))
			}
			bs, ok := st.(*metadata.ByteArrayStatistics)
			if !ok || !bs.HasMinMax() || string(bs.Min()) != lo || string(bs.Max()) != hi {
				t.Errorf("group %d, %s: statistics %v, want min %q max %q", g, name, st, lo, hi)
			}
		}
		// m: the smallest and largest of the group's values, by hand.
		lo, hi := []float64{0, -8, 0}[g], []float64{19.0 / 4, 7, 1}[g]
		cc, err := pf.MetaData().RowGroup(g).ColumnChunk(3)
		if err != nil {
			t.Fatal(err)
		}
		st, err := cc.Statistics()
		if err != nil {
			t.Fatal(err)
		}
		fs, ok := st.(*metadata.Float64Statistics)
		if !ok || !fs.HasMinMax() || fs.Min() != lo || fs.Max() != hi {
			t.Errorf("group %d, m: statistics %v, want min %v max %v", g, st, lo, hi)
		}
	}
	return data
}

// A value larger than a page, in a streamed column, makes a page of its
// own, larger than pageMaxBytes: the file reads back, and the buffer it
// grew is let go once the page is compressed, so the column's next page
// starts in a buffer of a page again, not of the huge value (the writer
// would otherwise hold 3 pages' room for the rest of the file).
func TestHugeValueInStreamedColumn(t *testing.T) {
	_, rows := pagesRows(30000)
	huge := strings.Repeat("ख", pageMaxBytes) // 3 bytes a letter: 3 pages
	rows[25000].Fields[1] = huge
	w, err := NewWriter(io.Discard, rows[0].Schema, WriteOptions{RowGroupRows: 10000})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
		if i == 25000 && !w.cur.strs[1].stream {
			t.Fatal("the text column does not stream in the third group")
		}
		if c := &w.cur.strs[1]; i > 25000 && cap(c.data) > 2*pageMaxBytes {
			t.Fatalf("after row %d: the text column's page holds %d bytes of room; the huge value's buffer was kept", i, cap(c.data))
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "huge.parquet")
	data := writeFile(t, path, rows, WriteOptions{RowGroupRows: 10000})
	_, got := readBack(t, data)
	if len(got) != len(rows) {
		t.Fatalf("%d rows read back, want %d", len(got), len(rows))
	}
	for i, r := range rows {
		if got[i][1] != r.Fields[1] {
			t.Fatalf("row %d: text of %d bytes read back, want %d", i, len(got[i][1]), len(r.Fields[1]))
		}
	}
	checkDuckDBSums(t, path, rows)
}

// grow keeps the values and gives room for n more, in a new array only
// when the old one has too little room (the reserve of a first group).
func TestGrow(t *testing.T) {
	s := append(make([]int32, 0, 4), 1, 2, 3)
	if g := grow(s, 1); &g[0] != &s[0] || cap(g) != 4 {
		t.Fatalf("room for one more in an array of room 4 holding 3: a new array of room %d", cap(g))
	}
	g := grow(s, 100)
	if len(g) != 3 || cap(g) < 103 || g[0] != 1 || g[1] != 2 || g[2] != 3 {
		t.Fatalf("grow(%v, 100) = %v, room %d", s, g, cap(g))
	}
	if g = append(g, 4); s[:4][3] != 0 || g[3] != 4 {
		t.Fatal("the grown slice shares the old array")
	}
}

// A streamed column's page buffer goes on from each group to the next
// when the group is written (Flush): the writer keeps one buffer a
// column, not one in each of its two groups.
func TestPageBufferGoesToTheNextGroup(t *testing.T) {
	_, rows := pagesRows(70000)
	w, err := NewWriter(io.Discard, rows[0].Schema, WriteOptions{RowGroupRows: 10000})
	if err != nil {
		t.Fatal(err)
	}
	var first *byte
	groups := 0
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
		if w.Buffered() != 0 {
			continue
		}
		groups++
		c := &w.cur.strs[1] // text: streamed from the second group on
		if !c.stream || cap(c.data) == 0 {
			t.Fatalf("after group %d: the text column streams %v, in a buffer of %d bytes", groups, c.stream, cap(c.data))
		}
		switch p := &c.data[:1][0]; {
		case groups == 2:
			first = p
		case groups > 2 && p != first:
			t.Fatalf("after group %d: the text column's page is in another buffer than after group 2", groups)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if groups != 7 {
		t.Fatalf("%d groups, want 7", groups)
	}
}
