package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/htmlreport"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/xlsxreport"
)

// tableExport holds the --xlsx and --html flags of commands whose result
// is a set of tables (agree, compare).
type tableExport struct{ xlsx, html string }

func addTableExportFlags(fs *flag.FlagSet) *tableExport {
	t := &tableExport{}
	fs.StringVar(&t.xlsx, "xlsx", "", "also write the result as an Excel workbook `FILE` (a sheet per table)")
	fs.StringVar(&t.html, "html", "", "also write the result as one self-contained HTML `FILE`")
	return t
}

// write writes the tables to the files asked for, each atomically.
func (t *tableExport) write(e *env, title string, tables []results.Table) error {
	if t.xlsx != "" {
		if err := writeAtomic(t.xlsx, func(w io.Writer) error { return xlsxreport.WriteTables(w, title, tables) }); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "evalbook: wrote %s\n", t.xlsx)
	}
	if t.html != "" {
		if err := writeAtomic(t.html, func(w io.Writer) error { return htmlreport.WriteTables(w, title, tables, false) }); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "evalbook: wrote %s\n", t.html)
	}
	return nil
}

func fl(x float64) string { return results.Float(x) }

// compareTables lays out a comparison of two versions as tables.
func compareTables(r *compareReport) []results.Table {
	level := strconv.FormatFloat(100*r.Confidence, 'f', -1, 64) + "%"
	sum := results.Table{
		Title: "Comparison: " + r.OldFile + " -> " + r.NewFile,
		Note:  fmt.Sprintf("metric %s, key %s, %s intervals (%s); sign test exact and two-sided over the flips", r.Metric, r.Key, level, r.CI),
		Columns: []results.Column{{Name: "figure"}, {Name: "value", Kind: results.KindNumber},
			{Name: "low", Kind: results.KindNumber}, {Name: "high", Kind: results.KindNumber}, {Name: "detail"}},
		Rows: [][]string{
			{"n", strconv.Itoa(r.N), "", "", "cases in both files"},
			{"old pass rate", fl(r.Old), fl(r.OldCILow), fl(r.OldCIHigh), fmt.Sprintf("%d/%d", r.OldPass, r.N)},
			{"new pass rate", fl(r.New), fl(r.NewCILow), fl(r.NewCIHigh), fmt.Sprintf("%d/%d", r.NewPass, r.N)},
			{"change", fl(r.Diff), fl(r.DiffCILow), fl(r.DiffCIHigh), "paired bootstrap"},
			{"better", strconv.Itoa(len(r.Better)), "", "", strings.Join(r.Better, ", ")},
			{"worse", strconv.Itoa(len(r.Worse)), "", "", strings.Join(r.Worse, ", ")},
			{"unchanged", strconv.Itoa(r.Unchanged), "", "", ""},
			{"sign test p", fl(r.PSign), "", "", "exact, two-sided"},
			{"McNemar p", fl(r.PMcNemar), "", "", "chi-square with continuity correction"},
		},
	}
	tables := []results.Table{sum}
	if len(r.Groups) > 0 {
		g := results.Table{Title: "By " + r.By, Columns: []results.Column{{Name: r.By}, {Name: "n", Kind: results.KindNumber},
			{Name: "old", Kind: results.KindRate}, {Name: "new", Kind: results.KindRate},
			{Name: "better", Kind: results.KindNumber}, {Name: "worse", Kind: results.KindNumber}}}
		for _, x := range r.Groups {
			g.Rows = append(g.Rows, []string{x.Group, strconv.Itoa(x.N), fl(x.Old), fl(x.New), strconv.Itoa(x.Better), strconv.Itoa(x.Worse)})
		}
		tables = append(tables, g)
	}
	return append(tables, warningTable(r.Warnings)...)
}

func warningTable(ws []string) []results.Table {
	if len(ws) == 0 {
		return nil
	}
	t := results.Table{Title: "Warnings", Columns: []results.Column{{Name: "warning"}}}
	for _, w := range ws {
		t.Rows = append(t.Rows, []string{w})
	}
	return []results.Table{t}
}
