package results

import (
	"strconv"
	"strings"
)

var _ Report = (*Score)(nil)

// Tables lays a score result out as tables, so that it renders like
// every other Report (a sheet or a section each, for the generic
// workbook and page, and notebook display): the dataset and settings,
// the figures of each grouping with the combined line (GroupTable; one
// table of the combined line when there is no grouping), the four
// agreement buckets of each pair of binary metrics, the figures a
// harness reported (ReportedTable) and the warnings. Score's own workbook
// and page (pkg/xlsxreport, pkg/htmlreport) show more: charts, the rows
// of a verdict file, examples per bucket.
func (s *Score) Tables() []Table {
	out := []Table{s.settingsTable()}
	var bys []string
	for _, g := range s.Groups {
		if len(bys) == 0 || bys[len(bys)-1] != g.By {
			bys = append(bys, g.By)
		}
	}
	if len(bys) == 0 {
		t := GroupTable(s, "")
		t.Title = "Accuracy"
		out = append(out, t)
	}
	for _, by := range bys {
		out = append(out, GroupTable(s, by))
	}
	if len(s.Agreement) > 0 {
		t := Table{Title: "Agreement between metrics",
			Note: "Rows in each bucket for a pair of binary metrics: both pass, neither passes, only the first, only the second.",
			Columns: []Column{{Name: "first"}, {Name: "second"}, {Name: "both", Kind: KindNumber}, {Name: "neither", Kind: KindNumber},
				{Name: "only_first", Kind: KindNumber}, {Name: "only_second", Kind: KindNumber}}}
		for _, a := range s.Agreement {
			t.Rows = append(t.Rows, []string{a.First, a.Second, strconv.Itoa(a.Both), strconv.Itoa(a.Neither), strconv.Itoa(a.OnlyFirst), strconv.Itoa(a.OnlySecond)})
		}
		out = append(out, t)
	}
	if len(s.Reported) > 0 {
		out = append(out, s.ReportedTable())
	}
	return append(out, WarningTable(s.Warnings)...)
}

// settingsTable is the provenance of a score result: what was scored,
// how, by which tool and when.
func (s *Score) settingsTable() Table {
	t := Table{Title: "Dataset and settings", Columns: []Column{{Name: "setting"}, {Name: "value"}}}
	add := func(k, v string) {
		if v != "" {
			t.Rows = append(t.Rows, []string{k, v})
		}
	}
	add("title", s.Title)
	add("dataset", s.Dataset.Path)
	add("format", s.Dataset.Format)
	add("hash", s.Dataset.Hash)
	add("rows", strconv.Itoa(s.Dataset.Rows))
	add("model", s.Model)
	add("metrics", strings.Join(s.Settings.Metrics, ", "))
	add("normalize", s.Settings.Normalize)
	var by []string
	for _, b := range s.Settings.By {
		by = append(by, strings.Join(b, ","))
	}
	add("by", strings.Join(by, "; "))
	add("ci", s.Settings.CI)
	if s.Settings.CI != "" && s.Settings.CI != "none" {
		add("confidence", Float(s.Settings.Confidence))
	}
	if s.Settings.Resamples > 0 {
		add("resamples", strconv.Itoa(s.Settings.Resamples))
	}
	add("seed", strconv.FormatUint(s.Settings.Seed, 10))
	add("cluster", s.Settings.Cluster)
	add("language source", s.Settings.LanguageSource)
	add("tool", s.Tool)
	if s.Created != nil {
		add("created", s.Created.UTC().Format("2006-01-02T15:04:05Z"))
	}
	return t
}
