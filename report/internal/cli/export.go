package cli

import (
	"flag"
	"fmt"

	"github.com/evalbook/evalbook/pkg/chart"
	"github.com/evalbook/evalbook/pkg/htmlreport"
	"github.com/evalbook/evalbook/pkg/output"
	"github.com/evalbook/evalbook/pkg/results"
)

// ExportFlags are the report files a command can write besides its
// table or JSON: an XLSX workbook, a self-contained HTML page, and chart
// images. score and report share them.
type ExportFlags struct {
	XLSX, HTML, Charts string
	HTMLRows           int
	ShowPaths          bool
}

// AddExportFlags defines --xlsx, --html, --charts and --html-rows on fs.
func AddExportFlags(fs *flag.FlagSet) *ExportFlags {
	x := &ExportFlags{}
	PathFlag(fs, &x.XLSX, "xlsx", "", Output, "also write an Excel workbook `FILE`: summary, one sheet per grouping with a bar chart, agreement, every verdict row, disagreements, warnings")
	PathFlag(fs, &x.HTML, "html", "", Output, "also write a self-contained HTML report `FILE` (inline charts, sortable tables, verdict rows to filter, search and page through)")
	PathFlag(fs, &x.Charts, "charts", "", Output, "also write the charts as PNG and SVG files into `DIR` (created if missing)").dir = true
	fs.IntVar(&x.HTMLRows, "html-rows", htmlreport.DefaultMaxRows, "verdict rows (and disagreement rows) the HTML report holds for review, `N`, listed a page at a time; 0 lists none")
	fs.BoolVar(&x.ShowPaths, "show-paths", false, "name input files by the path given, folders included (default: the base name only, so a forwarded report does not show your folders)")
	return x
}

// Any reports whether a report file was asked for.
func (x *ExportFlags) Any() bool { return x.XLSX != "" || x.HTML != "" || x.Charts != "" }

// NeedVerdicts reports whether the outputs asked for show verdict rows.
func (x *ExportFlags) NeedVerdicts() bool { return x.XLSX != "" || x.HTML != "" }

// Check rejects flag values that cannot work, as usage errors.
func (x *ExportFlags) Check(cmd string) error {
	if x.HTMLRows < 0 {
		return Usagef("%s: --html-rows must not be negative", cmd)
	}
	if x.XLSX != "" && x.XLSX == x.HTML {
		return Usagef("%s: --xlsx and --html name the same file %q", cmd, x.XLSX)
	}
	for _, f := range []struct{ flag, path string }{{"--xlsx", x.XLSX}, {"--html", x.HTML}, {"--charts", x.Charts}} {
		if f.path == "-" {
			// A workbook or a page on standard output would mix with the
			// report; "-" is read by report --from and written only by
			// score --out.
			return Usagef("%s: %s -: standard output (-) is only for score --out; give %s a file name", cmd, f.flag, f.flag)
		}
		if f.path == "" || f.flag == "--charts" {
			continue
		}
		if err := RefuseDir(f.path); err != nil {
			return Usagef("%s: %s: %v", cmd, f.flag, err)
		}
	}
	return nil
}

// ExportScore writes the report files asked for by x (pkg/output),
// reading the verdict rows from the file verdicts ("" when there is none),
// and says on stderr what it wrote. Tables are extra tables shown after
// the agreement (e.g. a judge's review).
func ExportScore(e *Env, x *ExportFlags, res *results.Score, tables []results.Table, verdicts, verdictsName string) error {
	done, err := output.WriteScore(res, output.Files{XLSX: x.XLSX, HTML: x.HTML, Charts: x.Charts, HTMLRows: x.HTMLRows,
		Verdicts: verdicts, VerdictsName: verdictsName, Tables: tables})
	Wrote(e, done)
	return err
}

// WriteFigures writes each figure as NAME.png and NAME.svg in dir.
func WriteFigures(e *Env, dir string, figs []chart.Named) error {
	line, err := output.WriteFigures(dir, figs)
	if err == nil {
		Wrote(e, []string{line})
	}
	return err
}

// Wrote says on stderr what was written.
func Wrote(e *Env, done []string) {
	for _, d := range done {
		fmt.Fprintf(e.Stderr, "evalbook: wrote %s\n", d)
	}
}
