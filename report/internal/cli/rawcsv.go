package cli

import (
	"flag"
	"fmt"
	"io"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// Safe CSV (issue 17): every CSV file a command writes guards the cells
// a spreadsheet would run as a formula (tabular.NeedsFormulaGuard) with
// a leading ', and says how many; --raw-csv writes them as they came.

// AddRawCSVFlag declares --raw-csv.
func AddRawCSVFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("raw-csv", false, "write CSV cells as they came, for pipelines: by default a cell a spreadsheet would run as a formula (leading = + - @ tab or CR, not a plain number) gets a leading '")
}

// RawCSVNote says on standard error that --raw-csv is on.
func RawCSVNote(e *Env, cmd string) {
	fmt.Fprintf(e.Stderr, "%s: --raw-csv: CSV cells are written as they came; a spreadsheet may run those that start with = + - @ tab or CR\n", cmd)
}

// FormulaNote says on standard error how many cells of file were
// guarded, when any were.
func FormulaNote(e *Env, cmd, file string, cells int) {
	if cells > 0 {
		fmt.Fprintf(e.Stderr, "%s: warning: formula_cells: %s of %s that a spreadsheet would run as a formula got a leading ' (--raw-csv writes them as they came)\n",
			cmd, Plural(cells, "cell", "cells"), file)
	}
}

// WriteCSVFile writes the CSV file path through write, atomically, safe
// unless raw: the --raw-csv note before, the formula_cells note after.
func WriteCSVFile(e *Env, cmd, path string, raw bool, write func(io.Writer, tabular.CSVOptions) (int, error)) error {
	if raw {
		RawCSVNote(e, cmd)
	}
	guarded := 0
	if err := WriteAtomic(path, func(w io.Writer) (err error) {
		guarded, err = write(w, tabular.CSVOptions{Raw: raw})
		return err
	}); err != nil {
		return err
	}
	FormulaNote(e, cmd, path, guarded)
	return nil
}
