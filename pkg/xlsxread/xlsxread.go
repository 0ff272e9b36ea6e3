// Package xlsxread reads response tables from Excel workbooks (.xlsx) for
// pkg/qa. It is an edge package: it needs excelize, which the core must
// not import, so it plugs into qa through qa.RegisterFormat when imported:
//
//	import _ "github.com/evalbook/evalbook/pkg/xlsxread"
//
// The first sheet is read, streamed row by row; its first row is the
// header. Cells are read as the text Excel shows, so numbers keep their
// displayed form. Rows are numbered as in Excel (the header is row 1).
package xlsxread

import (
	"bytes"
	"fmt"
	"io"

	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/xuri/excelize/v2"
)

func init() {
	qa.RegisterFormat("xlsx", func(r io.Reader, name string) (qa.RowSource, error) { return Open(r, name) })
}

// Source streams the rows of a workbook's first sheet.
type Source struct {
	name   string
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
	l = l.orDefault()
	data, err := readBounded(r, name, l)
	if err != nil {
		return nil, err
	}
	if err := checkArchive(data, name, l); err != nil {
		return nil, err
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{UnzipSizeLimit: l.MaxInflated})
	if err != nil {
		if f != nil {
			f.Close()
		}
		return nil, &qa.ParseError{File: name, Err: fmt.Errorf("not a readable .xlsx workbook: %v", err)}
	}
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		f.Close()
		return nil, &qa.ParseError{File: name, Err: qa.ErrEmptyFile}
	}
	rows, err := f.Rows(sheets[0])
	if err != nil {
		f.Close()
		return nil, &qa.ParseError{File: name, Err: err}
	}
	return &Source{name: name + " (sheet " + sheets[0] + ")", f: f, rows: rows}, nil
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
