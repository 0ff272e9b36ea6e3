package output

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/evalbook/evalbook/internal/outfile"
	"github.com/evalbook/evalbook/pkg/chart"
	"github.com/evalbook/evalbook/pkg/htmlreport"
	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/xlsxreport"
)

// Files names the report files WriteScore writes ("" writes none of that
// kind) and what goes into them.
type Files struct {
	XLSX, HTML string
	// Charts is a directory that receives every chart as NAME.png and
	// NAME.svg; it is created when missing.
	Charts string
	// HTMLRows caps the verdict rows (and disagreement rows) the HTML page
	// shows; 0 shows none (htmlreport.DefaultMaxRows is the command's
	// default).
	HTMLRows int
	// Verdicts is the verdict file (CSV, as qa writes it) whose rows the
	// workbook and the page list, or ""; VerdictsName names it in them.
	Verdicts, VerdictsName string
	// Tables are extra tables shown after the agreement (e.g. a judge's
	// review).
	Tables []results.Table
}

// WriteScore writes a score result to the files opt names and returns one
// line per file or folder written, e.g. "report.xlsx (6 sheets, 284
// verdict rows, 43 disagreements)".
func WriteScore(res *results.Score, opt Files) ([]string, error) {
	var done []string
	open := func() (io.ReadCloser, error) {
		if opt.Verdicts == "" {
			return io.NopCloser(nil), nil
		}
		return os.Open(opt.Verdicts)
	}
	if opt.XLSX != "" {
		var info xlsxreport.Info
		err := outfile.Write(opt.XLSX, func(w io.Writer) error {
			f, err := open()
			if err != nil {
				return err
			}
			defer f.Close()
			xo := xlsxreport.Options{VerdictsName: opt.VerdictsName, Tables: opt.Tables}
			if opt.Verdicts != "" {
				xo.Verdicts = f
			}
			info, err = xlsxreport.Write(w, res, xo)
			return err
		})
		if err != nil {
			return done, fmt.Errorf("writing %s: %w", opt.XLSX, err)
		}
		done = append(done, fmt.Sprintf("%s (%s, %s, %s)", opt.XLSX, plural(len(info.Sheets), "sheet", "sheets"),
			plural(info.VerdictRows, "verdict row", "verdict rows"), plural(info.Disagreements, "disagreement", "disagreements")))
	}
	if opt.HTML != "" {
		err := outfile.Write(opt.HTML, func(w io.Writer) error {
			f, err := open()
			if err != nil {
				return err
			}
			defer f.Close()
			ho := htmlreport.Options{VerdictsName: opt.VerdictsName, MaxRows: opt.HTMLRows, Tables: opt.Tables}
			if opt.HTMLRows == 0 {
				ho.MaxRows = -1
			}
			if opt.Verdicts != "" {
				ho.Verdicts = f
			}
			return htmlreport.Write(w, res, ho)
		})
		if err != nil {
			return done, fmt.Errorf("writing %s: %w", opt.HTML, err)
		}
		done = append(done, opt.HTML)
	}
	if opt.Charts != "" {
		figs, err := chart.ScoreFigures(res)
		if err != nil {
			return done, err
		}
		line, err := WriteFigures(opt.Charts, figs)
		if err != nil {
			return done, err
		}
		done = append(done, line)
	}
	return done, nil
}

// WriteTables writes tables (any result's Tables()) as a workbook with a
// sheet per table to xlsx and as one HTML page to html, either "" to skip
// it, both under title, and returns one line per file written.
func WriteTables(title string, tables []results.Table, xlsx, html string) ([]string, error) {
	var done []string
	if xlsx != "" {
		if err := outfile.Write(xlsx, func(w io.Writer) error { return xlsxreport.WriteTables(w, title, tables) }); err != nil {
			return done, err
		}
		done = append(done, xlsx)
	}
	if html != "" {
		if err := outfile.Write(html, func(w io.Writer) error { return htmlreport.WriteTables(w, title, tables, false) }); err != nil {
			return done, err
		}
		done = append(done, html)
	}
	return done, nil
}

// WriteReport writes any result (a results.Report) as a workbook to
// xlsx and as one HTML page to html, either "" to skip it, in the report
// design every command shares: its headline (verdict, badge, figure
// cards) when it is a results.Headliner, its charts when a
// results.Charter, and its tables; under title unless it is
// results.Titled. It returns one line per file written.
func WriteReport(title string, r results.Report, xlsx, html string) ([]string, error) {
	var done []string
	if xlsx == "" && html == "" {
		return nil, nil
	}
	p := results.PageOf(title, r)
	if xlsx != "" {
		if err := outfile.Write(xlsx, func(w io.Writer) error { return xlsxreport.WriteReport(w, p) }); err != nil {
			return done, err
		}
		done = append(done, xlsx)
	}
	if html != "" {
		if err := outfile.Write(html, func(w io.Writer) error { return htmlreport.WriteReport(w, p, false) }); err != nil {
			return done, err
		}
		done = append(done, html)
	}
	return done, nil
}

// WriteFigures writes each figure as NAME.png and NAME.svg in dir (created
// when missing) and returns a line saying so, followed by the figures'
// warnings (one per code), each on its own line.
func WriteFigures(dir string, figs []chart.Named) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for _, f := range figs {
		for _, format := range []string{"png", "svg"} {
			path := filepath.Join(dir, f.Name+"."+format)
			if err := outfile.Write(path, func(w io.Writer) error { return f.Figure.Write(w, format) }); err != nil {
				return "", fmt.Errorf("writing %s: %w", path, err)
			}
		}
	}
	line := fmt.Sprintf("%s (PNG and SVG) to %s", plural(len(figs), "chart", "charts"), dir)
	// Labels the charts' fonts cannot draw (chart.Figure.Warnings): said
	// once per code, with the first message, after what was written.
	seen := map[string]bool{}
	for _, f := range figs {
		for _, w := range f.Figure.Warnings {
			if !seen[w.Code] {
				seen[w.Code] = true
				line += "\n  warning: " + w.Message
			}
		}
	}
	return line, nil
}
