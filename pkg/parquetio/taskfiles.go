package parquetio

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/evalbook/evalbook/internal/outfile"
	"github.com/evalbook/evalbook/pkg/tasks"
)

// IsParquetPath reports whether path names a Parquet file (by its
// extension, .parquet in any case).
func IsParquetPath(path string) bool { return strings.EqualFold(filepath.Ext(path), ".parquet") }

// WriteTaskDetailsFile writes a task run's details to path, atomically:
// Parquet when the name ends in .parquet (WriteTaskDetails), else JSONL
// (tasks.WriteDetails).
func WriteTaskDetailsFile(path string, d *tasks.Details) error {
	return outfile.Write(path, func(w io.Writer) error {
		if IsParquetPath(path) {
			return WriteTaskDetails(w, d, WriteOptions{})
		}
		return tasks.WriteDetails(w, d)
	})
}

// ReadTaskDetailsFile reads the details file at path, Parquet or JSONL
// as WriteTaskDetailsFile chooses.
func ReadTaskDetailsFile(path string) (*tasks.Details, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if IsParquetPath(path) {
		return ReadTaskDetails(f, path, ReadOptions{})
	}
	return tasks.ReadDetails(f, path)
}
