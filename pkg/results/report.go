package results

import "io"

// A Report is the result of one analysis, as every command and notebook
// gets it from the library: it writes the command's text, gives its
// figures as tables (for a workbook, a page or a notebook), and encodes
// as the command's JSON document with encoding/json. Comparison,
// RaterAgreement and the report types of pkg/design, pkg/harness, pkg/mc
// and pkg/judge are Reports.
type Report interface {
	WriteText(w io.Writer) error
	Tables() []Table
}
