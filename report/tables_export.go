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

// agreeTables lays out an agreement result as tables.
func agreeTables(r *agreeReport) []results.Table {
	stat, name := r.Kappa, "kappa"
	if r.FleissKappa != nil {
		stat, name = r.FleissKappa, "fleiss_kappa"
	}
	if r.Alpha != nil {
		stat, name = r.Alpha, "alpha"
	}
	sum := results.Table{
		Title: "Agreement: " + strings.Join(r.Raters, ", "),
		Note: fmt.Sprintf("%s over %d items; %s%% bootstrap interval over items (%d resamples, seed %d)",
			r.Metric, r.N, strconv.FormatFloat(100*r.Confidence, 'f', -1, 64), r.Resamples, r.Seed),
		Columns: []results.Column{{Name: "figure"}, {Name: "value", Kind: results.KindNumber},
			{Name: "low", Kind: results.KindNumber}, {Name: "high", Kind: results.KindNumber}},
		Rows: [][]string{
			{"n", strconv.Itoa(r.N), "", ""},
			{"observed", fl(r.Observed), "", ""},
			{"expected", fl(r.Expected), "", ""},
		},
	}
	if stat != nil {
		sum.Rows = append(sum.Rows, []string{name, fl(*stat), fl(r.CILow), fl(r.CIHigh)})
	}
	tables := []results.Table{sum}
	if c := r.Confusion; c != nil {
		t := results.Table{Title: "Confusion: " + r.Raters[0] + " in rows, " + r.Raters[1] + " in columns",
			Columns: []results.Column{{Name: r.Raters[0] + " \\ " + r.Raters[1]}}}
		for _, l := range c.Labels {
			t.Columns = append(t.Columns, results.Column{Name: l, Kind: results.KindNumber})
		}
		for i, l := range c.Labels {
			row := []string{l}
			for _, n := range c.Rows[i] {
				row = append(row, strconv.Itoa(n))
			}
			t.Rows = append(t.Rows, row)
		}
		tables = append(tables, t)
	}
	if len(r.Disagreements) > 0 {
		t := results.Table{Title: "Disagreements, to adjudicate", Columns: []results.Column{{Name: "item"}, {Name: "line", Kind: results.KindNumber}}}
		for _, ra := range r.Raters {
			t.Columns = append(t.Columns, results.Column{Name: ra})
		}
		for _, d := range r.Disagreements {
			row := []string{d.Item, strconv.Itoa(d.Line)}
			for _, ra := range r.Raters {
				row = append(row, d.Ratings[ra])
			}
			t.Rows = append(t.Rows, row)
		}
		tables = append(tables, t)
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
