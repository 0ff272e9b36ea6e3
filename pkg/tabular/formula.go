package tabular

import (
	"encoding/csv"
	"io"
	"strconv"
)

// Formula guarding ("CSV injection"): a spreadsheet opening a CSV file
// reads a cell that starts with =, +, -, @, a tab or a carriage return
// as a formula and runs it (=HYPERLINK(...), +1+2, @SUM(A1)). OWASP's
// advice (https://owasp.org/www-community/attacks/CSV_Injection) is to
// prefix such a cell with a single quote, which Excel and LibreOffice
// take as "this is text". Every CSV evalbook writes goes through this
// rule unless the caller asks for raw cells (--raw-csv).
//
// A plain number such as -2.5, +3 or -1e3 is left alone: it is data, a
// spreadsheet reads it as the number it is, and guarding it would turn
// numbers into text.

// FormulaGuard is the character GuardFormula puts before a risky cell.
const FormulaGuard = '\''

// IsFormulaStart reports whether b is a byte that makes a spreadsheet
// read a cell starting with it as a formula: = + - @ tab or CR.
func IsFormulaStart(b byte) bool {
	switch b {
	case '=', '+', '-', '@', '\t', '\r':
		return true
	}
	return false
}

// NeedsFormulaGuard reports whether a spreadsheet would read cell as a
// formula: it starts with = + - @ tab or CR and is not a plain number.
func NeedsFormulaGuard(cell string) bool {
	if cell == "" || !IsFormulaStart(cell[0]) {
		return false
	}
	return !isPlainNumber(cell)
}

// GuardFormula returns cell with a leading ' when NeedsFormulaGuard(cell),
// else cell unchanged.
func GuardFormula(cell string) string {
	if NeedsFormulaGuard(cell) {
		return string(FormulaGuard) + cell
	}
	return cell
}

// GuardRecord replaces, in place, every cell of rec that needs a guard
// by its guarded form, and returns how many it replaced.
func GuardRecord(rec []string) int {
	n := 0
	for i, c := range rec {
		if NeedsFormulaGuard(c) {
			rec[i] = string(FormulaGuard) + c
			n++
		}
	}
	return n
}

// isPlainNumber reports whether s is a signed decimal number (digits,
// an optional point and exponent), with nothing around it: -2.5, +3,
// -1e3. Inf, NaN, hex and underscores are not plain numbers.
func isPlainNumber(s string) bool {
	digits := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			digits = true
			continue
		}
		switch c {
		case '+', '-', '.', 'e', 'E':
			continue
		}
		return false
	}
	if !digits {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil || err.(*strconv.NumError).Err == strconv.ErrRange
}

// CSVOptions are the options of the CSV writers built on CSVWriter.
type CSVOptions struct {
	// Raw writes cells as they came; by default (false) a cell that
	// NeedsFormulaGuard is written with a leading '.
	Raw bool
}

// CSVWriter is an encoding/csv Writer that guards formula cells (unless
// Raw) and counts them.
type CSVWriter struct {
	*csv.Writer
	raw     bool
	guarded int
	buf     []string
}

// NewCSVWriter returns a CSVWriter writing to w.
func NewCSVWriter(w io.Writer, opt CSVOptions) *CSVWriter {
	return &CSVWriter{Writer: csv.NewWriter(w), raw: opt.Raw}
}

// Write writes one record, its risky cells guarded; rec is not changed.
func (w *CSVWriter) Write(rec []string) error {
	if !w.raw {
		for _, c := range rec {
			if NeedsFormulaGuard(c) {
				w.buf = append(w.buf[:0], rec...)
				w.guarded += GuardRecord(w.buf)
				rec = w.buf
				break
			}
		}
	}
	return w.Writer.Write(rec)
}

// Guarded returns how many cells Write guarded so far.
func (w *CSVWriter) Guarded() int { return w.guarded }

// UnguardFormula undoes GuardFormula: a cell that is ' followed by a
// cell that NeedsFormulaGuard loses the quote; any other cell is
// returned as it is. Readers of evalbook's own CSV files (verdict files)
// use it, so that a guarded file reads back as the rows that made it.
func UnguardFormula(cell string) string {
	if len(cell) > 1 && cell[0] == FormulaGuard && NeedsFormulaGuard(cell[1:]) {
		return cell[1:]
	}
	return cell
}

// UnguardRecord applies UnguardFormula to every cell of rec, in place.
func UnguardRecord(rec []string) {
	for i, c := range rec {
		if len(c) > 1 && c[0] == FormulaGuard {
			rec[i] = UnguardFormula(c)
		}
	}
}
