package xlsxreport

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// plainText reports whether s is text that XML 1.0 carries as it is:
// valid UTF-8 without control characters other than tab and newline,
// and without excelize's _xHHHH_ escapes.
func plainText(s string) bool {
	if !utf8.ValidString(s) || strings.Contains(s, "_x") {
		return false
	}
	for _, r := range s {
		if (r < 0x20 && r != '\t' && r != '\n') || r == 0xFFFE || r == 0xFFFF || r == 0x7F || (r >= 0x80 && r < 0xA0) {
			return false
		}
	}
	return true
}

// FuzzResponseCell puts arbitrary text in a response cell of a one-row
// verdict file: the workbook must be written, the cell must read back
// as a string and never as a formula, and plain text must read back
// unchanged.
func FuzzResponseCell(f *testing.F) {
	for _, s := range []string{"=1+1", "+SUM(A1)", "-2", "@x", "=HYPERLINK(\"http://x\",\"y\")", "<script>alert(1)</script>", "a\nb", " lead", "trail ", "नमस्ते", "\x00\x01", "_x0041_", "\r\n"} {
		f.Add(s)
	}
	s := &results.Score{
		Settings: results.Settings{Metrics: []string{"exact_substring", "word_overlap"}, CI: "none"},
		Metrics:  []results.MetricDef{{ID: "exact_substring"}, {ID: "word_overlap"}},
		// The one row below: exact_substring passes, word_overlap fails.
		Combined: results.Group{N: 1, Metrics: map[string]results.MetricScore{"exact_substring": {Correct: 1}, "word_overlap": {}}},
	}
	f.Fuzz(func(t *testing.T, resp string) {
		var in bytes.Buffer
		cw := csv.NewWriter(&in)
		cw.Write([]string{"id", "response", "exact_substring", "word_overlap"})
		cw.Write([]string{"1", resp, "1", "0"})
		cw.Flush()
		var out bytes.Buffer
		if _, err := Write(&out, s, Options{Verdicts: &in}); err != nil {
			t.Fatal(err)
		}
		wb, err := excelize.OpenReader(&out)
		if err != nil {
			t.Fatal(err)
		}
		defer wb.Close()
		// encoding/csv turns \r\n into \n inside quoted fields.
		want := strings.ReplaceAll(resp, "\r\n", "\n")
		if want == "" {
			return // an empty cell is not written at all
		}
		typ, err := wb.GetCellType("Verdicts", "B2")
		if err != nil {
			t.Fatal(err)
		}
		if typ != excelize.CellTypeInlineString {
			t.Errorf("response %q stored as type %v", resp, typ)
		}
		if fx, _ := wb.GetCellFormula("Verdicts", "B2"); fx != "" {
			t.Errorf("response %q became formula %q", resp, fx)
		}
		got, err := wb.GetCellValue("Verdicts", "B2", excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		if plainText(want) && got != want {
			t.Errorf("response %q read back as %q", want, got)
		}
	})
}
