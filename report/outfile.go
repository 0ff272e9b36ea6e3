package main

import "github.com/evalbook/evalbook/internal/outfile"

// The command writes every output file through internal/outfile.
var (
	createAtomic = outfile.Create
	writeAtomic  = outfile.Write
	refuseDir    = outfile.RefuseDir
	refuseInput  = outfile.RefuseInput
)

// checkOut refuses an --out path of cmd that names a directory or one of
// the inputs (same file, through a link or another spelling): usage
// errors. An empty path (no --out) and "-" (standard output) pass.
func checkOut(cmd, path string, inputs ...string) error {
	if path == "" || path == "-" {
		return nil
	}
	err := refuseDir(path)
	for _, in := range inputs {
		if err == nil {
			err = refuseInput(path, in)
		}
	}
	if err != nil {
		return usagef("%s: --out: %v", cmd, err)
	}
	return nil
}
