package main

import (
	"flag"

	"github.com/evalbook/evalbook/pkg/export"
	"github.com/evalbook/evalbook/pkg/results"
)

// tableExport holds the output flags of a command whose result renders
// through results.Report: --json, --xlsx and --html.
type tableExport struct {
	json       bool
	xlsx, html string
	counted    bool   // say on stderr how many tables the workbook holds (leaderboard)
	cmd        string // the command, in the title of the workbook and the page
}

func addTableExportFlags(fs *flag.FlagSet) *tableExport {
	t := &tableExport{cmd: fs.Name()}
	fs.BoolVar(&t.json, "json", false, "print one JSON document instead of the text")
	fs.StringVar(&t.xlsx, "xlsx", "", "also write the result as an Excel workbook `FILE` (a sheet per table)")
	fs.StringVar(&t.html, "html", "", "also write the result as one self-contained HTML `FILE`")
	return t
}

// write writes the tables to the files asked for, each atomically.
func (t *tableExport) write(e *env, title string, tables []results.Table) error {
	done, err := export.Tables(title, tables, t.xlsx, t.html)
	if t.counted && len(done) > 0 && done[0] == t.xlsx {
		done[0] += " (" + plural(len(tables), "table", "tables") + ")"
	}
	wrote(e, done)
	return err
}
