// Package xlsxread reads response tables from Excel workbooks (.xlsx) for
// pkg/qa. It is an edge package: it needs excelize, which the core must
// not import, so it plugs into qa through qa.RegisterFormat when imported:
//
//	import _ "github.com/evalbook/evalbook/pkg/xlsxread"
//
// The first sheet is read (another with qa.Options.Sheet, the command's
// --sheet), streamed row by row; its first row is the
// header. Cells are read as the text Excel shows, so numbers keep their
// displayed form. Rows are numbered as in Excel (the header is row 1).
package xlsxread

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/xuri/excelize/v2"
)

func init() {
	qa.RegisterFormat("xlsx", func(r io.Reader, name string) (qa.RowSource, error) { return Open(r, name) })
	qa.RegisterSheetFormat("xlsx", func(r io.Reader, name, sheet string) (qa.RowSource, error) {
		return OpenSheet(r, name, sheet, Limit)
	})
}

// Source streams the rows of a workbook's first sheet.
type Source struct {
	name   string
	sheet  string
	f      *excelize.File
	rows   *excelize.Rows
	row    int
	ncols  int
	header []string
}

// Open reads the workbook from r (excelize needs the whole file in
// memory to unzip it; rows are then streamed), within Limit: the ZIP
// archive is checked (declared sizes, ratios, then the bytes really
// inflated) before excelize opens it, so a zip bomb is refused in the
// time it takes to inflate at most Limit.MaxInflated bytes, with no
// more memory than the file.
func Open(r io.Reader, name string) (*Source, error) {
	return OpenLimits(r, name, Limit)
}

// OpenLimits is Open with the given limits (zero fields: DefaultLimits).
func OpenLimits(r io.Reader, name string, l Limits) (*Source, error) {
	return OpenSheet(r, name, "", l)
}

// OpenSheet is OpenLimits reading the sheet named sheet ("" for the
// first). A sheet the workbook does not have is an error listing those
// it has.
func OpenSheet(r io.Reader, name, sheet string, l Limits) (*Source, error) {
	l = l.orDefault()
	f, err := OpenFile(r, name, l)
	if err != nil {
		return nil, err
	}
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		f.Close()
		return nil, &qa.ParseError{File: name, Err: qa.ErrEmptyFile}
	}
	if sheet == "" {
		sheet = sheets[0]
	} else if !slices.Contains(sheets, sheet) {
		f.Close()
		return nil, &qa.ParseError{File: name, Err: fmt.Errorf("the workbook has no sheet %q; it has %s", sheet, quoteList(sheets))}
	}
	rows, err := f.Rows(sheet)
	if err != nil {
		f.Close()
		return nil, &qa.ParseError{File: name, Err: err}
	}
	return &Source{name: name + " (sheet " + sheet + ")", sheet: sheet, f: f, rows: rows}, nil
}

// Sheet returns the name of the sheet read.
func (s *Source) Sheet() string { return s.sheet }

// SheetsWithColumns returns the other sheets, in workbook order, whose
// header (first non-empty row) names every one of cols: where the data is
// when the sheet read lacks a column.
func (s *Source) SheetsWithColumns(cols []string) []string {
	var out []string
	for _, name := range s.f.GetSheetList() {
		if name == s.sheet {
			continue
		}
		rows, err := s.f.Rows(name)
		if err != nil {
			continue
		}
		for rows.Next() {
			head, err := rows.Columns()
			if err != nil {
				break
			}
			if slices.IndexFunc(head, func(c string) bool { return c != "" }) < 0 {
				continue
			}
			if !slices.ContainsFunc(cols, func(c string) bool { return !slices.Contains(head, c) }) {
				out = append(out, name)
			}
			break
		}
		rows.Close()
	}
	return out
}

// Close releases the workbook; Next does it at the end of the rows.
func (s *Source) Close() error {
	s.rows.Close()
	return s.f.Close()
}

func quoteList(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// Header returns the first row, trailing empty cells removed.
func (s *Source) Header() ([]string, error) {
	for s.rows.Next() {
		s.row++
		cols, err := s.rows.Columns()
		if err != nil {
			return nil, &qa.ParseError{File: s.name, Line: s.row, Err: err}
		}
		for len(cols) > 0 && cols[len(cols)-1] == "" {
			cols = cols[:len(cols)-1]
		}
		if len(cols) == 0 {
			continue
		}
		s.header = cols
		s.ncols = len(cols)
		return cols, nil
	}
	return nil, &qa.ParseError{File: s.name, Err: qa.ErrEmptyFile}
}

// Next returns the next non-empty row, padded to the header's width. A
// row with a value beyond the header's last column is an error.
func (s *Source) Next() ([]string, int, error) {
	for s.rows.Next() {
		s.row++
		cols, err := s.rows.Columns()
		if err != nil {
			return nil, s.row, &qa.ParseError{File: s.name, Line: s.row, Err: err}
		}
		empty := true
		for _, c := range cols {
			if c != "" {
				empty = false
				break
			}
		}
		if empty {
			continue
		}
		for len(cols) > s.ncols && cols[len(cols)-1] == "" {
			cols = cols[:len(cols)-1]
		}
		if len(cols) > s.ncols {
			return nil, s.row, &qa.ParseError{File: s.name, Line: s.row, Column: s.ncols + 1,
				Err: fmt.Errorf("%w: a value in column %d, beyond the header's %d columns", qa.ErrFieldCount, s.ncols+1, s.ncols)}
		}
		for len(cols) < s.ncols {
			cols = append(cols, "")
		}
		return cols, s.row, nil
	}
	if err := s.rows.Error(); err != nil {
		return nil, s.row, err
	}
	s.rows.Close()
	s.f.Close()
	return nil, s.row, io.EOF
}
