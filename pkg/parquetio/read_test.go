package parquetio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// The same table as CSV and as Parquet (typed columns, a dictionary
// column, nulls, two row groups) scores the same: the CSV path is the
// reference.
func TestScoreParquetEqualsCSV(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		field("id", arrow.PrimitiveTypes.Int64),
		str("question"),
		field("answer", arrow.BinaryTypes.LargeString),
		field("Domain", &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}),
		str("response"),
		field("score", arrow.PrimitiveTypes.Float64),
		field("ok", arrow.FixedWidthTypes.Boolean),
	}, nil)
	rows := [][]any{
		{int64(1), "Capital of India?", "New Delhi", "geo", "It is New Delhi.", 0.5, true},
		{int64(2), "भारत की राजधानी?", "नई दिल्ली", "geo", "नई दिल्ली", 1.0, false},
		{int64(3), "Year of independence?", "1947", "history", nil, nil, nil},
		{int64(4), "বাংলাদেশের রাজধানী?", "ঢাকা", "geo", "চট্টগ্রাম", 2.5e-7, true},
		{int64(5), "Empty golden", nil, "history", "something", -3.0, false},
	}
	pq := parquetFile(t, sc, rows, 2)
	csv := "id,question,answer,Domain,response,score,ok\n" +
		"1,Capital of India?,New Delhi,geo,It is New Delhi.,0.5,true\n" +
		"2,भारत की राजधानी?,नई दिल्ली,geo,नई दिल्ली,1,false\n" +
		"3,Year of independence?,1947,history,,,\n" +
		"4,বাংলাদেশের রাজধানী?,ঢাকা,geo,চট্টগ্রাম,2.5e-07,true\n" +
		"5,Empty golden,,history,something,-3,false\n"
	var vp, vc bytes.Buffer
	rp, err := qa.Score(context.Background(), bytes.NewReader(pq), "run.parquet", qa.Options{Verdicts: &vp})
	if err != nil {
		t.Fatal(err)
	}
	rc, err := qa.Score(context.Background(), strings.NewReader(csv), "run.csv", qa.Options{Verdicts: &vc})
	if err != nil {
		t.Fatal(err)
	}
	if vp.String() != vc.String() {
		t.Errorf("verdicts from Parquet:\n%s\nfrom CSV:\n%s", vp.String(), vc.String())
	}
	if rp.Dataset.Format != "parquet" || rp.Combined.N != 5 || rp.Combined.Blank != 1 {
		t.Errorf("format %q, combined %+v: want parquet, 5 rows, 1 blank (the null response)", rp.Dataset.Format, rp.Combined)
	}
	// Warnings name rows: a Parquet file has no header line, so its row
	// k is the CSV file's line k+1.
	for i := range rc.Warnings {
		for j := range rc.Warnings[i].Lines {
			rc.Warnings[i].Lines[j]--
		}
	}
	jp, _ := json.Marshal([]any{rp.Combined, rp.Groups, rp.Warnings})
	jc, _ := json.Marshal([]any{rc.Combined, rc.Groups, rc.Warnings})
	if string(jp) != string(jc) {
		t.Errorf("figures differ:\nparquet %s\ncsv     %s", jp, jc)
	}
	// The hash covers the file's bytes, as for every format.
	if rp.Dataset.Hash == "" || rp.Dataset.Hash == rc.Dataset.Hash {
		t.Errorf("hash %q (csv %q)", rp.Dataset.Hash, rc.Dataset.Hash)
	}
}

// A list is kept as JSON text where nobody scores it, and refused in a
// scored column with the row, the row group and the column named.
func TestListColumns(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		str("question"), str("answer"), str("Domain"),
		field("response", arrow.ListOf(arrow.BinaryTypes.String)),
		field("tags", arrow.ListOf(arrow.BinaryTypes.String)),
	}, nil)
	rows := [][]any{
		{"q1", "a", "d", []string{"a"}, []string{"x", "\"y\""}},
		{"q2", "b", "d", []string{"b"}, nil},
		{"q3", "c", "d", []string{"c", "d"}, []string{}},
	}
	data := parquetFile(t, sc, rows, 2)
	src, err := Open(bytes.NewReader(data), "l.parquet")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		f, _, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, f[3]+" | "+f[4])
	}
	want := []string{`["a"] | ["x","\"y\""]`, `["b"] | `, `["c","d"] | []`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("without RequireText: %q, want %q", got, want)
	}

	_, err = qa.Score(context.Background(), bytes.NewReader(data), "l.parquet", qa.Options{})
	var pe *tabular.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrNotText) {
		t.Fatalf("a list in the response column: %v", err)
	}
	if pe.File != "l.parquet" || pe.Line != 1 || pe.Field != "response" || !strings.Contains(err.Error(), "row group 1, row 1 of the group") {
		t.Errorf("error %q: file %q line %d field %q", err, pe.File, pe.Line, pe.Field)
	}
	// The list column "tags" is not read by the scorer when the response
	// is text: score with response taken from question.
	_, err = qa.Score(context.Background(), bytes.NewReader(data), "l.parquet",
		qa.Options{Columns: qa.Columns{Response: "question"}})
	if err != nil {
		t.Errorf("tags is not scored, so its lists are fine: %v", err)
	}
}

// Errors name the row over the file and the place within its row group.
func TestErrorInSecondRowGroup(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{str("question"), str("answer"), str("Domain"), field("response", arrow.BinaryTypes.Binary)}, nil)
	rows := [][]any{
		{"q1", "a", "d", "a"}, {"q2", "a", "d", "a"}, {"q3", "a", "d", "a"},
		{"q4", "a", "d", []byte{'o', 'k', 0xff}},
	}
	data := parquetFile(t, sc, rows, 3)
	var seen int
	_, err := qa.Score(context.Background(), bytes.NewReader(data), "u.parquet", qa.Options{Rows: func(*qa.Row) error { seen++; return nil }})
	var pe *tabular.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, tabular.ErrInvalidUTF8) {
		t.Fatalf("invalid UTF-8 in a binary column: %v", err)
	}
	if pe.Line != 4 || pe.Field != "response" || !strings.Contains(err.Error(), "row group 2, row 1 of the group") {
		t.Errorf("error %q: line %d field %q, want row 4 = row group 2, row 1", err, pe.Line, pe.Field)
	}
	if seen != 3 {
		t.Errorf("rows before the bad one: %d, want 3", seen)
	}
}

func TestBrokenFiles(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{str("question"), str("answer"), str("Domain"), str("response")}, nil)
	good := parquetFile(t, sc, [][]any{{"q", "a", "d", "a"}}, 0)
	for _, tc := range []struct {
		name string
		data []byte
		want string
		is   error
	}{
		{"truncated.parquet", good[:len(good)-9], "not a readable Parquet file", nil},
		{"csv.parquet", []byte("question,answer\nq,a\n"), "not a readable Parquet file", nil},
		{"empty.parquet", nil, "8-byte footer", tabular.ErrEmptyFile},
	} {
		_, err := qa.Score(context.Background(), bytes.NewReader(tc.data), tc.name, qa.Options{})
		var pe *tabular.ParseError
		if !errors.As(err, &pe) || pe.File != tc.name || !strings.Contains(err.Error(), tc.want) || tc.is != nil && !errors.Is(err, tc.is) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	miss := parquetFile(t, arrow.NewSchema([]arrow.Field{str("question"), str("answer"), str("response")}, nil), [][]any{{"q", "a", "a"}}, 0)
	_, err := qa.Score(context.Background(), bytes.NewReader(miss), "m.parquet", qa.Options{})
	if !errors.Is(err, qa.ErrMissingColumn) || !strings.Contains(err.Error(), "m.parquet") || !strings.Contains(err.Error(), "Domain") {
		t.Errorf("missing Domain: %v", err)
	}
	// The size limit is checked before anything is decoded.
	_, err = Open(io.MultiReader(bytes.NewReader(good)), "big.parquet", ReadOptions{MaxBytes: int64(len(good) - 1)})
	if !errors.Is(err, tabular.ErrTooLong) || !strings.Contains(err.Error(), "limit") {
		t.Errorf("over MaxBytes: %v", err)
	}
	_, err = Open(bytes.NewReader(good), "big.parquet", ReadOptions{MaxBytes: int64(len(good) - 1)})
	if !errors.Is(err, tabular.ErrTooLong) {
		t.Errorf("over MaxBytes (seekable): %v", err)
	}
	src, err := Open(bytes.NewReader(good), "cell.parquet", ReadOptions{MaxCell: 0})
	if err != nil {
		t.Fatal(err)
	}
	src.opt.MaxCell = 0 // every non-empty cell is then too long
	if _, line, err := src.Next(); !errors.Is(err, tabular.ErrTooLong) || line != 1 {
		t.Errorf("over MaxCell: line %d, %v", line, err)
	}
}

// A column of Parquet's null type (pandas writes one for an all-None
// column) reads as empty text.
func TestNullTypedColumn(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{str("question"), str("answer"), str("Domain"), str("response"),
		field("n", arrow.Null)}, nil)
	data := parquetFile(t, sc, [][]any{{"q", "a", "d", "a", nil}}, 0)
	src, err := Open(bytes.NewReader(data), "n.parquet")
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := src.Next()
	if err != nil || len(f) != 5 || f[4] != "" {
		t.Errorf("a null-typed column reads as empty: %q %v", f, err)
	}
}
