package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRawUTF8CSVColumn: the CSV UTF-8 errors of judge give the line and the character column of the bad byte itself,
// as an editor shows them (and as score's errors do), not the byte
// column where its field starts. Every column is counted by hand, one
// character at a time, as the comments show; "भारत की" is 7 characters
// (भ ा र त, a space, क ी) in 19 bytes.
func TestRawUTF8CSVColumn(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		// 2 (1) , (2) भारत की (3-9) , (10), the bad byte 11. Its field
		// starts at byte 23, the column this used to report.
		{"Indic text before the field", "id,text,score\n2,भारत की,\xff1\n",
			`f.csv:2:11 (column "score"): invalid UTF-8: first bad byte 0xFF at character 1 of the field`},
		// ab (1-2) , (3) c (4) the bad byte 5.
		{"ASCII", "id,q\nab,c\xffd\n",
			`f.csv:2:5 (column "q"): invalid UTF-8: first bad byte 0xFF at character 2 of the field`},
		// 1 (1) , (2) " (3) भ (4) ा (5) the bad byte 6; the field starts
		// at byte 3, its quote.
		{"quoted field", "id,q\n1,\"भा\xff\"\n",
			`f.csv:2:6 (column "q"): invalid UTF-8: first bad byte 0xFF at character 3 of the field`},
		// 1 (1) , (2) " (3) say (4-6) space (7) "" (8-9) hi (10-11)
		// "" (12-13) space (14) the bad byte 15: each escaped quote is two
		// characters of the line and one of the value ("say "hi" ").
		{"doubled quotes before the bad byte", "id,q\n1,\"say \"\"hi\"\" \xff\"\n",
			`f.csv:2:15 (column "q"): invalid UTF-8: first bad byte 0xFF at character 10 of the field`},
		// The field starts on line 2; on line 3 ক (1) is before the bad
		// byte (2). This used to give the line only. In the value
		// "one\nক\xff" the bad byte is the 6th character (the line break
		// counts as one).
		{"second line of a quoted field", "id,q\n1,\"one\nক\xff\"\n",
			`f.csv:3:2 (column "q"): invalid UTF-8: first bad byte 0xFF at character 6 of the field`},
		// The same with CRLF line ends: the value holds "one\nক\xff"
		// (the reader drops the CR), and line 3 of the file starts after
		// the LF.
		{"CRLF in a quoted field", "id,q\r\n1,\"one\r\nক\xff\"\r\n",
			`f.csv:3:2 (column "q"): invalid UTF-8: first bad byte 0xFF at character 6 of the field`},
		// The byte-order mark is not a character an editor shows:
		// id (1-2) , (3) ক (4) the bad byte 5.
		{"header after a byte-order mark", "\xef\xbb\xbfid,ক\xffx\n1,2\n",
			`f.csv:1:5 (header): invalid UTF-8: first bad byte 0xFF at character 2 of the field`},
		// A bad byte in an earlier record is found first: a (1) , (2)
		// the bad byte 3 on line 2.
		{"first of two", "id,q\na,\xfe\nb,\xff\n",
			`f.csv:2:3 (column "q"): invalid UTF-8: first bad byte 0xFE at character 1 of the field`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := rawUTF8CSV([]byte(tc.data), "f.csv")
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("rawUTF8CSV = %v\nwant %s...", err, tc.want)
			}
		})
	}
}

// TestCompareGenerateUTF8Column runs the commands on the reviewer's
// line: 2 (1) , (2) भारत की (3-9) , (10), the bad byte at column 11; and
// on a quoted question: 1 (1) , (2) " (3) भारत (4-7) the bad byte 8.
func TestCompareGenerateUTF8Column(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.csv", "id,text,pass\n1,a,1\n2,b,0\n")
	bad := write("bad.csv", "id,text,pass\n1,a,1\n2,भारत की,\xff1\n")
	questions := write("q.csv", "id,question\n1,\"भारत\xff\"\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"compare", []string{"compare", "--old", good, "--new", bad, "--metric", "pass"},
			bad + `:3:11 (column "pass"): invalid UTF-8: first bad byte 0xFF at character 1 of the field`},
		{"generate quoted", []string{"generate", "--dataset", questions, "--endpoint", "http://127.0.0.1:1/v1", "--model", "m",
			"--out", filepath.Join(dir, "out.csv"), "--cache", "none"},
			questions + `:2:8 (column "question"): invalid UTF-8: first bad byte 0xFF at character 5 of the field`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := runCLI(t, tc.args...)
			if code != 1 || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stderr %q\nwant 1 and %q", code, errOut, tc.want)
			}
		})
	}
}
