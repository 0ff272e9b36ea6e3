package judge

import (
	"reflect"
	"testing"

	"github.com/evalbook/evalbook/pkg/results"
)

func TestProbesTableAndConfusion(t *testing.T) {
	p := Probes{FirstPick: Share{Hits: 39, N: 50}, OrderFlip: Share{Hits: 19, N: 30}, LongerWins: Share{N: 0}, SelfWins: Share{Hits: 0, N: 5}}
	tab := ProbesTable("t", []string{"position"}, []Probes{p})
	// Each probe is a rate (a number cell, shown as a percentage as the
	// cards show it: 39/50 = 78.0%, 19/30 = 63.3%) beside its hits/n; a
	// probe with no pairs has no rate. It was one text cell "0.63 (19/30)".
	var got []string
	for j, c := range tab.Columns {
		if j%2 == 1 && c.Kind != results.KindRate {
			t.Errorf("column %q is %q, want a rate", c.Name, c.Kind)
		}
		got = append(got, tab.Cell(0, j))
	}
	want := []string{"position", "78.0%", "39/50", "63.3%", "19/30", "", "0/0", "0.0%", "0/5"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("row = %q, want %q", got, want)
	}
	r := Record{Confusion: map[Label]map[Label]int{LabelA: {LabelA: 10}, LabelTie: {LabelA: 3, LabelB: 1, LabelTie: 5}}}
	labels, m := r.ConfusionMatrix()
	if len(labels) != len(Labels) {
		t.Fatalf("labels %q", labels)
	}
	for i, h := range Labels {
		for j, l := range Labels {
			if m[i][j] != r.Confusion[h][l] {
				t.Errorf("m[%s][%s] = %d, want %d", h, l, m[i][j], r.Confusion[h][l])
			}
		}
	}
}

// The calibration summary shows the agreement and its interval as rates
// (18 of 30 pairs: 60.0%, as the card), kappa as a number and the counts
// as counts; it showed 0.600 [0.433, 0.767].
func TestCalibrationSummaryUnits(t *testing.T) {
	r := Record{Judge: "j", N: 30, Agree: 18, Agreement: 0.6, AgreementLow: 0.4333, AgreementHigh: 0.7667, Kappa: 0.4159, OrderDisagreements: 17}
	sum := CalibrationTables(r, true, nil)[0]
	var rows []string
	for i, row := range sum.Rows {
		line := row[0]
		for j := 1; j < len(row); j++ {
			line += " " + sum.Cell(i, j)
		}
		rows = append(rows, line)
	}
	want := []string{"pairs 30  ", "agreement 60.0% 43.3% 76.7%", "kappa 0.416  ", "order disagreements 17  ", "invalid replies 0  "}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("summary rows %q, want %q", rows, want)
	}
}
