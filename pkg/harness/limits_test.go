package harness

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/evalbook/evalbook/internal/limitstest"
	"github.com/evalbook/evalbook/pkg/design"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// A dataset or results file larger than tabular.MaxFile (--max-file-mib)
// is refused before it is decoded; one of exactly the limit reads.
func TestReadFileLimit(t *testing.T) {
	ds, err := os.ReadFile("../../datasets/helpdesk/seed004_dataset.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := os.ReadFile("../../datasets/helpdesk/seed004_results.json")
	if err != nil {
		t.Fatal(err)
	}
	limitstest.Set(t, 0, int64(len(ds)))
	if _, err := ReadDataset(strings.NewReader(string(ds)), "d.json"); err != nil {
		t.Fatalf("a dataset of exactly the limit: %v", err)
	}
	tabular.MaxFile = int64(len(ds) - 1)
	_, err = ReadDataset(strings.NewReader(string(ds)), "d.json")
	limitstest.Refused(t, "ReadDataset", err, tabular.ErrFileTooLarge, "d.json", tabular.Size(len(ds)-1), "--max-file-mib")

	tabular.MaxFile = int64(len(res))
	if _, err := ReadResults(strings.NewReader(string(res)), "r.json"); err != nil {
		t.Fatalf("results of exactly the limit: %v", err)
	}
	tabular.MaxFile = int64(len(res) - 1)
	_, err = ReadResults(strings.NewReader(string(res)), "r.json")
	limitstest.Refused(t, "ReadResults", err, tabular.ErrFileTooLarge, "r.json", tabular.Size(len(res)-1), "--max-file-mib")
}

// A JSONL line longer than tabular.Limit (--max-field-mib) is an error
// at its line, in a seed 004 dataset, in results, and in case records
// given to SummarizeFiles (whose first-line sniff must not hide it).
func TestReadLineLimit(t *testing.T) {
	limitstest.Set(t, 512, 0)
	long := strings.Repeat("f", 1000)
	ds := `{"id":"E1","slice":"s","expected":"abstain","fact":null}` + "\n" +
		`{"id":"E2","slice":"s","expected":"answer","fact":"` + long + `"}` + "\n"
	_, err := ReadDataset(strings.NewReader(ds), "d.jsonl")
	limitstest.Refused(t, "ReadDataset", err, tabular.ErrTooLong, "d.jsonl:2", "512 bytes", "--max-field-mib")

	res := `{"id":"E1","kind":"abstain"}` + "\n" + `{"id":"E2","kind":"answer","fact":"` + long + `"}` + "\n"
	_, err = ReadResults(strings.NewReader(res), "r.jsonl")
	limitstest.Refused(t, "ReadResults", err, tabular.ErrTooLong, "r.jsonl:2", "512 bytes", "--max-field-mib")

	rec := `{"id":"c1","question":"` + long + `?","task":"lookup","set":"golden","lang":"en","expect":"answer","doc_ids":["d"],"facts":["x"],"why":"w"}` + "\n"
	_, err = SummarizeFiles(design.File{Name: "cases.jsonl", Data: []byte(rec)}, design.File{Name: "r.jsonl", Data: []byte(`{"id":"c1","kind":"abstain"}` + "\n")}, "task")
	limitstest.Refused(t, "SummarizeFiles", err, tabular.ErrTooLong, "cases.jsonl:1", "512 bytes", "--max-field-mib")
	// Past a first line that is a case record, design.ReadCases reports it.
	first := strings.Replace(strings.Replace(rec, long, "q", 1), `"c1"`, `"c0"`, 1)
	_, err = SummarizeFiles(design.File{Name: "cases.jsonl", Data: []byte(first + rec)}, design.File{Name: "r.jsonl", Data: []byte(`{"id":"c1","kind":"abstain"}` + "\n")}, "task")
	limitstest.Refused(t, "SummarizeFiles, line 2", err, tabular.ErrTooLong, "cases.jsonl:2", "512 bytes", "--max-field-mib")
}

// A corpus document larger than tabular.MaxFile (--max-file-mib) is
// refused, naming it; at the limit it reads.
func TestReadCorpusFileLimit(t *testing.T) {
	a := "# Returns\n\nYou may return an item within 30 days.\n"
	b := a + strings.Repeat("More text. ", 100) + "\n"
	fsys := fstest.MapFS{"a.md": {Data: []byte(a)}, "b.md": {Data: []byte(b)}}
	limitstest.Set(t, 0, int64(len(b)))
	if _, err := ReadCorpus(fsys); err != nil {
		t.Fatalf("documents of up to the limit: %v", err)
	}
	tabular.MaxFile = int64(len(b) - 1)
	_, err := ReadCorpus(fsys)
	limitstest.Refused(t, "ReadCorpus", err, tabular.ErrFileTooLarge, "b.md", tabular.Size(len(b)-1), "--max-file-mib")
}
