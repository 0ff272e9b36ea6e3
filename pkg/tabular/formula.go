package tabular

import "strconv"

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
