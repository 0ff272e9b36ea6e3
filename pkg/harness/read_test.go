package harness

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/evalbook/evalbook/pkg/design"
)

// Inputs the readers used to accept although they are broken or empty.
// Columns are 1-based characters: python3 len(prefix) + 1, where prefix is
// the line up to the bad byte.
func TestReadDatasetRejects(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
		sentinel       error
	}{
		{"empty file", "", "d.json: no cases (the file is empty)", ErrEmpty},
		{"blank lines", "\n \n", "d.json: no cases (the file has only blank lines)", ErrEmpty},
		{"empty array", " [ ] ", "d.json: no cases (the JSON array is empty)", ErrEmpty},
		{"invalid UTF-8 in slice", "{\"id\":\"E1\",\"slice\":\"\xffx\",\"expected\":\"abstain\"}", "d.json:1:21 (column \"slice\"): invalid UTF-8: byte 0xFF", design.ErrInvalidUTF8},
		{"invalid UTF-8 in a fact on line 3", "[\n{\"id\":\"E1\",\"slice\":\"s\",\"expected\":\"abstain\",\"fact\":null},\n{\"id\":\"E2\",\"slice\":\"s\",\"expected\":\"answer\",\"fact\":\"f\xfe\"}\n]",
			"d.json:3:53 (column \"fact\"): invalid UTF-8: byte 0xFE", design.ErrInvalidUTF8},
		{"lone surrogate escape", `{"id":"E1","slice":"s","expected":"answer","fact":"\udfff"}`, `d.json:1:52 (column "fact"): invalid UTF-8: the escape \udfff`, design.ErrInvalidUTF8},
		{"missing slice", `{"id":"E1","expected":"abstain","fact":null}`, `d.json:1 (column "slice"): case "E1" needs a non-empty slice name`, nil},
		{"blank slice", `{"id":"E1","slice":" ","expected":"abstain","fact":null}`, `d.json:1 (column "slice"): case "E1" needs a non-empty slice name`, nil},
		{"abstain case with a fact", "[\n{\"id\":\"E1\",\"slice\":\"s\",\"expected\":\"abstain\",\"fact\":\"f\"}\n]", `d.json:2 (column "fact"): case "E1" expects abstain, so its fact must be null, got "f"`, nil},
		{"answer case with an empty fact", `{"id":"E1","slice":"s","expected":"answer","fact":""}`, `d.json:1 (column "fact"): case "E1": an answer case needs a non-empty fact`, nil},
		{"duplicate id", "{\"id\":\"E1\",\"slice\":\"s\",\"expected\":\"abstain\"}\n\n{\"id\":\"E1\",\"slice\":\"t\",\"expected\":\"abstain\"}",
			`d.json:3 (column "id"): Duplicate case ID: "E1" (first on line 1)`, ErrDuplicateCase},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadDataset(strings.NewReader(tc.in), "d.json")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
				t.Errorf("error %v does not wrap %v", err, tc.sentinel)
			}
		})
	}
}

func TestReadResultsRejects(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty file", "", "r.json: no results (the file is empty)"},
		{"blank lines", "\r\n\r\n", "r.json: no results (the file has only blank lines)"},
		// Columns as in TestReadDatasetRejects.
		{"invalid UTF-8 in the object form", "{\"E1\": {\"kind\": \"answer\", \"fact\": \"\xff\"}}", "r.json:1:36 (column \"fact\"): invalid UTF-8: byte 0xFF"},
		{"invalid UTF-8 in JSONL", "{\"id\":\"E1\",\"kind\":\"abstain\"}\n{\"id\":\"E2\",\"kind\":\"answer\",\"fact\":\"a\xc0\"}", "r.json:2:37 (column \"fact\"): invalid UTF-8: byte 0xC0"},
		{"invalid UTF-8 in an id", "{\"id\":\"E\xff\",\"kind\":\"abstain\"}", "r.json:1:9 (column \"id\"): invalid UTF-8"},
		{"twice in object, with lines", "{\n\"E1\": {\"kind\": \"abstain\"},\n\"E1\": {\"kind\": \"error\"}}", `r.json:3: result for case "E1" recorded twice (first on line 2)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadResults(strings.NewReader(tc.in), "r.json")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	// "{}" says on purpose that nothing was recorded: every case is missing.
	res, lines, err := ReadResultsLines(strings.NewReader("{}"), "r.json")
	if err != nil || len(res) != 0 || len(lines) != 0 {
		t.Errorf("{}: %v, %v, %v", res, lines, err)
	}
}

func TestReadResultsLines(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"object", "{\n  \"E1\": {\"kind\": \"abstain\"},\n\n  \"E2\": {\"kind\": \"answer\", \"fact\": \"f\"}\n}"},
		{"JSONL", "\n{\"id\":\"E1\",\"kind\":\"abstain\"}\n\n{\"id\":\"E2\",\"kind\":\"answer\",\"fact\":\"f\"}\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, lines, err := ReadResultsLines(strings.NewReader(tc.in), "r")
			if want := map[string]int{"E1": 2, "E2": 4}; err != nil || !reflect.DeepEqual(lines, want) {
				t.Errorf("lines %v, %v; want %v", lines, err, want)
			}
		})
	}
}

func TestReadCSVRejects(t *testing.T) {
	const head = "id,task,set,lang,expect,outcome,fact,pass\n"
	for _, tc := range []struct {
		name, in, want string
		sentinel       error
	}{
		{"empty file", "", "r.csv: no rows (the file is empty; a run file starts with the header id,task,set,lang,expect,outcome,fact,pass)", ErrEmpty},
		{"header only", head, "r.csv: no rows after the header", ErrEmpty},
		{"header only with BOM and CRLF", "\ufeff" + strings.ReplaceAll(head, "\n", "\r\n"), "r.csv: no rows after the header", ErrEmpty},
		// The fact field starts at column len("a,t,s,en,answer,answer,") + 1 = 24,
		// so its bad byte, after "x", is at 25 (this named the field's start
		// before the readers shared tabular).
		{"invalid UTF-8 in fact", head + "a,t,s,en,answer,answer,x\xffy,1\n", `r.csv:2:25 (column "fact"): invalid UTF-8: first bad byte 0xFF at character 2 of the field`, design.ErrInvalidUTF8},
		// On line 3 `y` then the bad byte: column 2 (it was 24, the field's
		// start on line 2, with the line of the bad byte).
		{"invalid UTF-8 on the second line of a quoted field", head + "a,t,s,en,answer,answer,\"x\ny\xfe\",1\n", `r.csv:3:2 (column "fact"): invalid UTF-8: first bad byte 0xFE at character 4 of the field`, design.ErrInvalidUTF8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(tc.in), "r.csv")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if !errors.Is(err, tc.sentinel) {
				t.Errorf("error %v does not wrap %v", err, tc.sentinel)
			}
		})
	}
}

func TestMemberAt(t *testing.T) {
	in := `[{"id":"a","facts":["x","yz"],"o":{"k":"v"}},"w"]`
	for _, tc := range []struct {
		at   string // the first occurrence of this text marks the offset
		want string
	}{
		{`"a"`, "id"}, {`"yz"`, "facts"}, {`"v"`, "k"}, {`"w"`, ""}, {`"facts"`, "facts"},
	} {
		t.Run(tc.at, func(t *testing.T) {
			if got := memberAt([]byte(in), strings.Index(in, tc.at)+1); got != tc.want {
				t.Errorf("memberAt = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestReadCorpusRejects(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files fstest.MapFS
		want  string
	}{
		{"no document", fstest.MapFS{"notes.txt": {Data: []byte("x")}}, "no *.md document at the top of the directory"},
		// Line 3, "a b" then the bad byte: column 4.
		{"invalid UTF-8", fstest.MapFS{"a.md": {Data: []byte("# T\n\na b\xffc\n")}}, "a.md:3:4: invalid UTF-8: byte 0xFF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCorpus(tc.files)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// A missing directory is not an empty corpus: fs.Glob hides the error, so
// ReadCorpus used to say "no *.md document".
func TestReadCorpusDirectory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.md")
	if err := os.WriteFile(file, []byte("# T\n\ntext\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, dir, want string
		notExist        bool
	}{
		{"missing", filepath.Join(dir, "nonexist"), "no such directory", true},
		{"a file", file, "not a directory", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadCorpus(os.DirFS(tc.dir))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if errors.Is(err, fs.ErrNotExist) != tc.notExist {
				t.Errorf("errors.Is(%v, fs.ErrNotExist) = %v, want %v", err, !tc.notExist, tc.notExist)
			}
		})
	}
	docs, err := ReadCorpus(os.DirFS(dir))
	if err != nil || len(docs) != 1 || docs[0].ID != "a" {
		t.Errorf("ReadCorpus(%s) = %+v, %v; want the one document a", dir, docs, err)
	}
}
