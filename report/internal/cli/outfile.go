package cli

import (
	"io"
	"io/fs"

	"github.com/evalbook/evalbook/internal/outfile"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// The command writes every output file through internal/outfile.

// CreateAtomic opens path for writing through a temporary file beside it
// (outfile.Create): commit puts it in place, abort removes it.
func CreateAtomic(path string) (w io.Writer, commit func() error, abort func(), err error) {
	return outfile.Create(path)
}

// WriteAtomic writes path through write, atomically (outfile.Write).
func WriteAtomic(path string, write func(io.Writer) error) error { return outfile.Write(path, write) }

// RefuseDir is an error when path names a directory (outfile.RefuseDir).
func RefuseDir(path string) error { return outfile.RefuseDir(path) }

// An output path is checked against the command's inputs by the output
// guard (guard.go) when the flags are parsed.

// ReadOrSample reads the file at path, or with no path the embedded sample
// file name of fsys, and returns its bytes with the name errors and
// reports use ("datasets/<name>" for a sample).
func ReadOrSample(path string, fsys fs.FS, name string) ([]byte, string, error) {
	if path == "" {
		b, err := fs.ReadFile(fsys, name)
		return b, "datasets/" + name, err
	}
	b, err := tabular.ReadFile(path, 0) // bounded by --max-file-mib
	return b, path, err
}
