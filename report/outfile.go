package main

import "github.com/evalbook/evalbook/internal/outfile"

// The command writes every output file through internal/outfile.
var (
	createAtomic = outfile.Create
	writeAtomic  = outfile.Write
	refuseDir    = outfile.RefuseDir
	refuseInput  = outfile.RefuseInput
)
