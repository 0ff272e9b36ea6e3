// Package xlsxreport renders a result of pkg/results as an Excel workbook
// (XLSX, written with excelize) that a person can open, filter, print and
// forward without running anything.
//
// A score workbook has these sheets, in order:
//
//   - Summary: title, provenance (tool, creation time, dataset path,
//     format, hash and rows), the settings that change a figure, the key
//     figures (combined accuracy with its interval per metric, blank
//     responses, empty golden answers), a guide to the other sheets, and
//     what each metric means, in words.
//   - By <grouping>: one sheet per grouping (Domain, model / language, ...)
//     with n, blank, empty golden and, per metric, correct, accuracy and
//     the interval per group plus a combined row, and a native Excel bar
//     chart of accuracy per group, one series per metric, with the
//     intervals drawn as error bars.
//   - Agreement: for each pair of binary metrics, the rows in each bucket
//     (both pass, neither, only the first, only the second) overall and
//     per group, and the example rows of each bucket.
//   - Verdicts: every row of the verdict file, as an Excel table with a
//     filter on every column, a frozen header, wrapped text, and pass/fail
//     colours on the metric columns. Past Excel's 1,048,576 rows a sheet,
//     the rows continue on Verdicts (2), Verdicts (3), ... and the Summary
//     and Warnings say so.
//   - Disagreements: the rows where the binary metrics disagree, laid out
//     like Verdicts, for review.
//   - Warnings: every warning of the result, with counts and first lines,
//     and notes from rendering (continued sheets, clipped cells).
//
// Model output is untrusted: every text cell from the data is written as
// an inline string, never as a formula, so a response such as
// "=HYPERLINK(...)" or "@SUM(A1)" stays text. Only figures computed by
// evalbook are written as numbers. Every sheet prints landscape, one page
// wide, with its header row repeated on each page.
package xlsxreport

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// MaxRows is the number of rows of an Excel worksheet, header included.
const MaxRows = excelize.TotalRows

// Options configures Write. The zero value writes a workbook without
// Verdicts and Disagreements sheets.
type Options struct {
	// Rows, if set, are the result's scored rows, as values: a
	// results.RowTable that qa.Options.Rows filled, a
	// results.VerdictReader over a verdict file, or any results.Rows
	// whose rows' strings stay valid (slices may be reused). They fill
	// the Verdicts and Disagreements sheets, read once, as a stream.
	Rows results.Rows
	// Verdicts, if set and Rows is not, is a verdict file read from disk
	// (the CSV of `evalbook score --out`), read as Rows through
	// results.NewVerdictReader, which checks it against the result.
	Verdicts io.Reader
	// VerdictsName names Rows or Verdicts in error messages.
	VerdictsName string
	// RowsPerSheet is the number of rows per verdict sheet, header
	// included; 0 means MaxRows. Tests set it low to check continuation.
	RowsPerSheet int
	// Tables are extra tables (e.g. what a judge says per agreement
	// bucket), each on a sheet of its own after Agreement, named after
	// its title. A title that is one of the workbook's own sheets
	// (Warnings, Verdicts, ...) gets " (table)" added, so any result's
	// Tables() can be added.
	Tables []results.Table
}

// Info tells the caller what was written.
type Info struct {
	Sheets        []string // in workbook order
	VerdictRows   int
	Disagreements int
	// Clipped counts text cells longer than Excel's 32,767 characters,
	// which Excel cannot hold and which were cut.
	Clipped int
}

// book is one workbook being written.
type book struct {
	f     *excelize.File
	s     *results.Score
	opt   Options
	st    styles
	info  Info
	notes []string // rendering notes for Summary and Warnings
	// printTitles maps a sheet to its header row (1-based), set as the
	// sheet's repeated print rows once the sheet order is final.
	printTitles map[string]int
	// printAreas maps a sheet to its print area, set with printTitles.
	printAreas map[string]string
	// printedRows maps a row sheet whose print area holds only its first
	// printedRows rows to the rows it has.
	printedRows map[string]int
	// rowSheets holds the sheets of rows to read (a table with a
	// results.Review): they print at full size, as many pages as they need.
	rowSheets map[string]bool
	// tableTitles maps the sheet of each extra table to its title.
	tableTitles map[string]string
	// rows are the verdict rows (Options.Rows, or a reader over
	// Options.Verdicts), nil without either.
	rows  results.Rows
	order []string
	// fonts holds the styles copied into an Indic font (scriptfont.go).
	fonts *fontStyles
}

// grid returns a grid writing sheet, whose rows holding Indic text are
// written wholly in that script's font (scriptfont.go).
func (b *book) grid(sheet string) *grid {
	if b.fonts == nil {
		b.fonts = &fontStyles{f: b.f}
	}
	return &grid{f: b.f, sheet: sheet, fonts: b.fonts}
}

// Write renders s as an XLSX workbook to w.
func Write(w io.Writer, s *results.Score, opt Options) (Info, error) {
	if opt.RowsPerSheet <= 0 || opt.RowsPerSheet > MaxRows {
		opt.RowsPerSheet = MaxRows
	}
	if opt.RowsPerSheet < 2 {
		opt.RowsPerSheet = 2
	}
	if opt.VerdictsName == "" {
		opt.VerdictsName = "verdicts"
	}
	b := &book{f: excelize.NewFile(), s: s, opt: opt, printTitles: map[string]int{}, printAreas: map[string]string{}, printedRows: map[string]int{}, tableTitles: map[string]string{}}
	defer b.f.Close()
	if err := b.write(); err != nil {
		return b.info, err
	}
	if err := b.save(w); err != nil {
		return b.info, err
	}
	return b.info, nil
}

// save writes the workbook to w. excelize builds the whole file in a
// bytes.Buffer before copying it out, deflates on one core, and orders
// some parts by map iteration; it is handed our own zip writer over w
// instead (parallelZip), which deflates at BestSpeed on all cores and
// writes the parts in a fixed order, so that the same results always give
// the same bytes. The buffer excelize passes stays empty.
func (b *book) save(w io.Writer) error {
	var zw *parallelZip
	b.f.ZipWriter = func(io.Writer) excelize.ZipWriter {
		zw = newParallelZip(w)
		return zw
	}
	if err := b.f.Write(io.Discard); err != nil {
		if zw != nil {
			zw.discard()
		}
		return err
	}
	if zw == nil {
		return errors.New("xlsxreport: excelize did not ask for a zip writer")
	}
	return nil
}

func (b *book) write() error {
	var err error
	if b.st, err = newStyles(b.f); err != nil {
		return err
	}
	if err := b.f.SetSheetName("Sheet1", "Summary"); err != nil {
		return err
	}
	b.order = append(b.order, "Summary")
	for _, by := range groupings(b.s) {
		if err := b.groupSheet(by); err != nil {
			return fmt.Errorf("grouping %s: %w", by, err)
		}
	}
	if len(b.s.Agreement) > 0 {
		if err := b.agreementSheet(); err != nil {
			return err
		}
	}
	for i := range b.opt.Tables {
		t := &b.opt.Tables[i]
		if err := b.tableSheet(t); err != nil {
			return err
		}
	}
	if b.opt.Rows != nil {
		b.rows = b.opt.Rows
	} else if b.opt.Verdicts != nil {
		vr, err := results.NewVerdictReader(b.opt.Verdicts, b.opt.VerdictsName, b.s)
		if err != nil {
			return err
		}
		b.rows = vr
	}
	if b.rows != nil {
		if err := b.verdictSheets(); err != nil {
			return err
		}
	}
	if err := b.warningsSheet(); err != nil {
		return err
	}
	if err := b.summarySheet(); err != nil {
		return err
	}
	return b.finish()
}

// finish puts the sheets in order, sets the repeated print rows (defined
// names are scoped by sheet position, so only once the order is final),
// makes Summary the active sheet and sets the document properties.
func (b *book) finish() error {
	for i, name := range b.order {
		list := b.f.GetSheetList()
		if list[i] != name {
			if err := b.f.MoveSheet(name, list[i]); err != nil {
				return err
			}
		}
	}
	for _, name := range b.order {
		if row, ok := b.printTitles[name]; ok {
			if err := b.f.SetDefinedName(&excelize.DefinedName{
				Name:     "_xlnm.Print_Titles",
				RefersTo: fmt.Sprintf("%s!$%d:$%d", quoteSheet(name), row, row),
				Scope:    name,
			}); err != nil {
				return err
			}
		}
		if area, ok := b.printAreas[name]; ok {
			if err := b.f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Area", RefersTo: area, Scope: name}); err != nil {
				return err
			}
		}
		if err := b.fitShort(name); err != nil {
			return err
		}
	}
	b.f.SetActiveSheet(0)
	b.info.Sheets = b.f.GetSheetList()
	props := &excelize.DocProperties{Title: title(b.s), Subject: "evaluation report", Creator: b.s.Tool}
	if b.s.Dataset.Path != "" {
		props.Description = fmt.Sprintf("Scores of %s (file hash %s)", b.s.Dataset.Path, b.s.Dataset.Hash)
	}
	if b.s.Created != nil {
		props.Created = b.s.Created.UTC().Format("2006-01-02T15:04:05Z")
		props.Modified = props.Created
	}
	return b.f.SetDocProps(props)
}

// title is the report's title: the result's own, or one naming the data
// by its file's base name (never its folders).
func title(s *results.Score) string {
	if s.Title != "" {
		return s.Title
	}
	return "Evaluation report: " + results.DisplayName(s.Dataset.Path)
}

// groupings lists the distinct By values of s.Groups in order.
func groupings(s *results.Score) []string {
	var out []string
	seen := map[string]bool{}
	for _, g := range s.Groups {
		if !seen[g.By] {
			seen[g.By] = true
			out = append(out, g.By)
		}
	}
	return out
}

// addSheet creates a sheet (normal mode), records its place in the order,
// and sets the print layout. A name already in the workbook is an error
// (excelize's NewSheet would hand back the existing sheet, and the same
// sheet would then be written twice and ordered twice).
func (b *book) addSheet(name string) error {
	if err := b.newSheet(name); err != nil {
		return err
	}
	b.order = append(b.order, name)
	return b.printLayout(name)
}

// printLayout makes a sheet print landscape, one page wide and as many
// pages tall as needed, with the sheet name and page numbers.
func (b *book) printLayout(sheet string) error {
	yes := true
	if err := b.f.SetSheetProps(sheet, &excelize.SheetPropsOptions{FitToPage: &yes}); err != nil {
		return err
	}
	landscape, one, zero, a4 := "landscape", 1, 0, 9
	if err := b.f.SetPageLayout(sheet, &excelize.PageLayoutOptions{
		Size: &a4, Orientation: &landscape, FitToWidth: &one, FitToHeight: &zero,
	}); err != nil {
		return err
	}
	m, h := 0.5, 0.3
	if err := b.f.SetPageMargins(sheet, &excelize.PageLayoutMarginsOptions{
		Left: &m, Right: &m, Top: &m, Bottom: &m, Header: &h, Footer: &h,
	}); err != nil {
		return err
	}
	return b.f.SetHeaderFooter(sheet, &excelize.HeaderFooterOptions{
		OddHeader: "&L&A",
		OddFooter: "&Levalbook&RPage &P of &N",
	})
}

// onePage is the most rows a sheet may print on one page, shrunk to fit:
// past it, a sheet prints one page wide and as many tall as it needs.
const onePage = 60

// fitShort makes a sheet whose printed rows (its print area's, or its
// used range's) are at most onePage print on one page, as a table and
// its chart belong together. The Summary's paragraphs print at full
// size (two pages), and row sheets (Verdicts, Disagreements) keep theirs.
func (b *book) fitShort(name string) error {
	rows := 0
	if _, ok := b.printedRows[name]; ok || name == "Summary" || b.rowSheets[name] {
		return nil
	}
	if area, ok := b.printAreas[name]; ok {
		if i := strings.LastIndexByte(area, '$'); i >= 0 {
			fmt.Sscan(area[i+1:], &rows)
		}
	} else {
		// The sheet's rows as written (its dimension, "A1" until the file
		// is saved, said one row, so every sheet was shrunk to one page: a
		// 62-row table printed unreadably small).
		all, err := b.f.GetRows(name)
		if err != nil {
			return err
		}
		rows = len(all)
	}
	if rows == 0 || rows > onePage {
		return nil
	}
	one := 1
	return b.f.SetPageLayout(name, &excelize.PageLayoutOptions{FitToHeight: &one})
}

// newSheet creates a sheet named name, which must not be in use.
func (b *book) newSheet(name string) error {
	if idx, _ := b.f.GetSheetIndex(name); idx >= 0 {
		return fmt.Errorf("xlsxreport: two sheets named %q", name)
	}
	_, err := b.f.NewSheet(name)
	return err
}

// ownSheets are the sheets a workbook names itself, and Excel's reserved
// "History". An extra table (Options.Tables) titled like one of them, as a
// comparison's "Warnings" table is, must not take its name: the workbook
// creates its own Warnings, Verdicts and Disagreements sheets after the
// tables. Compared case-insensitively, as Excel compares sheet names.
var ownSheets = []string{"Summary", "Contents", "Agreement", "Warnings", "Verdicts", "Disagreements", "History"}

// ownSheet reports whether name is one of ownSheets, or the name of a
// continuation sheet of the verdict rows ("Verdicts (2)",
// "Disagreements (3)"), which are created after the extra tables.
func ownSheet(name string) bool {
	for _, own := range ownSheets {
		if strings.EqualFold(name, own) {
			return true
		}
	}
	for _, own := range []string{"Verdicts (", "Disagreements ("} {
		if len(name) > len(own) && strings.EqualFold(name[:len(own)], own) && strings.HasSuffix(name, ")") {
			return true
		}
	}
	return false
}

// tableSheetName is the sheet name of an extra table titled title: its
// sheetName, with " (table)" added when the title is one of the workbook's
// own sheet names, so that every result's tables can be added to any
// workbook.
func (b *book) tableSheetName(title string) string {
	if name := cleanSheetName(title); ownSheet(name) {
		return b.sheetName(name + " (table)") // own names are short: the suffix fits
	}
	return b.sheetName(title)
}

// cleanSheetName replaces the characters a sheet name cannot hold
// (: \ / ? * [ ] and the apostrophe) by '-', control characters by
// spaces, and an empty name by "Sheet".
func cleanSheetName(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case ':', '\\', '/', '?', '*', '[', ']', '\'':
			return '-'
		}
		if r < ' ' {
			return ' '
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if s == "" {
		s = "Sheet"
	}
	return s
}

// sheetName makes a valid, unused sheet name from s: cleanSheetName's,
// at most 31 characters, and " (2)", " (3)", ... added while the name is
// in use.
func (b *book) sheetName(s string) string {
	s = cleanSheetName(s)
	base := s
	for n := 2; ; n++ {
		if utf8.RuneCountInString(s) > 31 {
			s = cutWords(s, 31)
		}
		if idx, _ := b.f.GetSheetIndex(s); idx < 0 && !strings.EqualFold(s, "History") {
			return s
		}
		suffix := fmt.Sprintf(" (%d)", n)
		r := []rune(base)
		if len(r)+len(suffix) > 31 {
			r = r[:31-len(suffix)]
		}
		s = string(r) + suffix
	}
}

// cutWords shortens s to at most n characters, at the end of a word
// when one ends in the second half (a sheet name cut mid-word reads as
// a typo), and without a trailing separator.
func cutWords(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := n
	for i := n; i > n/2; i-- {
		if r[i] == ' ' || r[i] == '-' || r[i] == '_' || r[i] == '.' {
			cut = i
			break
		}
	}
	return strings.TrimRight(string(r[:cut]), " -_.>")
}

// quoteSheet quotes a sheet name for a cell reference.
func quoteSheet(name string) string {
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}

// cell returns the A1 name of column col (1-based) and row.
func cell(col, row int) string {
	c, err := excelize.CoordinatesToCellName(col, row)
	if err != nil {
		panic("xlsxreport: " + err.Error()) // columns and rows are computed here, never from data
	}
	return c
}

// colName returns the letters of column col (1-based).
func colName(col int) string {
	c, err := excelize.ColumnNumberToName(col)
	if err != nil {
		panic("xlsxreport: " + err.Error())
	}
	return c
}

// pct formats a rate as a percentage for prose.
func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// ciText describes the interval setting in words.
func ciText(s *results.Score) string {
	if s.Settings.CI == "none" || s.Settings.CI == "" {
		return "no interval"
	}
	t := fmt.Sprintf("%g%% %s interval", 100*s.Settings.Confidence, s.Settings.CI)
	if s.Settings.Cluster != "" {
		t += ", clustered by " + s.Settings.Cluster
	}
	return t
}
