package parquetio

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/evalbook/evalbook/pkg/results"
)

// Every cell of a file written over several row groups reads back as
// written: a column kept as a dictionary whose values outgrow the
// comparison scan (40 distinct labels, more than smallDict) and one that
// stays small, free text (written plain), a graded metric with nulls,
// the word counts, both flags and an extra column. The row is reused
// between writes, as pkg/qa reuses it. The dictionary columns are
// dictionary-encoded in the file and the free text is not.
func TestWriterColumns(t *testing.T) {
	s := results.NewRowSchema([]string{"id", "label", "lang", "note"}, []string{"judge"}, []bool{true}, true, nil)
	s.Extra = []string{"reason"}
	const n = 250
	var buf bytes.Buffer
	w, err := NewWriter(&buf, s, WriteOptions{RowGroupRows: 100})
	if err != nil {
		t.Fatal(err)
	}
	r := &results.Row{Schema: s, Fields: make([]string, 4), Values: make([]float64, 1), Extra: make([]string, 1)}
	var want [][]string
	for i := range n {
		r.Fields[0] = strconv.Itoa(i)
		r.Fields[1] = fmt.Sprintf("L%d", i*7%40)
		r.Fields[2] = []string{"hi", "bn", "en"}[i%3]
		r.Fields[3] = fmt.Sprintf("नोट %d", i*i)
		if i%9 == 0 {
			r.Fields[3] = ""
		}
		r.Values[0] = float64(i%4) / 4
		cell := strconv.FormatFloat(r.Values[0], 'g', -1, 64)
		if i%5 == 0 {
			r.Values[0], cell = math.NaN(), ""
		}
		r.Matching, r.TotalGolden = i%3, 3
		r.Blank, r.EmptyGolden = i%9 == 0, i%13 == 0
		r.Extra[0] = fmt.Sprintf("because %d", i%2)
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
		want = append(want, []string{r.Fields[0], r.Fields[1], r.Fields[2], r.Fields[3], cell, strconv.Itoa(r.Matching), "3",
			strconv.FormatBool(r.Blank), strconv.FormatBool(r.EmptyGolden), r.Extra[0]})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	h, got := readBack(t, buf.Bytes())
	wantH := []string{"id", "label", "lang", "note", "judge", "matching_words", "total_golden_words", "blank_response", "empty_golden", "reason"}
	if !slices.Equal(h, wantH) {
		t.Fatalf("header %q, want %q", h, wantH)
	}
	if len(got) != n {
		t.Fatalf("%d rows read back, want %d", len(got), n)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Fatalf("row %d: %q, want %q", i, got[i], want[i])
		}
	}
	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if pf.NumRowGroups() != 3 {
		t.Errorf("%d row groups, want 3 (250 rows, 100 a group)", pf.NumRowGroups())
	}
	for g := range pf.NumRowGroups() {
		md := pf.MetaData().RowGroup(g)
		for c, dict := range map[int]bool{0: false, 1: true, 2: true, 3: false} {
			cc, err := md.ColumnChunk(c)
			if err != nil {
				t.Fatal(err)
			}
			if has := slices.Contains(cc.Encodings(), parquet.Encodings.RLEDict); has != dict {
				t.Errorf("row group %d, column %s: dictionary-encoded %v, want %v (%v)", g, wantH[c], has, dict, cc.Encodings())
			}
		}
	}
}

// Rows of long text end a row group before RowGroupRows: with groups of
// at most 1,000 bytes of text, rows of 300 bytes go three to a group,
// and a row longer than that alone is a group of its own.
func TestRowGroupBytes(t *testing.T) {
	t.Run("every column", func(t *testing.T) { testRowGroupBytes(t, false) })
	// An omitted column (a partition's, kept in the folder's name) is
	// not written, so its text does not count.
	t.Run("one omitted", func(t *testing.T) { testRowGroupBytes(t, true) })
}

func testRowGroupBytes(t *testing.T, omit bool) {
	old := maxGroupBytes
	defer func() { maxGroupBytes = old }()
	maxGroupBytes = 1000
	cols, opt := []string{"text"}, WriteOptions{}
	if omit {
		cols, opt.Omit = []string{"part", "text"}, []string{"part"}
	}
	s := results.NewRowSchema(cols, []string{"m"}, []bool{false}, false, nil)
	sizes := []int{300, 300, 300, 300, 2500, 300}
	var in []*results.Row
	for i, n := range sizes {
		f := []string{string(bytes.Repeat([]byte{'a' + byte(i)}, n))}
		if omit {
			f = append([]string{strings.Repeat("p", 5000)}, f...)
		}
		in = append(in, &results.Row{Schema: s, Fields: f, Values: []float64{1}})
	}
	var buf bytes.Buffer
	writeTo(t, &buf, s, in, opt)
	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var rows []int64
	for g := range pf.NumRowGroups() {
		rows = append(rows, pf.MetaData().RowGroup(g).NumRows())
	}
	// 300+300+300 = 900; the fourth would make 1,200: a new group, which
	// the 2,500-byte row would take past 1,000, so it starts its own.
	if !slices.Equal(rows, []int64{3, 1, 1, 1}) {
		t.Errorf("rows per group %v, want [3 1 1 1]", rows)
	}
	_, got := readBack(t, buf.Bytes())
	for i, n := range sizes {
		if len(got) <= i || len(got[i][0]) != n || got[i][0][0] != 'a'+byte(i) {
			t.Fatalf("row %d read back wrong", i)
		}
	}
}

// WriteOptions.Compression picks the pages' codec, recorded in each
// column chunk's metadata; an unknown name is refused by every writer.
func TestCompressionOption(t *testing.T) {
	s := results.NewRowSchema([]string{"text"}, []string{"m"}, []bool{false}, false, nil)
	for name, want := range map[string]string{"": "SNAPPY", "snappy": "SNAPPY", "zstd": "ZSTD", "none": "UNCOMPRESSED"} {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, s, WriteOptions{Compression: name})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 50 {
			if err := w.Write(&results.Row{Schema: s, Fields: []string{fmt.Sprintf("text %d text text", i)}, Values: []float64{1}}); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		cc, err := pf.MetaData().RowGroup(0).ColumnChunk(0)
		if err != nil {
			t.Fatal(err)
		}
		if got := cc.Compression().String(); got != want {
			t.Errorf("Compression %q: the column chunk says %s, want %s", name, got, want)
		}
		if _, rows := readBack(t, buf.Bytes()); len(rows) != 50 || rows[49][0] != "text 49 text text" {
			t.Errorf("Compression %q: read back %d rows", name, len(rows))
		}
	}
	bad := WriteOptions{Compression: "gzip9"}
	if _, err := NewWriter(io.Discard, s, bad); err == nil || !strings.Contains(err.Error(), `no Parquet compression "gzip9"`) {
		t.Errorf("NewWriter: %v", err)
	}
	if _, err := NewTableWriter(io.Discard, []string{"a"}, nil, bad); err == nil {
		t.Error("NewTableWriter took an unknown compression")
	}
	if _, err := NewDirWriter(t.TempDir()+"/d", s, DirOptions{By: []string{"text"}, Compression: "gzip9"}); err == nil {
		t.Error("NewDirWriter took an unknown compression")
	}
}

// A labelKey tells apart every two strings of at most 16 bytes (they
// differ in length, in their first eight bytes or in their last eight),
// including strings that differ in one middle byte or by a trailing zero
// byte; strings longer than 16 bytes may share a key, which is why the
// dictionary then compares their bytes too.
func TestLabelKeys(t *testing.T) {
	var ss []string
	for n := range 25 {
		base := []byte(strings.Repeat("m", n))
		ss = append(ss, string(base))
		for at := range n { // every position: the short keys read some bytes twice and none may be missed
			for _, b := range []byte{0, 'n', 0xE0} {
				v := slices.Clone(base)
				v[at] = b
				ss = append(ss, string(v))
			}
		}
		ss = append(ss, string(base)+"\x00")
	}
	slices.Sort(ss)
	ss = slices.Compact(ss)
	shared := false
	for i, a := range ss {
		for _, b := range ss[i+1:] {
			if keyOf(a) != keyOf(b) {
				continue
			}
			if len(a) <= 16 {
				t.Fatalf("%q and %q (%d bytes) share a key", a, b, len(a))
			}
			shared = true
		}
		if s := keyOf(a).slot(); s < 0 || s > 255 {
			t.Fatalf("slot %d of %q", s, a)
		}
	}
	if !shared {
		t.Error("no two strings of more than 16 bytes share a key: the byte comparison after it is never needed here, so this test does not reach it")
	}
}

// Labels of more than 16 bytes that share their length and their first
// and last eight bytes, and short ones that differ in one middle byte,
// each keep their own dictionary entry and read back as written.
func TestDictionaryLabelsAlike(t *testing.T) {
	s := results.NewRowSchema([]string{"model", "lang"}, []string{"m"}, []bool{false}, false, nil)
	var buf bytes.Buffer
	w, err := NewWriter(&buf, s, WriteOptions{RowGroupRows: 64})
	if err != nil {
		t.Fatal(err)
	}
	models := []string{"provider/model-A-v1.0-instruct", "provider/model-B-v1.0-instruct", "provider/model-C-v1.0-instruct"}
	langs := []string{"hi-IN-a", "hi-IN-b", "hi\x00IN-a"}
	r := &results.Row{Schema: s, Fields: make([]string, 2), Values: make([]float64, 1)}
	var want [][]string
	for i := range 200 {
		r.Fields[0], r.Fields[1] = models[i*7%3], langs[i%3]
		r.Values[0] = float64(i % 2)
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
		want = append(want, []string{r.Fields[0], r.Fields[1], strconv.Itoa(i % 2)})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	_, got := readBack(t, buf.Bytes())
	if len(got) != len(want) {
		t.Fatalf("%d rows read back, want %d", len(got), len(want))
	}
	for i := range want {
		if !slices.Equal(got[i][:3], want[i]) {
			t.Fatalf("row %d: %q, want %q first", i, got[i], want[i])
		}
	}
}
