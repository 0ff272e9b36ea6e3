package labelbook

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/pkg/xlsxread"
	"github.com/xuri/excelize/v2"
)

// CellError is a workbook cell the import refuses: the file, the sheet,
// the cell (A1 style) and why.
type CellError struct {
	File, Sheet, Cell string
	Err               error
}

func (e *CellError) Error() string {
	where := e.File
	if e.Sheet != "" {
		where += " (sheet " + e.Sheet + ")"
	}
	if e.Cell != "" {
		where += " cell " + e.Cell
	}
	return where + ": " + e.Err.Error()
}

func (e *CellError) Unwrap() error { return e.Err }

// Errors a CellError wraps, for errors.Is.
var (
	ErrNotLabelBook = errors.New("not a labelling workbook of evalbook label export")
	ErrEdited       = errors.New("edited")
	ErrValue        = errors.New("not a label of the list")
)

// Workbook is one labeller's filled workbook as read back.
type Workbook struct {
	File string
	// Labeller is the name in cell B1 of the Labels sheet, or the file's
	// name without its extension when B1 is empty (NameFromFile).
	Labeller     string
	NameFromFile bool
	By           string
	Source       string
	Seed         uint64
	Digest       string
	Items        []Item
	// Labels holds each item's label (pass, fail, unsure, or "" when
	// the cell is empty) and Notes its note, in Items' order.
	Labels []string
	Notes  []string
}

// ReadWorkbook reads a workbook written by WriteWorkbook and filled in,
// within the limits l (zero: xlsxread.DefaultLimits). It refuses, with a
// *CellError naming the cell: a workbook without the hidden sheet or
// whose hidden sheet was changed (its digest), an id of the Labels sheet
// that is not the one exported in its row (edited, sorted, a row
// inserted or deleted), a label that is not pass, fail, unsure or empty,
// a label cell holding a formula, and a filled row below the exported
// ones.
func ReadWorkbook(r io.Reader, name string, l xlsxread.Limits) (*Workbook, error) {
	f, err := xlsxread.OpenFile(r, name, l)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	wb := &Workbook{File: name}
	bad := func(sheet, c string, format string, a ...any) error {
		return &CellError{File: name, Sheet: sheet, Cell: c, Err: fmt.Errorf(format, a...)}
	}
	meta, err := f.GetRows(SheetMeta)
	if err != nil {
		return nil, &CellError{File: name, Err: fmt.Errorf("%w: no sheet %q (sheets: %s); label the workbook label export wrote", ErrNotLabelBook, SheetMeta, strings.Join(f.GetSheetList(), ", "))}
	}
	at := func(rows [][]string, row, col int) string {
		if row-1 < len(rows) && col-1 < len(rows[row-1]) {
			return rows[row-1][col-1]
		}
		return ""
	}
	if v := at(meta, metaFormatRow, 2); v != Format {
		return nil, bad(SheetMeta, cell(2, metaFormatRow), "%w: format %s, want %s", ErrNotLabelBook, tabular.Quote(v), Format)
	}
	wb.By = at(meta, metaByRow, 2)
	wb.Source = at(meta, metaSourceRow, 2)
	if wb.Seed, err = strconv.ParseUint(at(meta, metaSeedRow, 2), 10, 64); err != nil {
		return nil, bad(SheetMeta, cell(2, metaSeedRow), "%w: the seed was edited; use the workbook as exported", ErrEdited)
	}
	wb.Digest = at(meta, metaDigestRow, 2)
	n, err := strconv.Atoi(at(meta, metaItemsRow, 2))
	if err != nil || n < 0 || n > MaxItems {
		return nil, bad(SheetMeta, cell(2, metaItemsRow), "%w: the item count was edited; use the workbook as exported", ErrEdited)
	}
	labelCol, _, err := excelize.CellNameToCoordinates(at(meta, metaLabelRow, 2) + "1")
	if err != nil {
		return nil, bad(SheetMeta, cell(2, metaLabelRow), "%w: the label column was edited; use the workbook as exported", ErrEdited)
	}
	for i := range n {
		r := metaFirstItem + i
		it := Item{ID: at(meta, r, 2), Group: at(meta, r, 3), Judge: at(meta, r, 4) == "1"}
		it.Line, _ = strconv.Atoi(at(meta, r, 5))
		if at(meta, r, 4) != "0" && at(meta, r, 4) != "1" {
			return nil, bad(SheetMeta, cell(4, r), "%w: the judge's verdict was edited; use the workbook as exported", ErrEdited)
		}
		wb.Items = append(wb.Items, it)
	}
	if got := digest(wb.By, wb.Items); got != wb.Digest {
		return nil, bad(SheetMeta, cell(2, metaDigestRow), "%w: the hidden sheet's ids, groups or verdicts do not match its digest; use the workbook as exported (or export again)", ErrEdited)
	}

	rows, err := f.GetRows(SheetLabels)
	if err != nil {
		return nil, &CellError{File: name, Err: fmt.Errorf("%w: no sheet %q (sheets: %s); do not rename it", ErrNotLabelBook, SheetLabels, strings.Join(f.GetSheetList(), ", "))}
	}
	if v := normLabel(at(rows, headerRow, labelCol)); v != "label" {
		return nil, bad(SheetLabels, cell(labelCol, headerRow), "%w: the header was edited (%s where the export wrote \"label\"); use the workbook as exported", ErrEdited, tabular.Quote(v))
	}
	wb.Labeller = strings.TrimSpace(at(rows, nameRow, 2))
	if wb.Labeller == "" {
		base := filepath.Base(name)
		wb.Labeller, wb.NameFromFile = strings.TrimSuffix(base, filepath.Ext(base)), true
	}
	for i, it := range wb.Items {
		r := firstRow + i
		if got := at(rows, r, 2); got != it.ID {
			hint := "put it back"
			if got == "" {
				hint = "the row was deleted or moved; put it back"
			}
			return nil, bad(SheetLabels, cell(2, r), "%w id: %s where the export wrote %s in this row; ids must not be edited, sorted or moved (%s, or label a fresh export)",
				ErrEdited, tabular.Quote(got), tabular.Quote(it.ID), hint)
		}
		c := cell(labelCol, r)
		raw := at(rows, r, labelCol)
		if fm, _ := f.GetCellFormula(SheetLabels, c); fm != "" {
			return nil, bad(SheetLabels, c, "%w: the label cell holds a formula; choose pass, fail or unsure from the list", ErrValue)
		}
		v := normLabel(raw)
		if !validLabel(v) {
			return nil, bad(SheetLabels, c, "%w: %s is not pass, fail or unsure (the drop-down's values); choose one, or leave the cell empty", ErrValue, tabular.Quote(tabular.GuardFormula(raw)))
		}
		wb.Labels = append(wb.Labels, v)
		wb.Notes = append(wb.Notes, at(rows, r, labelCol+1))
	}
	for r := firstRow + n; r <= len(rows); r++ {
		for c, v := range rows[r-1] {
			if strings.TrimSpace(v) != "" {
				return nil, bad(SheetLabels, cell(c+1, r), "%w: row %d is not one the export wrote (%d items end at row %d); labels go in the exported rows only",
					ErrEdited, r, n, firstRow+n-1)
			}
		}
	}
	return wb, nil
}

// ReadWorkbookFile is ReadWorkbook of the named file.
func ReadWorkbookFile(name string, l xlsxread.Limits) (*Workbook, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadWorkbook(f, name, l)
}
