package judge

import (
	"fmt"

	"github.com/evalbook/evalbook/pkg/results"
)

// ProbeNames are the probes in display order.
var ProbeNames = []string{"first_pick", "order_flip", "longer_wins", "self_wins"}

// Shares returns the four probes in ProbeNames order.
func (p Probes) Shares() []Share {
	return []Share{p.FirstPick, p.OrderFlip, p.LongerWins, p.SelfWins}
}

// ProbesTable lays out the probes of several judges (names[i] ran
// probes[i]) as a table: one row per judge, each cell "value (hits/n)",
// "-" when a probe had no cases.
func ProbesTable(title string, names []string, probes []Probes) results.Table {
	if len(names) != len(probes) {
		panic("judge: ProbesTable: names and probes differ in length")
	}
	t := results.Table{
		Title: title,
		Note: "Each cell: share (hits/n). first_pick counts decisive single-order replies (0.5 is fair); " +
			"the others count pairs (0 is fair).",
		Columns: []results.Column{{Name: "judge"}},
	}
	for _, n := range ProbeNames {
		t.Columns = append(t.Columns, results.Column{Name: n})
	}
	for i, p := range probes {
		row := []string{names[i]}
		for _, s := range p.Shares() {
			v, ok := s.Value()
			if !ok {
				row = append(row, "-")
				continue
			}
			row = append(row, fmt.Sprintf("%.2f (%s)", v, s))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// ConfusionMatrix returns the record's confusion as rows of counts, human
// (final) labels as rows and the judge's labels as columns, both in the
// order of Labels.
func (r Record) ConfusionMatrix() (labels []string, counts [][]int) {
	for _, h := range Labels {
		labels = append(labels, string(h))
		row := make([]int, len(Labels))
		for j, l := range Labels {
			row[j] = r.Confusion[h][l]
		}
		counts = append(counts, row)
	}
	return labels, counts
}
