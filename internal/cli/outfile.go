package cli

import (
	"io/fs"

	"github.com/evalbook/evalbook/internal/outfile"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// The command writes every output file through internal/outfile.
var (
	CreateAtomic = outfile.Create
	WriteAtomic  = outfile.Write
	RefuseDir    = outfile.RefuseDir
	RefuseInput  = outfile.RefuseInput
)

// checkOut refuses an --out path of cmd that names a directory or one of
// the inputs (same file, through a link or another spelling): usage
// errors. An empty path (no --out) and "-" (standard output) pass.
func CheckOut(cmd, path string, inputs ...string) error {
	if path == "" || path == "-" {
		return nil
	}
	err := RefuseDir(path)
	for _, in := range inputs {
		if err == nil {
			err = RefuseInput(path, in)
		}
	}
	if err != nil {
		return Usagef("%s: --out: %v", cmd, err)
	}
	return nil
}

// readOrSample reads the file at path, or with no path the embedded sample
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
