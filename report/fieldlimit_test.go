package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --max-field-mib bounds every table reader: a 3 MiB field is refused
// under --max-field-mib 1 by score (qa's fast CSV path), compare and
// agree (pkg/tabular), each error naming the file, the line and the
// flag; under the default (64 MiB) the same files are read.
func TestMaxFieldMiB(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", 3<<20)
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	resp := write("resp.csv", "question,answer,Domain,response\nq1,a,geo,a\nq2,b,geo,\""+long+"\"\n")
	old := write("old.csv", "id,correct,note\na,1,x\nb,0,\""+long+"\"\n")
	newer := write("new.csv", "id,correct,note\na,1,x\nb,1,y\n")
	labels := write("labels.csv", "id,r1,r2,note\na,yes,yes,x\nb,no,yes,\""+long+"\"\nc,no,no,z\n")
	cases := [][]string{
		{"score", "--responses", resp},
		{"compare", "--old", old, "--new", newer, "--metric", "correct"},
		{"agree", "--labels", labels, "--raters", "r1,r2", "--id", "id"},
	}
	for _, args := range cases {
		_, errb, code := runCLI(t, append(args, "--max-field-mib", "1")...)
		if code != 1 || !strings.Contains(errb, "record too long") || !strings.Contains(errb, ":3") || !strings.Contains(errb, "--max-field-mib") {
			t.Errorf("%s --max-field-mib 1: exit %d, stderr %.300s", args[0], code, errb)
		}
		if _, errb, code := runCLI(t, args...); code != 0 {
			t.Errorf("%s with the default limit: exit %d, stderr %.300s", args[0], code, errb)
		}
	}
	if _, errb, code := runCLI(t, "score", "--max-field-mib", "0"); code != 2 || !strings.Contains(errb, "max-field-mib") {
		t.Errorf("--max-field-mib 0: exit %d, %s", code, errb)
	}
}
