package judge

import (
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
)

// TestReportTablesCarryWarnings: the tables a workbook or a page shows for
// a calibration and a judge run end with their warnings, as the text
// does (judge_invalid says the accuracy is a lower bound).
func TestReportTablesCarryWarnings(t *testing.T) {
	w := []results.Warning{{Code: "judge_invalid", Count: 2, Message: "2 replies were invalid"}}
	last := func(ts []results.Table) results.Table { return ts[len(ts)-1] }
	c := &Calibration{Record: Record{Warnings: w}}
	if got := last(c.Tables()); got.Title != "Warnings" || got.Rows[0][0] != "judge_invalid" || got.Rows[0][1] != "2" {
		t.Errorf("calibration tables end with %+v", got)
	}
	s := &RunSummary{Score: &results.Score{Warnings: w}}
	if got := last(s.Tables()); got.Title != "Warnings" || got.Rows[0][2] != "2 replies were invalid" {
		t.Errorf("judge run tables end with %+v", got)
	}
}
