package tabular

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseErrorFormat(t *testing.T) {
	cause := errors.New("boom")
	for _, c := range []struct {
		name string
		e    ParseError
		want string
	}{
		{"everything", ParseError{File: "f.csv", Line: 3, Column: 12, Field: "rater_b", Err: cause}, `f.csv:3:12 (column "rater_b"): boom`},
		{"no column", ParseError{File: "f.csv", Line: 3, Err: cause}, "f.csv:3: boom"},
		{"column without a line is not shown", ParseError{File: "f.csv", Column: 4, Err: cause}, "f.csv: boom"},
		{"whole file", ParseError{File: "f.csv", Err: cause}, "f.csv: boom"},
		{"field already quoted by the cause", ParseError{File: "f.csv", Line: 1, Field: "q", Err: errors.New(`missing column "q"`)}, `f.csv:1: missing column "q"`},
		{"field named but unquoted in the cause", ParseError{File: "f.csv", Line: 1, Field: "q", Err: errors.New("q is bad")}, `f.csv:1 (column "q"): q is bad`},
		{"no file", ParseError{Line: 2, Column: 5, Field: "task", Err: cause}, `2:5 (column "task"): boom`},
		{"nothing but a cause", ParseError{Err: cause}, "boom"},
		{"no cause", ParseError{File: "f.csv", Line: 2}, "f.csv:2: bad input"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.e.Error(); got != c.want {
				t.Errorf("Error() = %q, want %q", got, c.want)
			}
		})
	}
	pe := &ParseError{File: "f", Err: fmt.Errorf("x: %w", ErrQuote)}
	if !errors.Is(pe, ErrQuote) || pe.Unwrap() != pe.Err {
		t.Error("ParseError does not unwrap to its cause")
	}
}

// TestReaderErrors: each kind of error, with its place. Columns count
// characters, by hand, one by one; where Indic text comes first the byte
// column (what csv.Reader and encoding/json count) is given too, to show
// that the two differ.
func TestReaderErrors(t *testing.T) {
	long := strings.Repeat("x", 100)
	for _, c := range []struct {
		name, file, in string
		opt            Options
		line, col      int
		field          string
		is             error
		msg            string // a part of the message
	}{
		// 1 (1) , (2) भ ा र त (3-6) space (7), the bad byte 8; in bytes
		// 1 + 1 + 12 + 1 = 15 come first: byte column 16.
		{"csv bad byte after Hindi", "t.csv", "id,q\n1,भारत \xff\n", Options{}, 2, 8, "q", ErrInvalidUTF8,
			"invalid UTF-8: first bad byte 0xFF at character 6 of the field; re-save the file as UTF-8"},
		// A quoted field: 1 (1) , (2) " (3) क (4), line break; then on
		// line 3 ख (1) ग (2), the bad byte 3 (byte column 7).
		{"csv bad byte on the second line of a quoted field", "t.csv", "id,q\n1,\"क\nखग\xff\"\n", Options{}, 3, 3, "q", ErrInvalidUTF8, "at character 5 of the field"},
		// Doubled quotes count where the file has them: 1 (1) , (2) " (3)
		// a (4) "" (5-6) क (7), the bad byte 8.
		{"csv bad byte after a doubled quote", "t.csv", "id,q\n1,\"a\"\"क\xff\"\n", Options{}, 2, 8, "q", ErrInvalidUTF8, "at character 4 of the field"},
		// ব া ং ল া (1-5) , (6) x (7), the bad byte 8 (byte column 18).
		{"csv header after Bengali", "t.csv", "বাংলা,x\xff\n1,2\n", Options{}, 1, 8, "", ErrInvalidUTF8, "header: invalid UTF-8"},
		// The byte-order mark is not a character an editor shows.
		{"csv header after a byte-order mark", "t.csv", "\xef\xbb\xbfab\xff\n1\n", Options{}, 1, 3, "", ErrInvalidUTF8, "header:"},
		// 1 (1) , (2) ह ि ं द ी (3-7) space (8), the quote 9 (byte column 19).
		{"csv bare quote after Hindi", "t.csv", "id,q\n1,हिंदी \"x\"\n", Options{}, 2, 9, "", ErrQuote, `bad quoting: bare " in non-quoted-field`},
		{"csv quote never closed", "t.csv", "id,q\n1,\"abc\n", Options{}, 2, 0, "", ErrQuote, "bad quoting"},
		{"csv too few fields", "t.csv", "a,b\n1\n", Options{}, 2, 0, "", ErrFieldCount, "the record has 1 fields, the header has 2"},
		{"csv too many fields", "t.csv", "a,b\n1,2,3\n", Options{}, 2, 0, "", ErrFieldCount, "the record has 3 fields, the header has 2"},
		{"csv empty", "t.csv", "", Options{}, 0, 0, "", ErrEmptyFile, "the file is empty: expected a header row"},
		{"csv byte-order mark alone", "t.csv", "\xef\xbb\xbf", Options{}, 0, 0, "", ErrEmptyFile, "the file is empty"},
		{"csv record too long", "t.csv", "a\n1\n\"" + strings.Repeat(long+"\n", 10) + "\"\n", Options{MaxRecord: 300}, 3, 0, "", ErrTooLong, "longer than 300 bytes"},
		// {"q": " is 7 characters, হ ি ন ্ দ ি 6 more (8-13), the bad
		// byte 14; in bytes 7 + 18 come first: byte column 26.
		{"jsonl bad byte after Bengali", "t.jsonl", `{"q": "হিন্দি` + "\xff" + `"}`, Options{}, 1, 14, "q", ErrInvalidUTF8,
			"invalid UTF-8: first bad byte 0xFF; re-save the file as UTF-8"},
		// { " q " : space " (1-7) भ ा र त (8-11) " , space (12-14) x (15);
		// byte column 23. The error is after q's value, so it names no key.
		{"jsonl syntax after Hindi", "t.jsonl", `{"q": "भारत", x}`, Options{}, 1, 15, "", nil, "bad JSON: invalid character 'x'"},
		// Inside a value: { " q " : (1-5) space (6) n (7) u (8) l (9) x (10).
		{"jsonl syntax in a value", "t.jsonl", `{"q": nulx}`, Options{}, 1, 10, "q", nil, `bad JSON in "q"`},
		{"jsonl not an object", "t.jsonl", "[1]", Options{}, 1, 1, "", nil, "each line must be a JSON object"},
		// { " q " : space 1 , space (1-9): the second "q" opens at 10.
		{"jsonl key twice", "t.jsonl", `{"q": 1, "q": 2}`, Options{}, 1, 10, "q", nil, `key "q" appears twice`},
		// { " q " : 1 } (1-7) space (8) 2 (9).
		{"jsonl trailing data", "t.jsonl", `{"q":1} 2`, Options{}, 1, 9, "", nil, "trailing data after the object"},
		{"jsonl unknown key", "t.jsonl", "{\"q\": 1}\n{\"q\": 2, \"z\": 3}\n", Options{}, 2, 0, "z", nil, `key "z" is not in the first line's keys ("q")`},
		{"jsonl missing key", "t.jsonl", "{\"q\": 1, \"a\": 2}\n\n{\"q\": 2}\n", Options{}, 3, 0, "a", ErrMissingColumn, `missing column "a" in this object`},
		{"jsonl empty", "t.jsonl", "\n \n", Options{}, 0, 0, "", ErrEmptyFile, "expected one JSON object per line"},
		{"jsonl line too long", "t.jsonl", "{\"q\": 1}\n{\"q\": \"" + long + "\"}\n", Options{MaxRecord: 64}, 2, 0, "", ErrTooLong, "longer than 64 bytes"},
		{"unknown format", "t.parquet", "x", Options{}, 0, 0, "", nil, `unknown table format "parquet"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := readAll(c.in, c.file, c.opt)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T) is not a *ParseError", err, err)
			}
			if pe.File != c.file || pe.Line != c.line || pe.Column != c.col || pe.Field != c.field {
				t.Errorf("at %s:%d:%d field %q, want %s:%d:%d field %q (%v)", pe.File, pe.Line, pe.Column, pe.Field, c.file, c.line, c.col, c.field, err)
			}
			if c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("error %v does not match %v", err, c.is)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %q does not say %q", err, c.msg)
			}
		})
	}
}

// readAll reads every record of in and returns the error, if any.
func readAll(in, name string, opt Options) error {
	rd, err := NewReader(strings.NewReader(in), name, opt)
	if err != nil {
		return err
	}
	for rd.Scan() {
	}
	return rd.Err()
}

func TestReadCSV(t *testing.T) {
	// A byte-order mark, CRLF, a quoted field with a line break and a
	// doubled quote, an empty field and Indic text.
	in := "\xef\xbb\xbfid,q,a\r\n1,भारत,\"x\r\ny\"\r\n2,\"say \"\"hi\"\"\",\r\n"
	rd, err := Open(strings.NewReader(in), "t.csv", "")
	if err != nil {
		t.Fatal(err)
	}
	if h := rd.Header(); !slices.Equal(h, []string{"id", "q", "a"}) || rd.Format() != "csv" || rd.Name() != "t.csv" {
		t.Fatalf("header %q, format %q, name %q", h, rd.Format(), rd.Name())
	}
	// After the byte-order mark, which is no character: i d (1-2) , (3)
	// q (4) , (5), a at 6.
	if c := rd.HeaderColumn(2); c != 6 {
		t.Errorf("HeaderColumn(2) = %d, want 6", c)
	}
	var got [][]string
	var lines []int
	for rd.Scan() {
		rec := rd.Record()
		got = append(got, rec.Fields)
		lines = append(lines, rec.Line)
		if rec.Kind(0) != Text || rec.Repaired {
			t.Errorf("record %v: kind %v, repaired %v", rec.Fields, rec.Kind(0), rec.Repaired)
		}
		if rec.Line == 2 {
			// 1 (1) , (2) भ ा र त (3-6) , (7): the quoted field opens at 8
			// (byte column 17); the second field at 3.
			if l, c := rd.FieldPos(2); l != 2 || c != 8 {
				t.Errorf("FieldPos(2) = %d:%d, want 2:8", l, c)
			}
			if l, c := rd.FieldPos(1); l != 2 || c != 3 {
				t.Errorf("FieldPos(1) = %d:%d, want 2:3", l, c)
			}
			// Errorf places the error at the field and names it.
			pe := rd.Errorf(2, "bad %s", "a")
			if pe.Line != 2 || pe.Column != 8 || pe.Field != "a" || pe.Error() != `t.csv:2:8 (column "a"): bad a` {
				t.Errorf("Errorf = %+v (%v)", pe, pe)
			}
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"1", "भारत", "x\ny"}, {"2", `say "hi"`, ""}}
	if fmt.Sprint(got) != fmt.Sprint(want) || !slices.Equal(lines, []int{2, 4}) {
		t.Errorf("records %q on lines %v, want %q on 2, 4", got, lines, want)
	}
	if rd.Index("q") != 1 || rd.Index("nope") != -1 {
		t.Errorf("Index: %d, %d", rd.Index("q"), rd.Index("nope"))
	}
}

func TestReadJSONL(t *testing.T) {
	in := "\ufeff{\"s\": \"হিন্দি\", \"n\": 1.50, \"b\": true, \"z\": null, \"o\": {\"a\": [1, 2]}}\n\n" +
		"{\"o\": [], \"z\": \"now\", \"b\": false, \"n\": -2, \"s\": \"x\"}\n"
	rd, err := Open(strings.NewReader(in), "t.ndjson", "")
	if err != nil {
		t.Fatal(err)
	}
	if h := rd.Header(); !slices.Equal(h, []string{"s", "n", "b", "z", "o"}) || rd.Format() != "jsonl" {
		t.Fatalf("header %q, format %q", h, rd.Format())
	}
	type row struct {
		line   int
		fields []string
		kinds  []Kind
	}
	var got []row
	for rd.Scan() {
		rec := rd.Record()
		got = append(got, row{rec.Line, rec.Fields, rec.Kinds})
		if rec.Line == 1 {
			// { " n " : space (1-6) then the string: " (7) হ ি ন ্ দ ি
			// (8-13) " , space (14-16); "n": at 17-20, space 21, 1.50 at 22
			// (byte column 34).
			if l, c := rd.FieldPos(1); l != 1 || c != 22 {
				t.Errorf("FieldPos(1) = %d:%d, want 1:22", l, c)
			}
			if _, c := rd.FieldPos(0); c != 7 {
				t.Errorf("FieldPos(0) column %d, want 7", c)
			}
		}
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	want := []row{
		{1, []string{"হিন্দি", "1.50", "true", "", `{"a":[1,2]}`}, []Kind{Text, Number, Bool, Null, Composite}},
		{3, []string{"x", "-2", "false", "now", "[]"}, []Kind{Text, Number, Bool, Text, Composite}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("records\n%v\nwant\n%v", got, want)
	}
}

func TestSparse(t *testing.T) {
	in := "{\"a\": 1, \"b\": 2}\n{\"b\": 3, \"c\": 4}\n{\"a\": null}\n"
	rd, err := NewReader(strings.NewReader(in), "t.jsonl", Options{Sparse: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rd.Scan() {
		rec := rd.Record()
		got = append(got, fmt.Sprintf("%d:%q%v", rec.Line, rec.Fields, rec.Kinds))
	}
	if err := rd.Err(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`1:["1" "2"][number number]`,
		`2:["" "3" "4"][absent number number]`,
		`3:["" "" ""][null absent absent]`,
	}
	if !slices.Equal(got, want) || !slices.Equal(rd.Header(), []string{"a", "b", "c"}) {
		t.Errorf("records %v, header %v; want %v, [a b c]", got, rd.Header(), want)
	}
}

func TestRepairUTF8(t *testing.T) {
	for _, c := range []struct {
		name, file, in string
		want           []string // the second field of each record
		repaired       []bool
	}{
		{"csv", "t.csv", "id,q\xff\n1,a\xffb\n2,ok\n", []string{"a\uFFFDb", "ok"}, []bool{true, false}},
		{"jsonl", "t.jsonl", "{\"id\": 1, \"q\": \"a\xff\xfeb\"}\n{\"id\": 2, \"q\": \"ok\"}\n", []string{"a\uFFFDb", "ok"}, []bool{true, false}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rd, err := NewReader(strings.NewReader(c.in), c.file, Options{RepairUTF8: true})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			var rep []bool
			for rd.Scan() {
				got = append(got, rd.Record().Fields[1])
				rep = append(rep, rd.Record().Repaired)
			}
			if err := rd.Err(); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.want) || !slices.Equal(rep, c.repaired) || !utf8.ValidString(strings.Join(rd.Header(), "")) {
				t.Errorf("fields %q repaired %v header %q, want %q %v", got, rep, rd.Header(), c.want, c.repaired)
			}
		})
	}
}

func TestLines(t *testing.T) {
	in := "\ufeff{\"k\": \"v\"}\r\n\n  \n{\"কী\": \"মান\", \"x\": 1}\n{\"a\": \"\xff\"}\n"
	ln := NewLines(strings.NewReader(in), "t.jsonl", 0)
	var lines []int
	var texts []string
	for ln.Scan() {
		lines = append(lines, ln.Line())
		texts = append(texts, string(ln.Bytes()))
		if ln.Line() == 4 {
			// { " ক ী " : space " ম া ন " , space (1-14), "x" at 15 (byte
			// column 25).
			if c := ln.KeyColumn("x"); c != 15 {
				t.Errorf("KeyColumn(x) = %d, want 15", c)
			}
			if c := ln.KeyColumn("nope"); c != 0 {
				t.Errorf("KeyColumn(nope) = %d, want 0", c)
			}
			if pe := ln.Errorf(len(ln.Bytes())-2, "late"); pe.Line != 4 || pe.Column != 20 {
				t.Errorf("Errorf at the 1: %+v, want 4:20", pe)
			}
		}
	}
	var pe *ParseError
	if err := ln.Err(); !errors.As(err, &pe) || pe.Line != 5 || pe.Column != 8 || pe.Field != "a" || !errors.Is(err, ErrInvalidUTF8) {
		// { " a " : space " (1-7), the bad byte 8.
		t.Errorf("error %v, want line 5 column 8 key a", err)
	}
	if !slices.Equal(lines, []int{1, 4}) || texts[0] != `{"k": "v"}` {
		t.Errorf("lines %v texts %q", lines, texts)
	}
}

func TestFormatOf(t *testing.T) {
	for name, want := range map[string]string{"a.csv": "csv", "a.TXT": "csv", "a": "csv", "a.tsv": "csv", "a.jsonl": "jsonl", "a.NDJSON": "jsonl", "a.xlsx": "xlsx"} {
		if got := FormatOf(name); got != want {
			t.Errorf("FormatOf(%q) = %q, want %q", name, got, want)
		}
	}
}
