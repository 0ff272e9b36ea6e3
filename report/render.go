package main

import "github.com/evalbook/evalbook/pkg/results"

// render prints a command's result from the library: its JSON document
// with --json, else its text; and first, when asked (--xlsx, --html), its
// tables as a workbook and a page titled "evalbook CMD".
func render(e *env, r results.Report, out *tableExport) error {
	if err := out.write(e, "evalbook "+out.cmd, r.Tables()); err != nil {
		return err
	}
	if out.json {
		return writeJSON(e.stdout, r)
	}
	return r.WriteText(e.stdout)
}
