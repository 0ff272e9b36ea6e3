// Package qa loads response tables (a golden answer and a model response
// per row) and scores them: per-row verdicts under any metrics of
// pkg/score, per-group and combined accuracy with intervals, and the
// agreement between metrics.
//
// Input is CSV (UTF-8 with or without a byte-order mark, LF or CRLF),
// JSONL (one object per line), or any format registered with
// RegisterFormat. The XLSX reader is package
// github.com/evalbook/evalbook/pkg/xlsxread, kept out of this package
// because it needs excelize: import it (for its side effect, with
// `import _ "github.com/evalbook/evalbook/pkg/xlsxread"`) to score .xlsx
// files. Files are streamed: CSV is cut into blocks of whole
// records, scored on all cores, and written back in file order, so a
// million-row file needs a few megabytes of memory.
//
// Scored rows are values (Row, which is results.Row): Options.Rows
// receives each one in file order while Score computes the figures, and
// Rows is the same stream as an iter.Seq2 for a range loop. The verdict
// file of Options.Verdicts is written from those rows; a
// results.RowTable keeps them for the XLSX, HTML, DataFrame and
// notebook renderers, so nothing in the library parses its own CSV back.
package qa

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"runtime"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/score"
	"github.com/evalbook/evalbook/pkg/stats"
	"github.com/evalbook/evalbook/pkg/tabular"
	"github.com/evalbook/evalbook/pkg/textnorm"
)

// Options configures Score. The zero value scores the default metrics on
// the default columns, grouped by Domain, with 95% Wilson intervals.
type Options struct {
	// Columns names the input columns; zero fields take DefaultColumns.
	Columns Columns
	// Metrics to score, in output order; nil means score.Default. A
	// non-nil list must be non-empty, without nil entries or repeats.
	Metrics []*score.Metric
	// Profile normalises golden answers and responses before scoring.
	Profile textnorm.Profile
	// By lists the groupings: each is one column, or several columns
	// for a cross grouping. nil means [[Domain]]; an empty non-nil
	// slice means no groups, only the combined figures. A grouping must
	// name at least one column, no column twice and no column "", and
	// no grouping may repeat another.
	By [][]string
	// Interval settings.
	CI         string  // "wilson" (default), "clopper-pearson", "jeffreys", "beta", "bootstrap", "bca" or "none"
	Confidence float64 // default 0.95
	Resamples  int     // bootstrap resamples, default 10000
	Seed       uint64  // bootstrap seed
	Cluster    string  // column whose values cluster rows (clustered intervals)
	// Examples is the number of example rows kept per agreement bucket:
	// 0 means the default, 5; a negative number means none.
	Examples int
	// RefSeparator splits a Columns.References cell into references;
	// empty means each cell is a JSON array of strings.
	RefSeparator string
	// Sheet is the sheet of a workbook input to read (the command's
	// --sheet); "" reads the first. Only a format registered with
	// RegisterSheetFormat (xlsx) takes it.
	Sheet string
	// RepairUTF8 replaces invalid UTF-8 with U+FFFD and counts the rows,
	// instead of failing.
	RepairUTF8 bool
	// Verdicts, if set, receives the verdict file as CSV: the input
	// columns, one column per metric, then matching_words and
	// total_golden_words (with word_overlap), blank_response and
	// empty_golden. It is written from the same rows Rows receives.
	Verdicts io.Writer
	// RawCSV writes the verdict file's cells as they came. By default
	// (false) a cell a spreadsheet would read as a formula
	// (tabular.NeedsFormulaGuard: a leading = + - @ tab or CR, not a
	// plain number) is written with a leading ', as OWASP recommends,
	// and the result carries a CodeFormulaCells warning with the count.
	RawCSV bool
	// KeepFailedRows scores the rows whose ErrorColumn cell is set (a
	// generate call that failed) like any other, for a caller that
	// handles them itself (pkg/judge does not send them); by default they
	// are left out and counted in a CodeGenerationFailed warning.
	KeepFailedRows bool
	// Rows, if set, is called with every scored row, in file order, on
	// the goroutine that called Score, as the rows are scored (batches
	// are scored on all cores and handed out in order, so memory stays
	// flat however long the file). The *Row and its slices are reused
	// for the next row: Clone the row to keep it (results.RowTable.Add
	// does). The strings in it are the row's own and never change, so a
	// field or group value may be kept as it is. An error from Rows stops
	// scoring and
	// Score returns it. When the input is bad, Rows has received every
	// row before the bad record, and Score returns the *ParseError.
	Rows func(*Row) error
	// RowsCopy says that Rows keeps nothing of a row past its return
	// without copying it (as a Parquet writer copies each value into
	// its column, and Row.Clone copies the strings). Score then hands
	// Rows the fields as views of its read buffer, valid only until Rows
	// returns, instead of copying every field into a string of the
	// row's own: one copy of the input less.
	RowsCopy bool
	// Delivered, when set, is called once every row has been handed
	// out (Rows, Verdicts) and the input read to its end, when Score can
	// no longer fail: a caller may then put its output files in place
	// (pkg/output does, in the background) while Score sums up the run.
	// It is not called when Score returns an error.
	Delivered func()
	// Workers is the number of scoring goroutines; 0 means GOMAXPROCS.
	Workers int
	// Format forces the input format ("csv", "jsonl", or a registered one);
	// empty means decide by file extension.
	Format string
	// Advice maps a warning code to the advice that closes its message,
	// in place of pkg/qa's own, which can name no command flag: a
	// command passes the flag that acts on the warning, as score passes
	// {"not_nfc": "consider --normalize nfc (or indic)"}. It applies to
	// the warnings pkg/qa words and advises on: CodeNotNFC and
	// CodeNoInterval; for CodeFormulaCells it says where the guarded
	// cells went, for both numbers ("got a leading ' in ..."), when
	// Verdicts is not a verdict file. nil keeps pkg/qa's advice.
	Advice map[string]string
}

func (o *Options) fill() {
	c := &o.Columns
	d := DefaultColumns
	for _, f := range []struct {
		dst *string
		def string
	}{
		{&c.Question, d.Question}, {&c.Answer, d.Answer}, {&c.Domain, d.Domain}, {&c.Response, d.Response},
		{&c.ID, d.ID}, {&c.Language, d.Language}, {&c.Model, d.Model},
	} {
		if *f.dst == "" {
			*f.dst = f.def
		}
	}
	if o.Metrics == nil {
		for _, id := range score.Default {
			m, _ := score.Lookup(id)
			o.Metrics = append(o.Metrics, m)
		}
	}
	if o.By == nil {
		o.By = [][]string{{c.Domain}}
	}
	if o.CI == "" {
		o.CI = "wilson"
	}
	if o.Confidence == 0 {
		o.Confidence = 0.95
	}
	if o.Resamples == 0 {
		o.Resamples = 10000
	}
	if o.Examples == 0 {
		o.Examples = 5
	} else if o.Examples < 0 {
		o.Examples = 0
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
}

func (o *Options) validate() error {
	if o.CI != "bootstrap" && o.CI != "bca" && o.CI != "none" && !stats.IsProportionMethod(o.CI) {
		return fmt.Errorf("unknown interval method %q (want wilson, clopper-pearson, jeffreys, beta, bootstrap, bca or none)", o.CI)
	}
	if o.CI == "bca" && o.Cluster != "" {
		return fmt.Errorf("bca intervals do not resample clusters; with a cluster column use bootstrap or wilson")
	}
	if !(o.Confidence > 0 && o.Confidence < 1) {
		return fmt.Errorf("confidence %v is not between 0 and 1 (e.g. 0.95)", o.Confidence)
	}
	if o.Resamples < 1 {
		return fmt.Errorf("resamples must be positive, got %d", o.Resamples)
	}
	if len(o.Metrics) == 0 {
		return fmt.Errorf("no metrics to score: Options.Metrics is empty (nil scores %s)", strings.Join(score.Default, ", "))
	}
	seen := map[string]bool{}
	for i, m := range o.Metrics {
		if m == nil {
			return fmt.Errorf("Options.Metrics[%d] is nil", i)
		}
		if seen[m.ID] {
			return fmt.Errorf("Options.Metrics lists %q twice", m.ID)
		}
		seen[m.ID] = true
	}
	groupings := map[string]bool{}
	for i, g := range o.By {
		if len(g) == 0 {
			return fmt.Errorf("Options.By[%d] is an empty grouping: name at least one column (an empty Options.By means no groups)", i)
		}
		cols := map[string]bool{}
		for _, c := range g {
			if c == "" {
				return fmt.Errorf("Options.By[%d] has an empty column name", i)
			}
			if cols[c] {
				return fmt.Errorf("Options.By[%d] names column %q twice", i, c)
			}
			cols[c] = true
		}
		key := strings.Join(g, "\x00")
		if groupings[key] {
			return fmt.Errorf("Options.By lists the grouping %s twice", strings.Join(g, " / "))
		}
		groupings[key] = true
	}
	return nil
}

// A Row is a scored row as a value (see results.Row): Options.Rows and
// the sequence of Rows yield them.
type Row = results.Row

// Rows scores the response table read from r (as Score does, with opt)
// and yields its scored rows in file order; a bad input or a failed
// read is yielded once, with a nil row, after the rows before it, and
// ends the sequence. Breaking out of the loop stops scoring. Each row
// is reused for the next one, as with Options.Rows (Clone to keep it);
// the figures of the Score are not kept: use Score with Options.Rows to
// have both. opt.Rows is ignored; opt.RowsCopy says that the loop
// copies what it keeps of a row.
func Rows(ctx context.Context, r io.Reader, name string, opt Options) iter.Seq2[*Row, error] {
	return func(yield func(*Row, error) bool) {
		stopped := false
		opt.Rows = func(row *Row) error {
			if !yield(row, nil) {
				stopped = true
				return errStopped
			}
			return nil
		}
		_, err := Score(ctx, r, name, opt)
		if err != nil && !stopped {
			yield(nil, err)
		}
	}
}

// errStopped is what Options.Rows returns when the loop over Rows stops.
var errStopped = errors.New("qa: the loop over the rows stopped")

// ScoreFile scores the response table in the named file.
func ScoreFile(ctx context.Context, path string, opt Options) (*results.Score, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Score(ctx, f, path, opt)
}

// Score scores a response table read from r; name is used in messages
// and to choose the format by extension. The result's Dataset.Path is
// name's base name (results.DisplayName), so no report shows the folders
// the file came from; a caller that wants them sets it afterwards.
func Score(ctx context.Context, r io.Reader, name string, opt Options) (*results.Score, error) {
	opt.fill()
	if err := opt.validate(); err != nil {
		return nil, err
	}
	format := opt.Format
	if format == "" {
		format = tabular.FormatOf(name)
	}
	if _, ok := sheetFormats[format]; opt.Sheet != "" && !ok {
		return nil, fmt.Errorf("%s: a sheet (--sheet %q) applies to a workbook (.xlsx), not to %s input", name, opt.Sheet, format)
	}
	h := sha256.New()
	r = io.TeeReader(r, h)
	e := newEngine(name, &opt)
	if _, lang, ok := textnorm.LanguageFromFileName(name); ok {
		e.fileLanguage = lang
	}
	var err error
	switch {
	case format == "csv" && !opt.RepairUTF8:
		err = e.runCSV(ctx, r)
	case format == "csv":
		err = e.runSource(ctx, newCSVSource(r, name, true))
	case format == "jsonl":
		err = e.runSource(ctx, newJSONLSource(r, name, opt.RepairUTF8))
	default:
		src, oerr := openFormat(r, name, format, opt.Sheet)
		if oerr != nil {
			return nil, oerr
		}
		err = e.runSource(ctx, src)
		err = sheetHint(err, src, opt.Columns)
	}
	if err != nil {
		return nil, emptyFileText(err, format, opt.Columns)
	}
	// Drain what the parser did not read (e.g. trailing bytes) so the hash covers the file.
	if _, err := io.Copy(io.Discard, r); err != nil {
		return nil, err
	}
	if opt.Delivered != nil && e.combined.n > 0 { // result fails only without rows
		opt.Delivered()
	}
	res, err := e.result()
	if err != nil {
		return nil, err
	}
	// The dataset is named by its base name (results.DisplayName): reports
	// are forwarded, and the folders a file sits in are the sender's business.
	res.Dataset = results.Dataset{Path: results.DisplayName(name), Format: format, Hash: hex.EncodeToString(h.Sum(nil))[:12], Rows: res.Combined.N}
	res.Tool = "evalbook" // the command adds its version
	return res, nil
}

// A RowSource yields records one at a time; formats other than CSV plug
// into Score through it.
type RowSource interface {
	// Header returns the column names.
	Header() ([]string, error)
	// Next returns the next record's fields and its 1-based line (or
	// row) number, or io.EOF.
	Next() (fields []string, line int, err error)
}

// A TextColumnsSource is a RowSource whose values need not be text (a
// Parquet list or struct, say): before the first Next, Score calls
// RequireText with the indices (in Header's order) of the columns it
// scores or groups on, so the source can refuse such a value there, with
// an error naming the row and column, and keep it as JSON text in every
// other column. Negative indices stand for no column and are to be
// ignored.
type TextColumnsSource interface {
	RowSource
	RequireText(columns []int)
}

var formats = map[string]func(r io.Reader, name string) (RowSource, error){}

// sheetFormats open a named sheet of a workbook format.
var sheetFormats = map[string]func(r io.Reader, name, sheet string) (RowSource, error){}

// RegisterSheetFormat makes Options.Sheet work for files of the given
// extension: open reads the named sheet ("" for the first).
func RegisterSheetFormat(ext string, open func(r io.Reader, name, sheet string) (RowSource, error)) {
	sheetFormats[ext] = open
}

// A SheetSource is a RowSource read from one sheet of a workbook. When
// its header lacks a column Score needs, Score names the sheet read and
// the sheets whose header has the columns.
type SheetSource interface {
	RowSource
	Sheet() string
	SheetsWithColumns(cols []string) []string
}

// openFormat opens a registered format, at sheet when one is given.
func openFormat(r io.Reader, name, format, sheet string) (RowSource, error) {
	if sheet != "" {
		open, ok := sheetFormats[format]
		if !ok {
			return nil, fmt.Errorf("%s: a sheet (--sheet %q) applies to a workbook (.xlsx), not to %s input", name, sheet, format)
		}
		return open(r, name, sheet)
	}
	open, ok := formats[format]
	if !ok {
		return nil, unknownFormat(name, format)
	}
	return open(r, name)
}

// sheetHint adds to a missing-column error from a workbook the sheet that
// was read and the sheets whose header has the four required columns.
func sheetHint(err error, src RowSource, c Columns) error {
	ss, ok := src.(SheetSource)
	if err == nil || !ok || !errors.Is(err, ErrMissingColumn) {
		return err
	}
	pe, ok := err.(*ParseError)
	if !ok {
		return err
	}
	me, ok := pe.Err.(*missingError)
	if !ok {
		return err
	}
	hint := fmt.Sprintf("; this is sheet %q", ss.Sheet())
	if fit := ss.SheetsWithColumns([]string{c.Question, c.Answer, c.Domain, c.Response}); len(fit) > 0 {
		hint += fmt.Sprintf(", and sheet %q has the columns: read it with --sheet %q (Options.Sheet)", fit[0], fit[0])
	} else {
		hint += ", and no other sheet has them"
	}
	cp := *me
	cp.msg += hint
	out := *pe
	out.Err = &cp
	return &out
}

// RegisterFormat makes Score accept files with the given extension
// (lower case, no dot). Edge packages call it from init.
func RegisterFormat(ext string, open func(r io.Reader, name string) (RowSource, error)) {
	formats[ext] = open
}

// Formats lists the input formats Score and Open accept: csv, jsonl and
// the registered ones, sorted after those two.
func Formats() []string {
	s := make([]string, 0, len(formats))
	for k := range formats {
		s = append(s, k)
	}
	sortStrings(s)
	return append([]string{"csv", "jsonl"}, s...)
}

func registeredList() string {
	var s []string
	for k := range formats {
		s = append(s, k)
	}
	if len(s) == 0 {
		return ""
	}
	sortStrings(s)
	return ", " + strings.Join(s, ", ")
}

// Open returns a RowSource over the table in r, for callers that need
// the rows themselves rather than scores (the judge command, notebooks).
// format is "csv", "jsonl", a registered format, or "" to decide by
// name's extension. Records are checked as Score checks them: quoting,
// UTF-8 and, through the caller's use of Header, the column count.
func Open(r io.Reader, name, format string) (RowSource, error) {
	if format == "" {
		format = tabular.FormatOf(name)
	}
	switch format {
	case "csv":
		return newCSVSource(r, name, false), nil
	case "jsonl":
		return newJSONLSource(r, name, false), nil
	}
	open, ok := formats[format]
	if !ok {
		return nil, unknownFormat(name, format)
	}
	return open(r, name)
}

// unknownFormat is the error for a format nobody registered; for xlsx it
// names the package that registers it.
func unknownFormat(name, format string) error {
	err := fmt.Errorf("%s: unknown input format %q (known: csv, jsonl%s)", name, format, registeredList())
	if format == "xlsx" {
		err = fmt.Errorf("%w; to read .xlsx files, import github.com/evalbook/evalbook/pkg/xlsxread", err)
	}
	return err
}

// emptyFileText rewrites an empty-file error to name the columns the
// caller asked for (Options.Columns), which need not be the defaults; it
// still matches ErrEmptyFile. Other errors pass through.
func emptyFileText(err error, format string, c Columns) error {
	pe, ok := err.(*ParseError)
	if !ok || !errors.Is(pe.Err, ErrEmptyFile) {
		return err
	}
	cols := strings.Join([]string{c.Question, c.Answer, c.Domain, c.Response}, ", ")
	msg := "the file is empty: expected a header row naming the columns " + cols
	if format == "jsonl" {
		msg = "the file is empty: expected one JSON object per line, with the keys " + cols
	}
	out := *pe
	out.Err = &wrapped{ErrEmptyFile, msg}
	return &out
}

// ParseBy turns grouping specs as people type them (one column, or
// several joined by commas for a cross grouping: "language",
// "model,Domain") into Options.By. Spaces around names are trimmed, a
// spec that is only space is skipped, and no specs give nil (the default
// grouping, by Domain). A spec with an empty name, one naming a column
// twice, and a spec given twice are errors quoting the spec.
func ParseBy(specs []string) ([][]string, error) {
	if len(specs) == 0 {
		return nil, nil
	}
	by := [][]string{}
	seen := map[string]bool{}
	for _, b := range specs {
		if strings.TrimSpace(b) == "" {
			continue
		}
		var cols []string
		inGroup := map[string]bool{}
		for _, c := range strings.Split(b, ",") {
			c = strings.TrimSpace(c)
			if c == "" {
				return nil, fmt.Errorf("%q: a column name is empty", b)
			}
			if inGroup[c] {
				return nil, fmt.Errorf("%q names the column %q twice", b, c)
			}
			inGroup[c] = true
			cols = append(cols, c)
		}
		key := strings.Join(cols, ",")
		if seen[key] {
			return nil, fmt.Errorf("%s is given twice", key)
		}
		seen[key] = true
		by = append(by, cols)
	}
	return by, nil
}
