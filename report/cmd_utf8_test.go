package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
