package qa

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestJSONLRepairedSyntaxColumn: with RepairUTF8 a JSONL line that also
// has a JSON syntax error is parsed after its bad bytes became U+FFFD (3
// bytes each run), but its column must count the characters of the line
// as the file holds it, each bad byte as one (as the UTF-8 errors do).
// The columns are counted by hand:
//
//	{"question": "ক\xff", "response": "r\xfe" !}
//	{ 1, " 2, question 3-10, " 11, : 12, space 13, " 14, ক 15, \xff 16,
//	" 17, , 18, space 19, " 20, response 21-28, " 29, : 30, space 31,
//	" 32, r 33, \xfe 34, " 35, space 36, ! 37: column 37. (Measured in
//	the repaired bytes, where '!' is 4 bytes further on, and applied to
//	the raw line, it fell past the line's end and the column was lost.)
//
//	{"question": "\xff", "answer": 1 2, "response": "a longer tail"}:
//	{ 1, " 2, question 3-10, " 11, : 12, space 13, " 14, \xff 15, " 16,
//	, 17, space 18, " 19, answer 20-25, " 26, : 27, space 28, 1 29,
//	space 30, 2 31: column 31 (it was 33, 2 bytes of U+FFFD too many).
//
//	"  {"question": 1 2, "response": "\xff"}": two spaces 1-2, { 3, " 4,
//	question 5-12, " 13, : 14, space 15, 1 16, space 17, 2 18: column 18
//	(the error comes before the bad byte, so repair moves nothing).
//
//	{"question": "\xff\xfe\xfd", "response": "r" !}: the three bad bytes
//	are one run and one U+FFFD, 3 bytes either way: { 1, " 2, question
//	3-10, " 11, : 12, space 13, " 14, bad bytes 15-17, " 18, , 19,
//	space 20, " 21, response 22-29, " 30, : 31, space 32, " 33, r 34,
//	" 35, space 36, ! 37: column 37.
func TestJSONLRepairedSyntaxColumn(t *testing.T) {
	first := `{"question": "q", "answer": "a", "Domain": "D", "response": "a"}` + "\n"
	tests := []struct {
		name string
		line string
		col  int
	}{
		{"bad bytes before the error", `{"question": "ক` + "\xff" + `", "response": "r` + "\xfe" + `" !}`, 37},
		{"bad byte before the error, tail after it", `{"question": "` + "\xff" + `", "answer": 1 2, "response": "a longer tail"}`, 31},
		{"error before the bad byte", `  {"question": 1 2, "response": "` + "\xff" + `"}`, 18},
		{"one run of three bad bytes", `{"question": "` + "\xff\xfe\xfd" + `", "response": "r" !}`, 37},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Score(context.Background(), strings.NewReader(first+tc.line+"\n"), "t.jsonl", Options{RepairUTF8: true})
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			if pe.Line != 2 || pe.Column != tc.col {
				t.Errorf("error at %d:%d, want 2:%d (%v)", pe.Line, pe.Column, tc.col, err)
			}
		})
	}
}
