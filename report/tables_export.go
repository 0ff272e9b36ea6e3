package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/evalbook/evalbook/pkg/htmlreport"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/xlsxreport"
)

// tableExport holds the --xlsx and --html flags of commands whose result
// is a set of tables (agree, compare).
type tableExport struct {
	xlsx, html string
	counted    bool // say on stderr how many tables the workbook holds (leaderboard)
}

func addTableExportFlags(fs *flag.FlagSet) *tableExport {
	t := &tableExport{}
	fs.StringVar(&t.xlsx, "xlsx", "", "also write the result as an Excel workbook `FILE` (a sheet per table)")
	fs.StringVar(&t.html, "html", "", "also write the result as one self-contained HTML `FILE`")
	return t
}

// write writes the tables to the files asked for, each atomically.
func (t *tableExport) write(e *env, title string, tables []results.Table) error {
	if t.xlsx != "" {
		if err := writeAtomic(t.xlsx, func(w io.Writer) error { return xlsxreport.WriteTables(w, title, tables) }); err != nil {
			return err
		}
		if t.counted {
			fmt.Fprintf(e.stderr, "evalbook: wrote %s (%s)\n", t.xlsx, plural(len(tables), "table", "tables"))
		} else {
			fmt.Fprintf(e.stderr, "evalbook: wrote %s\n", t.xlsx)
		}
	}
	if t.html != "" {
		if err := writeAtomic(t.html, func(w io.Writer) error { return htmlreport.WriteTables(w, title, tables, false) }); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "evalbook: wrote %s\n", t.html)
	}
	return nil
}
