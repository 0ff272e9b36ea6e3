package tabular

import (
	"errors"
	"strings"
	"testing"
)

// TestNULIsAnError (issue 17, finding 7): a NUL byte in any field is an
// error naming the line, the character column of the NUL and the field,
// in CSV (raw, quoted or not, after a quoted line break) and in JSONL
// (written \u0000), never kept or dropped.
func TestNULIsAnError(t *testing.T) {
	for _, c := range []struct {
		name, in, format string
		line, col        int
		field            string
	}{
		// "id,text" then row 2: a,bc<NUL>d: the NUL is character 3 of text, column 5 of the line.
		{"csv plain", "id,text\na,bc\x00d\n", "csv", 2, 5, "text"},
		// a,"b<NUL>": the quote is column 3, b column 4, the NUL column 5.
		{"csv quoted", "id,text\na,\"b\x00\"\n", "csv", 2, 5, "text"},
		// a,"x\ny<NUL>": the NUL is on line 3, column 2.
		{"csv after a line break", "id,text\na,\"x\ny\x00\"\n", "csv", 3, 2, "text"},
		{"csv in the id", "id,text\n\x00,b\n", "csv", 2, 1, "id"},
		// {"id": "a", "text": "b\u0000"}: the value starts at column 21.
		{"jsonl escaped", `{"id": "a", "text": "b\u0000"}` + "\n", "jsonl", 1, 21, "text"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Open(strings.NewReader(c.in), "t."+c.format, "")
			if err != nil {
				t.Fatal(err)
			}
			for r.Scan() {
			}
			var pe *ParseError
			if !errors.As(r.Err(), &pe) || !errors.Is(r.Err(), ErrNUL) {
				t.Fatalf("err = %v, want a ParseError for the NUL", r.Err())
			}
			if pe.Line != c.line || pe.Column != c.col || pe.Field != c.field {
				t.Errorf("at line %d column %d field %q, want %d, %d, %q (%v)", pe.Line, pe.Column, pe.Field, c.line, c.col, c.field, pe)
			}
		})
	}
}
