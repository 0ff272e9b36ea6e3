package judge

import (
	"fmt"
	"sort"
	"strings"

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
		Note: "Each probe: its share (a rate) and hits/n. first_pick counts decisive single-order replies (50% is fair); " +
			"the others count pairs (0% is fair).",
		Columns: []results.Column{{Name: "judge"}},
	}
	for _, n := range ProbeNames {
		t.Columns = append(t.Columns, results.Column{Name: n, Kind: results.KindRate}, results.Column{Name: n + " hits/n"})
	}
	for i, p := range probes {
		row := []string{names[i]}
		for _, s := range p.Shares() {
			v, ok := s.Value()
			share := "" // no pairs: a missing value
			if ok {
				share = results.Float(v)
			}
			row = append(row, share, s.String())
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

// CalibrationTables lays a calibration record out as tables: the summary
// (agreement with its interval, kappa, order disagreements, invalid
// replies), agreement per kind and per language, the confusion (human
// rows, judge columns) and the shape of the errors. usable and reasons
// come from Usable.
func CalibrationTables(r Record, usable bool, reasons []string) []results.Table {
	num := results.Float
	verdict := "usable"
	if !usable {
		verdict = "not usable: " + strings.Join(reasons, "; ")
	}
	sum := results.Table{
		Title: "Calibration of " + r.Judge,
		Note: fmt.Sprintf("prompt %s (hash %s) against label set %s; swap %v; %s", r.Prompt.Name+"@"+fmt.Sprint(r.Prompt.Version),
			r.Prompt.Hash, r.LabelSet, r.Swap, verdict),
		// Each row's unit: the agreement and its interval are rates (as
		// the cards show them), kappa a number, the rest counts.
		Columns: []results.Column{{Name: "figure"}, {Name: "value", Kind: results.KindNumber, PerRow: true},
			{Name: "low", Kind: results.KindNumber, PerRow: true}, {Name: "high", Kind: results.KindNumber, PerRow: true}},
		RowKinds: []string{results.KindCount, results.KindRate, results.KindNumber, results.KindCount, results.KindCount},
		Rows: [][]string{
			{"pairs", fmt.Sprint(r.N), "", ""},
			{"agreement", num(r.Agreement), num(r.AgreementLow), num(r.AgreementHigh)},
			{"kappa", num(r.Kappa), "", ""},
			{"order disagreements", fmt.Sprint(r.OrderDisagreements), "", ""},
			{"invalid replies", fmt.Sprint(r.Invalid), "", ""},
		},
	}
	slices := func(title string, m map[string]Share) results.Table {
		t := results.Table{Title: title, Columns: []results.Column{{Name: "slice"}, {Name: "agree", Kind: results.KindNumber},
			{Name: "n", Kind: results.KindNumber}, {Name: "share", Kind: results.KindRate}}}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			s := m[k]
			v, ok := s.Value()
			share := ""
			if ok {
				share = num(v)
			}
			t.Rows = append(t.Rows, []string{k, fmt.Sprint(s.Hits), fmt.Sprint(s.N), share})
		}
		return t
	}
	labels, counts := r.ConfusionMatrix()
	conf := results.Table{Title: "Confusion: human (final) labels in rows, the judge's in columns", Columns: []results.Column{{Name: "human \\ judge"}}}
	for _, l := range labels {
		conf.Columns = append(conf.Columns, results.Column{Name: l, Kind: results.KindNumber})
	}
	for i, l := range labels {
		row := []string{l}
		for _, c := range counts[i] {
			row = append(row, fmt.Sprint(c))
		}
		conf.Rows = append(conf.Rows, row)
	}
	e := r.Errors
	shape := results.Table{Title: "Shape of the errors (wrong decisive picks)", Columns: []results.Column{{Name: "wrong decisive", Kind: results.KindNumber},
		{Name: "picked longer", Kind: results.KindNumber}, {Name: "picked first", Kind: results.KindNumber},
		{Name: "picked uncited", Kind: results.KindNumber}, {Name: "picked own style", Kind: results.KindNumber}},
		Rows: [][]string{{fmt.Sprint(e.WrongDecisive), fmt.Sprint(e.PickedLonger), fmt.Sprint(e.PickedFirst), fmt.Sprint(e.PickedUncited), fmt.Sprint(e.PickedOwnStyle)}}}
	return []results.Table{sum, slices("Agreement per kind", r.ByKind), slices("Agreement per language", r.ByLang), conf, shape}
}

// KindShares returns the per-kind agreement as parallel slices (kinds in
// sorted order), the form chart.Calibration takes.
func (r Record) KindShares() (kinds []string, agree, n []int) {
	for k := range r.ByKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		agree, n = append(agree, r.ByKind[k].Hits), append(n, r.ByKind[k].N)
	}
	return kinds, agree, n
}
