package qa

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// TestNULIsAnError (issue 17, finding 7: score accepted a NUL in a
// response silently): a NUL byte anywhere in the table stops the run with
// the line, the character column of the NUL and the column name, on the
// fast CSV path, the slow one (--repair-utf8) and JSONL.
func TestNULIsAnError(t *testing.T) {
	const hdr = "question,answer,Domain,response\n"
	for _, c := range []struct {
		name, file, in string
		opt            Options
		line, col      int
		field          string
	}{
		// q,a,D,ab<NUL>: the NUL is the 3rd character of response, column 9 of line 2.
		{"fast csv", "t.csv", hdr + "q,a,D,a\nq,a,D,ab\x00\n", Options{}, 3, 9, "response"},
		// "q,a,D,""x<NUL>""": the NUL is column 10 (after the opening quote and x).
		{"fast csv quoted", "t.csv", hdr + "q,a,D,\"x\x00\"\n", Options{}, 2, 9, "response"},
		{"slow csv", "t.csv", hdr + "q\xff,a,D,a\nq,a\x00,D,a\n", Options{RepairUTF8: true}, 3, 4, "answer"},
		// {"question": "q", "answer": "a", "Domain": "D", "response": "\u0000"}: the value (its opening quote) is column 61: {"question": "q", is 18 characters, "answer": "a", 15, "Domain": "D", 15, "response": 12.
		{"jsonl", "t.jsonl", `{"question": "q", "answer": "a", "Domain": "D", "response": "\u0000"}` + "\n", Options{}, 1, 61, "response"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Score(context.Background(), strings.NewReader(c.in), c.file, c.opt)
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, tabular.ErrNUL) {
				t.Fatalf("err = %v, want a ParseError for the NUL", err)
			}
			if pe.Line != c.line || pe.Column != c.col || pe.Field != c.field {
				t.Errorf("at %d:%d %q, want %d:%d %q (%v)", pe.Line, pe.Column, pe.Field, c.line, c.col, c.field, err)
			}
		})
	}
}
