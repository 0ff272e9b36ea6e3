package tasks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/evalbook/evalbook/internal/limitstest"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// A details line longer than tabular.Limit (--max-field-mib) is an error
// at its line naming the limit and the flag.
func TestReadDetailsLineLimit(t *testing.T) {
	limitstest.Set(t, 1024, 0)
	header := `{"format":"` + DetailsFormat + `","shard":0,"shards":1}` + "\n"
	long := `{"task":"` + strings.Repeat("t", 2000) + `"}` + "\n"
	_, err := ReadDetails(strings.NewReader(header+long), "details.jsonl")
	limitstest.Refused(t, "ReadDetails", err, tabular.ErrTooLong, "details.jsonl:2", "1024 bytes", "--max-field-mib")
}

// Task files, a task's data and a price file are read whole, so each is
// bounded by tabular.MaxFile (--max-file-mib): one byte over is an error
// naming the file, the limit and the flag; exactly at it reads.
func TestTaskFilesFileLimit(t *testing.T) {
	fsys := fstest.MapFS{"t/toy/task.json": {Data: []byte(toyTask)}, "t/toy/en.jsonl": {Data: []byte(toyData)}}
	if len(toyData) <= len(toyTask) {
		t.Fatal("the test wants the data file longer than the task file")
	}

	limitstest.Set(t, 0, int64(len(toyTask)-1))
	_, err := LoadCatalog(fsys, "t")
	limitstest.Refused(t, "LoadCatalog", err, tabular.ErrFileTooLarge, "t/toy/task.json", tabular.Size(len(toyTask)-1), "--max-file-mib")

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
	limitstest.Refused(t, "LoadData", err, tabular.ErrFileTooLarge, "t/toy/en.jsonl", tabular.Size(len(toyData)-1), "--max-file-mib")

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
	limitstest.Refused(t, "ReadPricesFile", err, tabular.ErrFileTooLarge, p, "2048 bytes", "--max-file-mib")
}
