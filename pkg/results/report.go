package results

import (
	"io"
	"strconv"
)

// A Report is the result of one analysis, as every command and notebook
// gets it from the library: it writes the command's text, gives its
// figures as tables (for a workbook, a page or a notebook), and encodes
// as the command's JSON document with encoding/json. Comparison,
// Score, RaterAgreement and the report types of pkg/design, pkg/harness, pkg/mc
// and pkg/judge are Reports.
type Report interface {
	WriteText(w io.Writer) error
	Tables() []Table
}

// WarningTable returns warnings as one table (code, count, message), for
// a Report's Tables; none when there are no warnings.
func WarningTable(ws []Warning) []Table {
	if len(ws) == 0 {
		return nil
	}
	t := Table{Title: "Warnings", Columns: []Column{{Name: "code"}, {Name: "count", Kind: KindNumber}, {Name: "message"}}}
	for _, w := range ws {
		t.Rows = append(t.Rows, []string{w.Code, strconv.Itoa(w.Count), w.Message})
	}
	return []Table{t}
}
