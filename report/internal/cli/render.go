package cli

import "github.com/evalbook/evalbook/pkg/results"

// Render prints a command's result from the library: its JSON document
// with --json, else its text; and first, when asked (--xlsx, --html), its
// tables as a workbook and a page titled "evalbook CMD".
func Render(e *Env, r results.Report, out *TableExport) error {
	if err := out.WriteFiles(e, "evalbook "+out.Cmd, r.Tables()); err != nil {
		return err
	}
	if out.JSON {
		return WriteJSON(e.Stdout, r)
	}
	return r.WriteText(e.Stdout)
}
