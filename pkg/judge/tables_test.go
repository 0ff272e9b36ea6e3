package judge

import (
	"reflect"
	"testing"
)

func TestProbesTableAndConfusion(t *testing.T) {
	p := Probes{FirstPick: Share{Hits: 39, N: 50}, OrderFlip: Share{Hits: 19, N: 30}, LongerWins: Share{N: 0}, SelfWins: Share{Hits: 0, N: 5}}
	tab := ProbesTable("t", []string{"position"}, []Probes{p})
	want := []string{"position", "0.78 (39/50)", "0.63 (19/30)", "-", "0.00 (0/5)"}
	if !reflect.DeepEqual(tab.Rows[0], want) || len(tab.Columns) != 5 {
		t.Errorf("row = %q, columns %d", tab.Rows[0], len(tab.Columns))
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
