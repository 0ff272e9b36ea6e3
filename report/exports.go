package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/evalbook/evalbook/internal/outfile"
	"github.com/evalbook/evalbook/pkg/chart"
	"github.com/evalbook/evalbook/pkg/export"
	"github.com/evalbook/evalbook/pkg/htmlreport"
	"github.com/evalbook/evalbook/pkg/results"
)

// exportFlags are the report files a command can write besides its
// table or JSON: an XLSX workbook, a self-contained HTML page, and chart
// images. score and report share them.
type exportFlags struct {
	xlsx, html, charts string
	htmlRows           int
	showPaths          bool
}

// addExportFlags defines --xlsx, --html, --charts and --html-rows on fs.
func addExportFlags(fs *flag.FlagSet) *exportFlags {
	x := &exportFlags{}
	fs.StringVar(&x.xlsx, "xlsx", "", "also write an Excel workbook `FILE`: summary, one sheet per grouping with a bar chart, agreement, every verdict row, disagreements, warnings")
	fs.StringVar(&x.html, "html", "", "also write a self-contained HTML report `FILE` (inline charts, sortable tables, capped verdict rows)")
	fs.StringVar(&x.charts, "charts", "", "also write the charts as PNG and SVG files into `DIR` (created if missing)")
	fs.IntVar(&x.htmlRows, "html-rows", htmlreport.DefaultMaxRows, "verdict rows (and disagreement rows) shown in the HTML report, `N`; 0 shows none")
	fs.BoolVar(&x.showPaths, "show-paths", false, "name input files by the path given, folders included (default: the base name only, so a forwarded report does not show your folders)")
	return x
}

// any reports whether a report file was asked for.
func (x *exportFlags) any() bool { return x.xlsx != "" || x.html != "" || x.charts != "" }

// needVerdicts reports whether the outputs asked for show verdict rows.
func (x *exportFlags) needVerdicts() bool { return x.xlsx != "" || x.html != "" }

// check rejects flag values that cannot work, as usage errors.
func (x *exportFlags) check(cmd string) error {
	if x.htmlRows < 0 {
		return usagef("%s: --html-rows must not be negative", cmd)
	}
	if x.xlsx != "" && x.xlsx == x.html {
		return usagef("%s: --xlsx and --html name the same file %q", cmd, x.xlsx)
	}
	for _, f := range []struct{ flag, path string }{{"--xlsx", x.xlsx}, {"--html", x.html}, {"--charts", x.charts}} {
		if f.path == "-" {
			// A workbook or a page on standard output would mix with the
			// report; "-" is read by report --from and written only by
			// score --out.
			return usagef("%s: %s -: standard output (-) is only for score --out; give %s a file name", cmd, f.flag, f.flag)
		}
		if f.path == "" || f.flag == "--charts" {
			continue
		}
		if err := refuseDir(f.path); err != nil {
			return usagef("%s: %s: %v", cmd, f.flag, err)
		}
	}
	return nil
}

// verdictSpool holds the verdict CSV of a run that did not ask for one
// (no --out), in a temporary file, so that the workbook and the HTML page
// can list every row without keeping them in memory.
type verdictSpool struct {
	f  *os.File
	bw *bufio.Writer
}

func newVerdictSpool() (*verdictSpool, error) {
	f, err := outfile.TempFile("evalbook-verdicts-*.csv")
	if err != nil {
		return nil, err
	}
	return &verdictSpool{f: f, bw: bufio.NewWriterSize(f, 1<<20)}, nil
}

func (v *verdictSpool) Write(p []byte) (int, error) { return v.bw.Write(p) }

// finish flushes the spool and returns its path.
func (v *verdictSpool) finish() (string, error) {
	if err := v.bw.Flush(); err != nil {
		return "", err
	}
	return v.f.Name(), v.f.Close()
}

// remove deletes the spool file.
func (v *verdictSpool) remove() { outfile.RemoveTemp(v.f) }

// exportScore writes the report files asked for by x (pkg/export),
// reading the verdict rows from the file verdicts ("" when there is none),
// and says on stderr what it wrote. Tables are extra tables shown after
// the agreement (e.g. a judge's review).
func exportScore(e *env, x *exportFlags, res *results.Score, tables []results.Table, verdicts, verdictsName string) error {
	done, err := export.Score(res, export.Options{XLSX: x.xlsx, HTML: x.html, Charts: x.charts, HTMLRows: x.htmlRows,
		Verdicts: verdicts, VerdictsName: verdictsName, Tables: tables})
	wrote(e, done)
	return err
}

// writeFigures writes each figure as NAME.png and NAME.svg in dir.
func writeFigures(e *env, dir string, figs []chart.Named) error {
	line, err := export.Figures(dir, figs)
	if err == nil {
		wrote(e, []string{line})
	}
	return err
}

// wrote says on stderr what was written.
func wrote(e *env, done []string) {
	for _, d := range done {
		fmt.Fprintf(e.stderr, "evalbook: wrote %s\n", d)
	}
}
