package compare

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// Files pairs the two files in bounded memory (filesStream); these are
// the cases it must answer exactly as Read, which holds both tables: the
// same JSON, and for a file compare refuses the same error.
func TestFilesStreamIsRead(t *testing.T) {
	t.Chdir(t.TempDir()) // errors name the files as given: old.csv, new.csv
	good := []struct {
		name, old, new string
		opt            Options
	}{
		// the by-hand table of TestReadByHand: new in another order, groups
		{"six by group", sixOld, sixNew, Options{By: "group", Seed: 1}},
		{"six, metric picked", sixOld, sixNew, Options{Seed: 1}},
		// two key columns, spaces trimmed, a quoted key with a comma and a
		// line break, "1.0" and " 0 " as outcomes, a wide unused column
		{"two keys", "id,model,pass,response\n\"a,\nb\",m1,1,x\nq2, m1 ,0," + strings.Repeat("y", 5000) + "\nq2,m2,1.0,z\n",
			"model,id,pass\nm2,q2, 0 \nm1,q2,1\nm1,\"a,\nb\",1\n", Options{Key: []string{"id", "model"}, Metric: "pass", Seed: 3}},
		{"no flips", "id,pass\nx,1\ny,0\n", "id,pass\ny,0\nx,1\n", Options{Seed: 2}},
	}
	for _, tc := range good {
		t.Run(tc.name, func(t *testing.T) {
			write(t, tc.old, tc.new)
			want, err := Read(strings.NewReader(tc.old), "old.csv", strings.NewReader(tc.new), "new.csv", tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := filesStream("old.csv", "new.csv", tc.opt) // not the fallback
			if err != nil {
				t.Fatalf("filesStream: %v", err)
			}
			if g, w := js(t, got), js(t, want); g != w {
				t.Errorf("Files:\n%s\nRead:\n%s", g, w)
			}
		})
	}
	const ok = "id,task,pass\nq1,x,1\nq2,x,0\n"
	bad := []struct{ name, old, new string }{
		{"empty file", ok, ""},
		{"no rows", "id,pass\n", ok},
		{"empty key", ok, "id,task,pass\nq1,x,1\n,x,0\n"},
		{"duplicate in new", ok, "id,task,pass\nq1,x,1\nq1,y,0\n"},
		{"duplicate in old", "id,task,pass\nq1,x,1\nq1,y,0\n", ok},
		{"not 0/1", ok, "id,task,pass\nq1,x,1\nq2,x,0.5\n"},
		{"keys differ", ok, "id,task,pass\nq1,x,1\nq3,x,0\n"},
		{"a key only in new", ok, "id,task,pass\nq1,x,1\nq2,x,0\nq3,x,1\n"},
		{"a key only in old", "id,task,pass\nq1,x,1\nq2,x,0\nq3,x,1\n", ok},
		{"group changed", ok, "id,task,pass\nq1,x,1\nq2,y,0\n"},
		{"no metric", "id,task,score\nq1,x,0.5\n", "id,task,score\nq1,x,1\n"},
		{"CSV syntax", ok, "id,task,pass\nq1,x\n"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			write(t, tc.old, tc.new)
			opt := Options{By: "task"}
			_, want := Read(strings.NewReader(tc.old), "old.csv", strings.NewReader(tc.new), "new.csv", opt)
			_, got := Files("old.csv", "new.csv", opt)
			if want == nil || got == nil || got.Error() != want.Error() {
				t.Errorf("Files: %v\nRead:  %v", got, want)
			}
		})
	}
}

func write(t *testing.T, old, new string) {
	t.Helper()
	if err := os.WriteFile("old.csv", []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("new.csv", []byte(new), 0o644); err != nil {
		t.Fatal(err)
	}
}

func js(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
