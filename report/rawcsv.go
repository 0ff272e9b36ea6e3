package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// Safe CSV (issue 17): every CSV file a command writes guards the cells
// a spreadsheet would run as a formula (tabular.NeedsFormulaGuard) with
// a leading ', and says how many; --raw-csv writes them as they came.

func addRawCSVFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("raw-csv", false, "write CSV cells as they came, for pipelines: by default a cell a spreadsheet would run as a formula (leading = + - @ tab or CR, not a plain number) gets a leading '")
}

// rawCSVNote says on standard error that --raw-csv is on.
func rawCSVNote(e *env, cmd string) {
	fmt.Fprintf(e.stderr, "%s: --raw-csv: CSV cells are written as they came; a spreadsheet may run those that start with = + - @ tab or CR\n", cmd)
}

// formulaNote says on standard error how many cells of file were
// guarded, when any were.
func formulaNote(e *env, cmd, file string, cells int) {
	if cells > 0 {
		fmt.Fprintf(e.stderr, "%s: warning: formula_cells: %s of %s that a spreadsheet would run as a formula got a leading ' (--raw-csv writes them as they came)\n",
			cmd, plural(cells, "cell", "cells"), file)
	}
}

// writeCSVFile writes the CSV file path through write, atomically, safe
// unless raw: the --raw-csv note before, the formula_cells note after.
func writeCSVFile(e *env, cmd, path string, raw bool, write func(io.Writer, tabular.CSVOptions) (int, error)) error {
	if raw {
		rawCSVNote(e, cmd)
	}
	guarded := 0
	if err := writeAtomic(path, func(w io.Writer) (err error) {
		guarded, err = write(w, tabular.CSVOptions{Raw: raw})
		return err
	}); err != nil {
		return err
	}
	formulaNote(e, cmd, path, guarded)
	return nil
}
