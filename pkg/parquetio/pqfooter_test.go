package parquetio

import (
	"bytes"
	"io"
	"math"
	"regexp"
	"testing"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/evalbook/evalbook/pkg/results"
)

// writeTo writes rows of s as a Parquet file to dst.
func writeTo(t *testing.T, dst io.Writer, s *results.RowSchema, rows []*results.Row, opt WriteOptions) {
	t.Helper()
	w, err := NewWriter(dst, s, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// writeRows writes rows of s to memory and opens the file with arrow-go.
func writeRows(t *testing.T, s *results.RowSchema, rows []*results.Row, opt WriteOptions) *file.Reader {
	t.Helper()
	var buf bytes.Buffer
	writeTo(t, &buf, s, rows, opt)
	pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return pf
}

// The footer's created_by has the form parquet.thrift asks for,
// "<application> version <version> (build <hash>)": parquet-mr's
// VersionParser and arrow's ApplicationVersion take the application and
// its version from it, so that a reader can single out the files of a
// release whose writer had a bug, as they do for parquet-mr and
// parquet-cpp.
func TestCreatedBy(t *testing.T) {
	s, rows := pagesRows(10)
	pf := writeRows(t, s, rows, WriteOptions{})
	cb := pf.MetaData().GetCreatedBy()
	// parquet-mr's VersionParser.FORMAT, matched against the whole string.
	mr := regexp.MustCompile(`^(.*?)\s+version\s*(?:([^(]*?)\s*(?:\(\s*build\s*([^)]*?)\s*\))?)?$`)
	m := mr.FindStringSubmatch(cb)
	if m == nil || m[1] != "evalbook parquetio" || m[2] == "" {
		t.Fatalf("created_by %q: parquet-mr's VersionParser finds %q, want the application evalbook parquetio and a version", cb, m)
	}
	v := pf.MetaData().WriterVersion() // arrow-go's ApplicationVersion
	if v.App != "evalbook parquetio" || v.Version.Major != 1 {
		t.Errorf("created_by %q: arrow reads application %q version %d.%d.%d, want evalbook parquetio %d", cb, v.App, v.Version.Major, v.Version.Minor, v.Version.Patch, 1)
	}
	// Readers apply no known-bug workaround to it: arrow keeps the
	// statistics of the string column "one" (a dictionary column of the
	// value "same") and of the metric bin.
	for _, j := range []int{3, 4} {
		cc, err := pf.RowGroup(0).MetaData().ColumnChunk(j)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := cc.StatsSet(); !ok || err != nil {
			t.Errorf("arrow ignores the statistics of column %s (%v)", cc.PathInSchema(), err)
		}
	}
}

// Each column chunk lists its pages by type and encoding
// (ColumnMetaData.encoding_stats), as arrow-go's and parquet-mr's
// writers do: a reader learns that every data page of a dictionary
// column is dictionary-encoded (parquet-mr's DictionaryFilter, and
// Iceberg's and Trino's copies of it, skip row groups by their
// dictionaries only then: without encoding_stats, a chunk encoded
// RLE_DICTIONARY counts as one that may have fallen back to plain pages).
func TestEncodingStats(t *testing.T) {
	s, rows := pagesRows(70000)
	pf := writeRows(t, s, rows, WriteOptions{RowGroupRows: 70000})
	dictPage := metadata.PageEncodingStats{Encoding: parquet.Encodings.Plain, PageType: 2}
	dictData := metadata.PageEncodingStats{Encoding: parquet.Encodings.RLEDict, PageType: 0}
	plainData := metadata.PageEncodingStats{Encoding: parquet.Encodings.Plain, PageType: 0}
	want := map[string][]metadata.PageEncodingStats{
		"id":                 {plainData},
		"text":               {plainData},
		"label":              {dictPage, dictData},
		"one":                {dictPage, dictData},
		"bin":                {dictPage, dictData},
		"graded":             {plainData},
		"matching_words":     {dictPage, dictData},
		"total_golden_words": {dictPage, dictData},
		"blank_response":     {plainData},
		"empty_golden":       {plainData},
	}
	rg := pf.MetaData().RowGroup(0)
	for j := range rg.NumColumns() {
		cc, err := rg.ColumnChunk(j)
		if err != nil {
			t.Fatal(err)
		}
		name := cc.PathInSchema().String()
		got := cc.EncodingStats()
		if len(got) != len(want[name]) {
			t.Errorf("column %s: encoding_stats %v, want %v", name, got, want[name])
			continue
		}
		for i := range got {
			if got[i] != want[name][i] {
				t.Errorf("column %s: encoding_stats %v, want %v", name, got, want[name])
			}
		}
	}
}

// RowGroup.ordinal is an i16: a file of more than 32,768 row groups
// (which the Writer makes only with maxRowGroups lifted) gives none of them one (not 32,767 again past the 32,767th, nor a
// negative number; arrow-rs refuses ordinals on some row groups and not
// on others), a smaller file gives each its index.
func TestRowGroupOrdinal(t *testing.T) {
	s := results.NewRowSchema([]string{"k"}, []string{"m"}, []bool{false}, false, nil)
	s.Flags = false
	rowsOf := func(n int) []*results.Row {
		rows := make([]*results.Row, n)
		for i := range rows {
			rows[i] = &results.Row{Schema: s, Fields: []string{"x"}, Values: []float64{float64(i % 2)}}
		}
		return rows
	}
	pf := writeRows(t, s, rowsOf(3), WriteOptions{RowGroupRows: 1})
	for g := range 3 {
		if o := pf.MetaData().RowGroup(g).Ordinal(); int(o) != g {
			t.Errorf("3 row groups: row group %d has ordinal %d", g, o)
		}
	}
	if testing.Short() {
		t.Skip("32,769 row groups")
	}
	// The Writer keeps its files under 32,768 row groups by doubling its
	// groups' rows (TestRowGroupsStayUnderTheLimit): lifted here, to
	// reach the footer of a file of more.
	defer func(v int) { maxRowGroups = v }(maxRowGroups)
	maxRowGroups = 1 << 30
	const n = math.MaxInt16 + 2
	pf = writeRows(t, s, rowsOf(n), WriteOptions{RowGroupRows: 1})
	if pf.NumRowGroups() != n {
		t.Fatalf("%d row groups, want %d", pf.NumRowGroups(), n)
	}
	// arrow-go reads an absent ordinal as 0.
	for _, g := range []int{1, 2, math.MaxInt16, n - 1} {
		if o := pf.MetaData().RowGroup(g).Ordinal(); o != 0 {
			t.Errorf("%d row groups: row group %d has ordinal %d, want none", n, g, o)
		}
	}
}

// Statistics follow parquet.thrift's orders: strings compare as unsigned
// bytes (हिन्दी, whose first byte is 0xE0, is above "zzz" and "ÿ" (0xC3);
// a signed comparison, parquet-mr's old one, would make "zzz" the
// largest), and a double column whose values are all zeros of either
// sign has the minimum -0.0 and the maximum +0.0, whichever comes first
// (z starts with -0.0, z2 with +0.0).
func TestStatisticsOrders(t *testing.T) {
	s := results.NewRowSchema([]string{"k"}, []string{"z", "z2"}, []bool{true, true}, false, nil)
	s.Flags = false
	var rows []*results.Row
	for i := range 40 {
		k := []string{"zzz", "हिन्दी", "ÿ", "a"}[i%4]
		z := math.Copysign(0, -1)
		if i%3 == 1 {
			z = 0
		}
		rows = append(rows, &results.Row{Schema: s, Fields: []string{k}, Values: []float64{z, -z}})
	}
	pf := writeRows(t, s, rows, WriteOptions{})
	rg := pf.MetaData().RowGroup(0)
	cc, err := rg.ColumnChunk(0)
	if err != nil {
		t.Fatal(err)
	}
	st, err := cc.Statistics()
	if err != nil || st == nil || !st.HasMinMax() {
		t.Fatalf("column k: no statistics (%v)", err)
	}
	bs := st.(*metadata.ByteArrayStatistics)
	if string(bs.Min()) != "a" || string(bs.Max()) != "हिन्दी" {
		t.Errorf("column k: min %q max %q, want a and हिन्दी", bs.Min(), bs.Max())
	}
	for j := 1; j <= 2; j++ {
		cc, err = rg.ColumnChunk(j)
		if err != nil {
			t.Fatal(err)
		}
		if st, err = cc.Statistics(); err != nil || st == nil || !st.HasMinMax() {
			t.Fatalf("column %s: no statistics (%v)", cc.PathInSchema(), err)
		}
		fs := st.(*metadata.Float64Statistics)
		if fs.Min() != 0 || !math.Signbit(fs.Min()) || fs.Max() != 0 || math.Signbit(fs.Max()) {
			t.Errorf("column %s: min %v (sign %v) max %v (sign %v), want -0 and +0", cc.PathInSchema(), fs.Min(), math.Signbit(fs.Min()), fs.Max(), math.Signbit(fs.Max()))
		}
	}
}
