package mc

import (
	"errors"
	"strings"
	"testing"
)

// TestReadInvalidUTF8Column: a CSV field's bad byte is placed at its own
// character column, as an editor (and score) shows it, not at the byte
// column where its field starts. Every column is counted by hand, one
// character at a time; "भारत की" is 7 characters (भ ा र त, a space, क ी)
// in 19 bytes.
func TestReadInvalidUTF8Column(t *testing.T) {
	const hdr = "id,subject,prediction,gold\n"
	tests := []struct {
		name, in, want string
	}{
		// 2 (1) , (2) भारत की (3-9) , (10), the bad byte 11; the field
		// starts at byte 23, the column this used to report.
		{"Indic text before the field", hdr + "2,भारत की,\xffA,A\n",
			`x.csv:2:11 (column "prediction"): invalid UTF-8: first bad byte 0xFF at character 1 of the field`},
		// q1 (1-2) , (3) A (4) the bad byte 5.
		{"ASCII", "id,prediction,gold\nq1,A\xff,A\n",
			`x.csv:2:5 (column "prediction"): invalid UTF-8: first bad byte 0xFF at character 2 of the field`},
		// 1 (1) , (2) " (3) भारत (4-7) , (8) space (9) क (10) ी (11) the
		// bad byte 12; in the value "भारत, की\xff" it is the 9th character.
		{"quoted field", hdr + "1,\"भारत, की\xff\",A,A\n",
			`x.csv:2:12 (column "subject"): invalid UTF-8: first bad byte 0xFF at character 9 of the field`},
		// 1 (1) , (2) " (3) a (4) space (5) "" (6-7) b (8) "" (9-10)
		// space (11) the bad byte 12; the value is `a "b" \xff`, 7th.
		{"doubled quotes before the bad byte", hdr + "1,\"a \"\"b\"\" \xff\",A,A\n",
			`x.csv:2:12 (column "subject"): invalid UTF-8: first bad byte 0xFF at character 7 of the field`},
		// After the byte-order mark, which editors do not show as a
		// character: id (1-2) , (3) pred (4-7) the bad byte 8.
		{"header after a byte-order mark", "\xef\xbb\xbfid,pred\xffiction,gold\n1,A,A\n",
			`x.csv:1:8: header: invalid UTF-8: first bad byte 0xFF at character 5 of the field`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in), "x.csv", Columns{})
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, ErrInvalidUTF8) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error %v\nwant a ParseError starting %s", err, tc.want)
			}
		})
	}
}
