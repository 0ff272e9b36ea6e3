package nbkit

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// Issue 30's "Done when": the analysis an analyst wants (load a table,
// score, per-language intervals, two models compared per language,
// kappa, coverage, a chart, XLSX and HTML) is at most 60 lines of
// notebook code, shown as an example notebook. Notebook 11 is that
// notebook: its code cells, blank lines and // comments aside, hold at
// most 60 lines (the set-up cell included), and they make each of those
// calls. CI runs it headlessly (scripts/run-notebooks.sh --compare), so
// the calls work; this test keeps the count and the coverage honest.
func TestAnalysisNotebookInSixtyLines(t *testing.T) {
	b, err := os.ReadFile("../11-analysis-in-60-lines.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			CellType string   `json:"cell_type"`
			Source   []string `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatal(err)
	}
	var code strings.Builder
	lines := 0
	for _, c := range nb.Cells {
		if c.CellType != "code" {
			continue
		}
		src := strings.Join(c.Source, "")
		code.WriteString(src + "\n")
		for _, l := range strings.Split(src, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "//") {
				lines++
			}
		}
	}
	if lines == 0 || lines > 60 {
		t.Errorf("notebook 11 holds %d lines of code (blank lines and comments aside); want 1 to 60", lines)
	}
	for what, call := range map[string]string{
		"load a table":                 "frame.ReadResponses(",
		"score":                        "frame.Score(",
		"per-language intervals":       "results.GroupTable(res, \"language\")",
		"two models compared per lang": "frame.Models(",
		"kappa":                        "agree.AnalyzeCSV(",
		"coverage":                     "Coverage",
		"a chart":                      "chart.FromFrame(",
		"XLSX":                         "XLSX:",
		"HTML":                         "HTML:",
		"the reports written":          "output.WriteScore(",
	} {
		if !strings.Contains(code.String(), call) {
			t.Errorf("notebook 11 does not %s (no %s in its code)", what, call)
		}
	}
}
