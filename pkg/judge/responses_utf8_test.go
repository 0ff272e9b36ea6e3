package judge_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/judge"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// TestReadResponsesInvalidUTF8: a response table with a bad byte is
// refused by ReadResponses itself, with a *tabular.ParseError giving the
// line and the character column of the bad byte, as an editor shows them
// (not the byte column, nor where its field starts), and the column it is
// in; the only advice is to re-save the file (no flag: the judge command
// has no --repair-utf8). These are the cases evalbook judge used to check
// with its own raw reader. Every column is counted by hand, one character
// at a time, as the comments show; "भारत की" is 7 characters (भ ा र त, a
// space, क ी) in 19 bytes.
func TestReadResponsesInvalidUTF8(t *testing.T) {
	const h = "id,question,answer,Domain,response\n"
	tests := []struct {
		name, file, data string
		line, col        int
		field, want      string
		limit            int
	}{
		// 2 (1) , (2) भारत की (3-9) , (10), the bad byte 11. Its field
		// starts at byte 23.
		{"Indic text before the field", "f.csv", h + "2,भारत की,\xff1,D,r\n", 2, 11, "answer",
			`f.csv:2:11 (column "answer"): invalid UTF-8: first bad byte 0xFF at character 1 of the field; re-save the file as UTF-8`, 0},
		// ab (1-2) , (3) c (4) the bad byte 5.
		{"ASCII", "f.csv", h + "ab,c\xffd,a,D,r\n", 2, 5, "question",
			`f.csv:2:5 (column "question"): invalid UTF-8: first bad byte 0xFF at character 2 of the field; re-save the file as UTF-8`, 0},
		// 1 (1) , (2) " (3) भ (4) ा (5) the bad byte 6; the field starts
		// at its quote, column 3.
		{"quoted field", "f.csv", h + "1,\"भा\xff\",a,D,r\n", 2, 6, "question",
			`f.csv:2:6 (column "question"): invalid UTF-8: first bad byte 0xFF at character 3 of the field; re-save the file as UTF-8`, 0},
		// 1 (1) , (2) " (3) say (4-6) space (7) "" (8-9) hi (10-11)
		// "" (12-13) space (14) the bad byte 15: each escaped quote is two
		// characters of the line and one of the value ("say "hi" ").
		{"doubled quotes before the bad byte", "f.csv", h + "1,\"say \"\"hi\"\" \xff\",a,D,r\n", 2, 15, "question",
			`f.csv:2:15 (column "question"): invalid UTF-8: first bad byte 0xFF at character 10 of the field; re-save the file as UTF-8`, 0},
		// The field starts on line 2; on line 3 ক (1) is before the bad
		// byte (2). In the value "one\nক\xff" the bad byte is the 6th
		// character (the line break counts as one).
		{"second line of a quoted field", "f.csv", h + "1,\"one\nক\xff\",a,D,r\n", 3, 2, "question",
			`f.csv:3:2 (column "question"): invalid UTF-8: first bad byte 0xFF at character 6 of the field; re-save the file as UTF-8`, 0},
		// The same with CRLF line ends: the value holds "one\nক\xff" (the
		// reader drops the CR), and line 3 starts after the LF.
		{"CRLF in a quoted field", "f.csv", strings.ReplaceAll(h, "\n", "\r\n") + "1,\"one\r\nক\xff\",a,D,r\r\n", 3, 2, "question",
			`f.csv:3:2 (column "question"): invalid UTF-8: first bad byte 0xFF at character 6 of the field; re-save the file as UTF-8`, 0},
		// The byte-order mark is not a character an editor shows:
		// id (1-2) , (3) ক (4) the bad byte 5. A header cell has no
		// column name to give, so the message says "header".
		{"header after a byte-order mark", "f.csv", "\xef\xbb\xbfid,ক\xffx,question,answer,Domain,response\n1,2,q,a,D,r\n", 1, 5, "",
			`f.csv:1:5: header: invalid UTF-8: first bad byte 0xFF at character 2 of the field; re-save the file as UTF-8`, 0},
		// A bad byte in an earlier record is found first: a (1) , (2)
		// the bad byte 3 on line 2.
		{"first of two", "f.csv", h + "a,\xfe,a,D,r\nb,\xff,a,D,r\n", 2, 3, "question",
			`f.csv:2:3 (column "question"): invalid UTF-8: first bad byte 0xFE at character 1 of the field; re-save the file as UTF-8`, 0},
		// Past the limit the file is still refused: the dataset hash
		// covers the whole file. a (1) , (2) q (3) , (4) a (5) , (6) D (7)
		// , (8) the bad byte 9 on line 3.
		{"past the limit", "f.csv", h + "1,q,a,D,r\na,q,a,D,\xffr\n", 3, 9, "response",
			`f.csv:3:9 (column "response"): invalid UTF-8: first bad byte 0xFF at character 1 of the field; re-save the file as UTF-8`, 1},
		// {"question": " (14) भारत (15-18) ", (19-21) "answer": "a", (22-36)
		// "Domain": "D", (37-51) "response": " (52-64) r (65), the bad
		// byte 66.
		{"JSONL after Indic text", "f.jsonl", "{\"question\": \"भारत\", \"answer\": \"a\", \"Domain\": \"D\", \"response\": \"r\xff\"}\n", 1, 66, "response",
			`f.jsonl:1:66 (column "response"): invalid UTF-8: first bad byte 0xFF; re-save the file as UTF-8`, 0},
		// {"question": " (14) q (15), the bad byte 16, on the second line.
		{"JSONL second line", "f.jsonl", "{\"question\": \"q\", \"answer\": \"a\", \"Domain\": \"D\", \"response\": \"r\"}\n{\"question\": \"q\xff\", \"answer\": \"a\", \"Domain\": \"D\", \"response\": \"r\"}\n", 2, 16, "question",
			`f.jsonl:2:16 (column "question"): invalid UTF-8: first bad byte 0xFF; re-save the file as UTF-8`, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tbl, err := judge.ReadResponses(context.Background(), []byte(tc.data), tc.file, judge.ResponseOptions{By: "Domain", Limit: tc.limit})
			if tbl != nil || err == nil || err.Error() != tc.want {
				t.Fatalf("ReadResponses = %v, %v\nwant %s", tbl, err, tc.want)
			}
			var pe *tabular.ParseError
			if !errors.As(err, &pe) || !errors.Is(err, tabular.ErrInvalidUTF8) {
				t.Fatalf("%v (%T) is not a *tabular.ParseError wrapping ErrInvalidUTF8", err, err)
			}
			if pe.File != tc.file || pe.Line != tc.line || pe.Column != tc.col || pe.Field != tc.field {
				t.Errorf("ParseError{%q, %d, %d, %q}, want {%q, %d, %d, %q}", pe.File, pe.Line, pe.Column, pe.Field, tc.file, tc.line, tc.col, tc.field)
			}
		})
	}
}
