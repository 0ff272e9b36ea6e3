package tasks

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// setLimits sets tabular's record and file limits for one test.
func setLimits(t *testing.T, record int, file int64) {
	t.Helper()
	oldRec, oldFile := tabular.Limit, tabular.MaxFile
	t.Cleanup(func() { tabular.Limit, tabular.MaxFile = oldRec, oldFile })
	tabular.Limit.MaxRecord, tabular.MaxFile = record, file
}

// refused checks that err is a *tabular.ParseError wrapping sentinel
// whose text names each of want.
func refused(t *testing.T, what string, err, sentinel error, want ...string) {
	t.Helper()
	var pe *tabular.ParseError
	if !errors.Is(err, sentinel) || !errors.As(err, &pe) {
		t.Errorf("%s: %v; want a *tabular.ParseError wrapping %v", what, err, sentinel)
		return
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: %v; want it to name %q", what, err, w)
		}
	}
}

// A details line longer than tabular.Limit (--max-field-mib) is an error
// at its line naming the limit and the flag.
func TestReadDetailsLineLimit(t *testing.T) {
	setLimits(t, 1024, 0)
	header := `{"format":"` + DetailsFormat + `","shard":0,"shards":1}` + "\n"
	long := `{"task":"` + strings.Repeat("t", 2000) + `"}` + "\n"
	_, err := ReadDetails(strings.NewReader(header+long), "details.jsonl")
	refused(t, "ReadDetails", err, tabular.ErrTooLong, "details.jsonl:2", "1024 bytes", "--max-field-mib")
}

// Task files, a task's data and a price file are read whole, so each is
// bounded by tabular.MaxFile (--max-file-mib): one byte over is an error
// naming the file, the limit and the flag; exactly at it reads.
func TestTaskFilesFileLimit(t *testing.T) {
	fsys := fstest.MapFS{"t/toy/task.json": {Data: []byte(toyTask)}, "t/toy/en.jsonl": {Data: []byte(toyData)}}
	if len(toyData) <= len(toyTask) {
		t.Fatal("the test wants the data file longer than the task file")
	}

	setLimits(t, 0, int64(len(toyTask)-1))
	_, err := LoadCatalog(fsys, "t")
	refused(t, "LoadCatalog", err, tabular.ErrFileTooLarge, "t/toy/task.json", tabular.Size(len(toyTask)-1), "--max-file-mib")

	tabular.MaxFile = int64(len(toyData))
	c, err := LoadCatalog(fsys, "t")
	if err != nil {
		t.Fatal(err)
	}
	tk, err := c.Resolve(mustSpecs(t, "toy|bigram:english|0|0")[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.LoadData(tk, "english"); err != nil {
		t.Errorf("data of exactly the limit: %v", err)
	}
	tabular.MaxFile = int64(len(toyData) - 1)
	_, err = c.LoadData(tk, "english")
	refused(t, "LoadData", err, tabular.ErrFileTooLarge, "t/toy/en.jsonl", tabular.Size(len(toyData)-1), "--max-file-mib")

	prices := `{"date": "2026-12-01", "currency": "USD", "models": {"bigram": {"prompt_per_million": 2, "completion_per_million": 8}}}` + strings.Repeat(" ", 3000) + "\n"
	p := filepath.Join(t.TempDir(), "prices.json")
	if err := os.WriteFile(p, []byte(prices), 0o644); err != nil {
		t.Fatal(err)
	}
	tabular.MaxFile = int64(len(prices))
	if _, err := ReadPricesFile(p); err != nil {
		t.Errorf("prices of exactly the limit: %v", err)
	}
	tabular.MaxFile = 2048
	_, err = ReadPricesFile(p)
	refused(t, "ReadPricesFile", err, tabular.ErrFileTooLarge, p, "2048 bytes", "--max-file-mib")
}
