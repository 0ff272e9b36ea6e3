package cli

import (
	"flag"

	"github.com/evalbook/evalbook/pkg/output"
	"github.com/evalbook/evalbook/pkg/results"
)

// TableExport holds the output flags of a command whose result renders
// through results.Report: --json, --xlsx and --html.
type TableExport struct {
	JSON       bool
	XLSX, HTML string
	Counted    bool   // say on stderr how many tables the workbook holds (leaderboard)
	Cmd        string // the command, in the title of the workbook and the page
}

// AddTableExportFlags declares --json, --xlsx and --html.
func AddTableExportFlags(fs *flag.FlagSet) *TableExport {
	t := &TableExport{Cmd: fs.Name()}
	fs.BoolVar(&t.JSON, "json", false, "print one JSON document instead of the text")
	PathFlag(fs, &t.XLSX, "xlsx", "", Output, "also write the result as an Excel workbook `FILE` (a Summary sheet with the verdict and key figures, native charts, a sheet per table)")
	PathFlag(fs, &t.HTML, "html", "", Output, "also write the result as one self-contained HTML `FILE` (the verdict, key figures with intervals, charts, tables)")
	return t
}

// WriteReport writes r to the files asked for, each atomically, in the
// report design every command shares (output.WriteReport).
func (t *TableExport) WriteReport(e *Env, title string, r results.Report) error {
	done, err := output.WriteReport(title, r, t.XLSX, t.HTML)
	if t.Counted && len(done) > 0 && done[0] == t.XLSX {
		done[0] += " (" + Plural(len(r.Tables()), "table", "tables") + ")"
	}
	Wrote(e, done)
	return err
}

// WriteFiles writes the tables to the files asked for, each atomically.
func (t *TableExport) WriteFiles(e *Env, title string, tables []results.Table) error {
	done, err := output.WriteTables(title, tables, t.XLSX, t.HTML)
	if t.Counted && len(done) > 0 && done[0] == t.XLSX {
		done[0] += " (" + Plural(len(tables), "table", "tables") + ")"
	}
	Wrote(e, done)
	return err
}
