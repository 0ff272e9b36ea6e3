package results

import (
	"fmt"
	"strconv"
)

// MaxTextKeys is the most keys of flipped cases the text of compare
// lists each way; the rest are counted (the JSON and the workbook list
// them all).
const MaxTextKeys = 50

// ReportTitle names the comparison by its two files' base names.
func (r *Comparison) ReportTitle() string {
	return "Comparison: " + DisplayName(r.OldFile) + " → " + DisplayName(r.NewFile)
}

// Headline says in one sentence whether the new version is better,
// worse or not distinguishable from the old, with the figures behind it.
func (r *Comparison) Headline() Headline {
	level := strconv.FormatFloat(100*r.Confidence, 'f', -1, 64) + "%"
	h := Headline{Subject: fmt.Sprintf("%s → %s · metric %s · %s paired by %s", DisplayName(r.OldFile), DisplayName(r.NewFile), r.Metric, plural(r.N, "case", "cases"), r.Key)}
	change := FormatUnit(UnitPP, r.Diff)
	switch {
	case r.N == 0:
		h.Verdict, h.Tone = "No cases in common: nothing to compare.", ToneWarn
	case r.DiffCILow > 0:
		h.Verdict, h.Tone = fmt.Sprintf("The new version is better: %s → %s (%s, %s interval %s to %s).", FormatUnit(UnitRate, r.Old), FormatUnit(UnitRate, r.New), change, level, FormatUnit(UnitPP, r.DiffCILow), FormatUnit(UnitPP, r.DiffCIHigh)), ToneGood
	case r.DiffCIHigh < 0:
		h.Verdict, h.Tone = fmt.Sprintf("The new version is worse: %s → %s (%s, %s interval %s to %s).", FormatUnit(UnitRate, r.Old), FormatUnit(UnitRate, r.New), change, level, FormatUnit(UnitPP, r.DiffCILow), FormatUnit(UnitPP, r.DiffCIHigh)), ToneBad
	default:
		h.Verdict, h.Tone = fmt.Sprintf("No clear difference: %s → %s (%s); the %s interval %s to %s includes no change.", FormatUnit(UnitRate, r.Old), FormatUnit(UnitRate, r.New), change, level, FormatUnit(UnitPP, r.DiffCILow), FormatUnit(UnitPP, r.DiffCIHigh)), ToneNeutral
	}
	h.Notes = append(h.Notes, fmt.Sprintf("%s got better, %s got worse, %s unchanged; sign test %s (exact, two-sided), McNemar %s.",
		Commas(int64(len(r.Better))), Commas(int64(len(r.Worse))), Commas(int64(r.Unchanged)), PValueText(r.PSign), PValueText(r.PMcNemar)))
	if len(r.Warnings) > 0 {
		h.Notes = append(h.Notes, plural(len(r.Warnings), "warning", "warnings")+" below: read them before quoting the figures.")
	}
	h.Cards = []Card{
		{Label: "old pass rate", Value: r.Old, Unit: UnitRate, HasCI: true, Low: r.OldCILow, High: r.OldCIHigh, Note: fmt.Sprintf("%s of %s · %s", Commas(int64(r.OldPass)), Commas(int64(r.N)), DisplayName(r.OldFile))},
		{Label: "new pass rate", Value: r.New, Unit: UnitRate, HasCI: true, Low: r.NewCILow, High: r.NewCIHigh, Note: fmt.Sprintf("%s of %s · %s", Commas(int64(r.NewPass)), Commas(int64(r.N)), DisplayName(r.NewFile))},
		{Label: "change", Value: r.Diff, Unit: UnitPP, HasCI: true, Low: r.DiffCILow, High: r.DiffCIHigh, Note: "paired bootstrap"},
		{Label: "better / worse", Text: Commas(int64(len(r.Better))) + " / " + Commas(int64(len(r.Worse))), Note: "cases that flipped; sign test " + PValueText(r.PSign)},
	}
	return h
}

// Charts draws both pass rates with their intervals, overall and per
// group.
func (r *Comparison) Charts() []ChartSpec {
	c := ChartSpec{Kind: ChartBars, Title: "Pass rate, old and new", Unit: UnitRate,
		Note:   fmt.Sprintf("bars: pass rate of %s; whiskers: %s%% intervals (%s overall, Wilson per group)", r.Metric, strconv.FormatFloat(100*r.Confidence, 'f', -1, 64), r.CI),
		Series: []Series{{Name: "old: " + DisplayName(r.OldFile)}, {Name: "new: " + DisplayName(r.NewFile)}}}
	add := func(label string, o, n Point) {
		c.Categories = append(c.Categories, label)
		c.Series[0].Points = append(c.Series[0].Points, o)
		c.Series[1].Points = append(c.Series[1].Points, n)
	}
	add("all cases", Point{Value: r.Old, HasCI: true, Low: r.OldCILow, High: r.OldCIHigh}, Point{Value: r.New, HasCI: true, Low: r.NewCILow, High: r.NewCIHigh})
	for _, g := range r.Groups {
		add(GroupLabel(g.Group), Point{Value: g.Old, HasCI: true, Low: g.OldCILow, High: g.OldCIHigh}, Point{Value: g.New, HasCI: true, Low: g.NewCILow, High: g.NewCIHigh})
	}
	return []ChartSpec{c}
}

// Tables lays the comparison out as tables for the XLSX and HTML
// renderers: the figures (each in its unit), the groups (with By), the
// cases that changed, one a row, and the warnings.
func (r *Comparison) Tables() []Table {
	level := strconv.FormatFloat(100*r.Confidence, 'f', -1, 64) + "%"
	sum := Table{
		Title: "Comparison: " + DisplayName(r.OldFile) + " → " + DisplayName(r.NewFile),
		Sheet: "Comparison",
		Note:  fmt.Sprintf("metric %s, key %s, %s intervals (%s); sign test exact and two-sided over the flips", r.Metric, r.Key, level, r.CI),
		Columns: []Column{{Name: "figure"}, {Name: "value", Kind: KindNumber, PerRow: true},
			{Name: "low", Kind: KindNumber, PerRow: true}, {Name: "high", Kind: KindNumber, PerRow: true}, {Name: "detail"}},
		Rows: [][]string{
			{"n", strconv.Itoa(r.N), "", "", "cases in both files"},
			{"old pass rate", Float(r.Old), Float(r.OldCILow), Float(r.OldCIHigh), fmt.Sprintf("%d/%d", r.OldPass, r.N)},
			{"new pass rate", Float(r.New), Float(r.NewCILow), Float(r.NewCIHigh), fmt.Sprintf("%d/%d", r.NewPass, r.N)},
			{"change", Float(r.Diff), Float(r.DiffCILow), Float(r.DiffCIHigh), "paired bootstrap, percentage points"},
			{"better", strconv.Itoa(len(r.Better)), "", "", "cases that pass now and failed before (listed under Cases that changed)"},
			{"worse", strconv.Itoa(len(r.Worse)), "", "", "cases that fail now and passed before (listed under Cases that changed)"},
			{"unchanged", strconv.Itoa(r.Unchanged), "", "", ""},
			{"sign test p", Float(r.PSign), "", "", "exact, two-sided"},
			{"McNemar p", Float(r.PMcNemar), "", "", "chi-square with continuity correction"},
		},
		RowKinds: []string{KindCount, KindRate, KindRate, KindPP, KindCount, KindCount, KindCount, KindP, KindP},
	}
	for _, v := range r.Ranks {
		sum.Rows = append(sum.Rows, []string{v.Version + " rank", strconv.Itoa(v.Rank), strconv.Itoa(v.RankLow), strconv.Itoa(v.RankHigh),
			fmt.Sprintf("tier %d (sign test, α = %g)", v.Tier, r.TierAlpha)})
		sum.RowKinds = append(sum.RowKinds, KindNumber)
	}
	tables := []Table{sum}
	if len(r.Groups) > 0 {
		g := Table{Title: "By " + r.By, Note: level + " Wilson intervals within each group",
			Columns: []Column{{Name: r.By}, {Name: "n", Kind: KindNumber},
				{Name: "old", Kind: KindRate}, {Name: "old low", Kind: KindRate}, {Name: "old high", Kind: KindRate},
				{Name: "new", Kind: KindRate}, {Name: "new low", Kind: KindRate}, {Name: "new high", Kind: KindRate},
				{Name: "change", Kind: KindPP}, {Name: "better", Kind: KindNumber}, {Name: "worse", Kind: KindNumber}}}
		for _, x := range r.Groups {
			g.Rows = append(g.Rows, []string{x.Group, strconv.Itoa(x.N), Float(x.Old), Float(x.OldCILow), Float(x.OldCIHigh),
				Float(x.New), Float(x.NewCILow), Float(x.NewCIHigh), Float(x.New - x.Old), strconv.Itoa(x.Better), strconv.Itoa(x.Worse)})
		}
		tables = append(tables, g)
	}
	if len(r.Better)+len(r.Worse) > 0 {
		tables = append(tables, r.changedTable())
	}
	return append(tables, WarningTable(r.Warnings)...)
}

// Filters of the cases that changed.
const (
	caseBetter = 1
	caseWorse  = 2
)

// changedTable lists each case whose verdict flipped: its direction, its
// key, the old and new verdicts, and, when they were read (Changed), the
// question, the golden answer and both responses. It is a table to read
// (a Review): the page filters it by better and worse and searches it.
func (r *Comparison) changedTable() Table {
	ch := Table{Title: "Cases that changed", Note: "each case whose verdict flipped, by its key (" + r.Key + "); old and new: its verdicts (1 passes, 0 fails)",
		Columns: []Column{{Name: "direction"}, {Name: r.Key}, {Name: "old", Kind: KindNumber}, {Name: "new", Kind: KindNumber}},
		Review:  &Review{Filters: []Filter{{Flag: caseBetter, Label: "better (fails in old, passes in new)"}, {Flag: caseWorse, Label: "worse (passes in old, fails in new)"}}}}
	texts := r.Changed != nil
	if texts {
		ch.Note = "each case whose verdict flipped, by its key (" + r.Key + "), with its question, golden answer and both responses; old and new: its verdicts (1 passes, 0 fails)"
		ch.Columns = append(ch.Columns, Column{Name: "question"}, Column{Name: "golden answer"}, Column{Name: "old response"}, Column{Name: "new response"})
	}
	for _, l := range []struct {
		dir      string
		flag     int
		old, new string
		keys     []string
	}{{"better", caseBetter, "0", "1", r.Better}, {"worse", caseWorse, "1", "0", r.Worse}} {
		for _, k := range l.keys {
			row := []string{l.dir, k, l.old, l.new}
			if texts {
				t := r.Changed[k]
				row = append(row, t.Question, t.Answer, t.OldResponse, t.NewResponse)
			}
			ch.Rows = append(ch.Rows, row)
			ch.Review.Flags = append(ch.Review.Flags, l.flag)
		}
	}
	return ch
}
