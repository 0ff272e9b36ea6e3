package cli

import "github.com/evalbook/evalbook/pkg/results"

// Render prints a command's result from the library: its JSON document
// with --json, else its text; and first, when asked (--xlsx, --html), its
// report as a workbook and a page (its headline, charts and tables,
// output.WriteReport) titled "evalbook CMD" unless the result names
// itself (results.Titled).
func Render(e *Env, r results.Report, out *TableExport) error {
	if err := out.WriteReport(e, "evalbook "+out.Cmd, r); err != nil {
		return err
	}
	if out.JSON {
		return WriteJSON(e.Stdout, r)
	}
	return r.WriteText(e.Stdout)
}
