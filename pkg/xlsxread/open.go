package xlsxread

import (
	"bytes"
	"fmt"
	"io"

	"github.com/evalbook/evalbook/pkg/qa"
	"github.com/xuri/excelize/v2"
)

// OpenFile reads a whole workbook from r within l (zero fields:
// DefaultLimits) and opens it with excelize, for a reader that needs
// more than one sheet's rows (pkg/labelbook reads two sheets and their
// cells). The archive is checked as Open checks it, before excelize sees
// it; errors are *qa.ParseError naming name. The caller closes the file.
func OpenFile(r io.Reader, name string, l Limits) (*excelize.File, error) {
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
	return f, nil
}
