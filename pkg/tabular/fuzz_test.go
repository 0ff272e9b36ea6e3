package tabular

import (
	"bytes"
	"errors"
	"testing"
	"unicode/utf8"
)

// FuzzReader: no input makes the reader panic, in either format and with
// any options; every error is a *ParseError naming the file with a line
// and column that are not negative; every record has one field per
// header name (Sparse: per name known so far), a line that does not go
// backwards, fields that are UTF-8 unless the record says it was
// repaired... and a repair leaves valid UTF-8 only.
func FuzzReader(f *testing.F) {
	f.Add([]byte("id,q\n1,भारत\n2,\"a\nb\"\n"), false, false, false)
	f.Add([]byte("\xef\xbb\xbfid,q\r\n1,\"x\"\"y\"\r\n"), false, false, false)
	f.Add([]byte("id,q\n1,ক\xff\n"), false, false, true)
	f.Add([]byte("id,q\n1,\"ab\n"), false, false, false)
	f.Add([]byte("a,b\n1\n"), false, false, false)
	f.Add([]byte("{\"q\": \"হিন্দি\", \"n\": 1.5, \"o\": {\"a\": [1]}}\n{\"n\": null, \"q\": \"x\", \"o\": []}\n"), true, false, false)
	f.Add([]byte("{\"q\": \"\xff\"}\n{\"z\": 1}\n"), true, true, true)
	f.Add([]byte("{\"q\": 1} x\n[1]\n"), true, false, false)
	f.Add([]byte("\n\n"), true, false, false)
	f.Fuzz(func(t *testing.T, data []byte, jsonl, sparse, repair bool) {
		name, format := "fuzz.csv", "csv"
		if jsonl {
			name, format = "fuzz.jsonl", "jsonl"
		}
		check := func(err error) {
			t.Helper()
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != name || pe.Line < 0 || pe.Column < 0 {
				t.Fatalf("error %v (%T) is not a placed *ParseError", err, err)
			}
			_ = pe.Error()
		}
		rd, err := NewReader(bytes.NewReader(data), name, Options{Format: format, Sparse: sparse, RepairUTF8: repair, MaxRecord: 1 << 12})
		if err != nil {
			check(err)
			return
		}
		for _, h := range rd.Header() {
			if !utf8.ValidString(h) {
				t.Fatalf("header %q is not UTF-8", h)
			}
		}
		last := 0
		for rd.Scan() {
			rec := rd.Record()
			if len(rec.Fields) != len(rd.Header()) || (rec.Kinds != nil && len(rec.Kinds) != len(rec.Fields)) {
				t.Fatalf("record %q (kinds %v) for header %q", rec.Fields, rec.Kinds, rd.Header())
			}
			if rec.Line <= last {
				t.Fatalf("record on line %d after line %d", rec.Line, last)
			}
			last = rec.Line
			for i, f := range rec.Fields {
				if !utf8.ValidString(f) {
					t.Fatalf("field %d %q is not UTF-8 (repaired %v)", i, f, rec.Repaired)
				}
				if l, c := rd.FieldPos(i); l < rec.Line || c < 0 {
					t.Fatalf("field %d at %d:%d, record on line %d", i, l, c, rec.Line)
				}
			}
		}
		if err := rd.Err(); err != nil {
			check(err)
		}
	})
}
