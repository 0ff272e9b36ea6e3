package results

import (
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
)

// A Row is one scored row of a response table, as values: its input
// fields, every metric's verdict, word_overlap's counts, the blank and
// empty-golden flags, its line, and its group in each grouping. pkg/qa
// delivers rows in file order as it scores (qa.Options.Rows); a
// VerdictReader gives the same value for a verdict file read from disk,
// so renderers take one input type whatever the source.
//
// Who owns a Row is said where it is handed out: a Row from pkg/qa or a
// VerdictReader, and the slices and strings it holds, are valid only
// until the next row is asked for, as their memory is reused. Clone
// makes a copy that owns everything.
type Row struct {
	// Schema names the fields and metrics of the row; rows of one run
	// share it.
	Schema *RowSchema
	// Line is the 1-based line on which the row's record starts in its
	// file (the row number for row-based formats such as JSONL and
	// XLSX, as in error messages).
	Line int
	// Fields holds the input columns, in the order of Schema.Columns.
	Fields []string
	// Values holds each metric's verdict, in the order of
	// Schema.Metrics: 1 or 0 for a binary metric, a score in [0,1] for a
	// graded one, NaN where a verdict file's cell is empty (a judge's
	// invalid reply: no verdict).
	Values []float64
	// Matching and TotalGolden are word_overlap's matching_words and
	// total_golden_words (when Schema.Words; 0 otherwise).
	Matching, TotalGolden int
	// Blank reports a response that is empty after trimming whitespace
	// (blank_response); EmptyGolden, an empty golden answer
	// (empty_golden).
	Blank, EmptyGolden bool
	// Groups holds the row's group in each grouping of
	// Schema.Groupings, as Score.Groups names it ("geography",
	// "gpt / hi" for a cross grouping). A verdict file does not record
	// groups: rows of a VerdictReader have none.
	Groups []string
	// Extra holds a verdict file's columns that follow the metrics and
	// that the scorer does not write (a judge's reasons), in the order
	// of Schema.Extra; rows from pkg/qa have none.
	Extra []string
}

// Field returns the input column named name, and whether there is one.
func (r *Row) Field(name string) (string, bool) {
	i := slices.Index(r.Schema.Columns, name)
	if i < 0 {
		return "", false
	}
	return r.Fields[i], true
}

// Value returns the verdict of the metric id, and whether the row has
// that metric.
func (r *Row) Value(id string) (float64, bool) {
	i := slices.Index(r.Schema.Metrics, id)
	if i < 0 {
		return 0, false
	}
	return r.Values[i], true
}

// Clone returns a copy of r that shares no memory with it (the schema,
// which does not change, excepted): the row to keep from a stream whose
// rows are reused.
func (r *Row) Clone() *Row {
	c := *r
	c.Fields = cloneStrings(r.Fields)
	c.Values = slices.Clone(r.Values)
	c.Groups = cloneStrings(r.Groups)
	c.Extra = cloneStrings(r.Extra)
	return &c
}

func cloneStrings(s []string) []string {
	if s == nil {
		return nil
	}
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = strings.Clone(x)
	}
	return out
}

// A RowSchema describes the rows of one run: what their Fields, Values,
// Groups and Extra hold, and the columns of the verdict table they make
// (the file `evalbook score --out` writes) in order. Its slices are read
// only.
type RowSchema struct {
	// Columns names the input columns, the order of Row.Fields.
	Columns []string
	// Metrics lists the metric ids, the order of Row.Values; Graded[i]
	// reports whether Metrics[i] is graded (a score in [0,1]) rather
	// than binary (1 or 0).
	Metrics []string
	Graded  []bool
	// Words reports whether rows carry word_overlap's counts (the
	// columns matching_words and total_golden_words).
	Words bool
	// Flags reports whether rows carry blank_response and empty_golden
	// (always for pkg/qa; a judge's verdict file has neither column).
	Flags bool
	// Groupings names the groupings of Row.Groups, as Group.By does
	// ("Domain", "model / language").
	Groupings []string
	// Extra names the verdict file's columns of Row.Extra.
	Extra []string

	// Header is the verdict table's header: for pkg/qa the input
	// columns, the metric ids, then matching_words and
	// total_golden_words (with Words), blank_response and empty_golden;
	// for a verdict file, the file's own header. Numeric marks the
	// columns written by the scorer (verdicts and counts), every other
	// column being input text; MetricCol[i] is the column of Metrics[i].
	Header    []string
	Numeric   []bool
	MetricCol []int

	cells  []cellRef // what each column of Header shows
	binary []int     // indices (in Metrics) of binary metrics
}

// cellRef says where a column of the verdict table takes its cell from.
type cellRef struct {
	kind cellKind
	i    int // index in Fields, Values or Extra
}

type cellKind uint8

const (
	cellField cellKind = iota
	cellValue
	cellMatching
	cellTotal
	cellBlank
	cellEmpty
	cellExtra
	cellNone // a column a verdict file repeats: its first copy holds the value
)

// NewRowSchema returns the schema of rows with the given input columns
// and metrics (graded[i] for metrics[i]), word_overlap's counts when
// words, both flags, and the named groupings; its Header is the verdict
// file's header as pkg/qa writes it.
func NewRowSchema(columns, metrics []string, graded []bool, words bool, groupings []string) *RowSchema {
	if len(graded) != len(metrics) {
		panic("results: NewRowSchema: graded and metrics differ in length")
	}
	s := &RowSchema{Columns: columns, Metrics: metrics, Graded: graded, Words: words, Flags: true, Groupings: groupings}
	for i := range columns {
		s.add(columns[i], false, cellRef{cellField, i})
	}
	for i := range metrics {
		s.MetricCol = append(s.MetricCol, len(s.Header))
		s.add(metrics[i], true, cellRef{cellValue, i})
	}
	if words {
		s.add("matching_words", true, cellRef{kind: cellMatching})
		s.add("total_golden_words", true, cellRef{kind: cellTotal})
	}
	s.add("blank_response", true, cellRef{kind: cellBlank})
	s.add("empty_golden", true, cellRef{kind: cellEmpty})
	s.index()
	return s
}

func (s *RowSchema) add(name string, numeric bool, ref cellRef) {
	s.Header = append(s.Header, name)
	s.Numeric = append(s.Numeric, numeric)
	s.cells = append(s.cells, ref)
}

func (s *RowSchema) index() {
	s.binary = s.binary[:0]
	for i, g := range s.Graded {
		if !g {
			s.binary = append(s.binary, i)
		}
	}
}

// AppendCells appends to dst the text of each column of s.Header for
// row r, as the verdict file has it: input text as it is, a binary
// verdict as 1 or 0, a graded one in its shortest form (strconv 'g'),
// "" for NaN, counts in decimal and the flags as 1 or 0.
func (s *RowSchema) AppendCells(dst []string, r *Row) []string {
	for _, c := range s.cells {
		dst = append(dst, s.cell(r, c))
	}
	return dst
}

func (s *RowSchema) cell(r *Row, c cellRef) string {
	switch c.kind {
	case cellField:
		return r.Fields[c.i]
	case cellValue:
		return FormatValue(r.Values[c.i], s.Graded[c.i])
	case cellMatching:
		return strconv.Itoa(r.Matching)
	case cellTotal:
		return strconv.Itoa(r.TotalGolden)
	case cellBlank:
		return bit(r.Blank)
	case cellEmpty:
		return bit(r.EmptyGolden)
	case cellExtra:
		return r.Extra[c.i]
	}
	return ""
}

// Number returns the figure in column c of s.Header for row r: a
// verdict (NaN when there is none), a count, or a flag as 1 or 0; ok is
// false for a text column.
func (s *RowSchema) Number(r *Row, c int) (x float64, ok bool) {
	switch ref := s.cells[c]; ref.kind {
	case cellValue:
		return r.Values[ref.i], true
	case cellMatching:
		return float64(r.Matching), true
	case cellTotal:
		return float64(r.TotalGolden), true
	case cellBlank:
		return b2f(r.Blank), true
	case cellEmpty:
		return b2f(r.EmptyGolden), true
	}
	return 0, false
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func bit(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// FormatValue is a verdict as the verdict file writes it: for a binary
// metric 1 when v is 1 and 0 otherwise, for a graded one v in its
// shortest decimal form; NaN (no verdict) is "".
func FormatValue(v float64, graded bool) string {
	switch {
	case math.IsNaN(v):
		return ""
	case !graded && v == 1:
		return "1"
	case !graded:
		return "0"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Binary returns the number of binary metrics, the ones Disagree compares.
func (s *RowSchema) Binary() int { return len(s.binary) }

// Disagree reports whether the binary metrics of r disagree: at least
// one passes (1) and at least one fails (0). Graded metrics, and binary
// ones without a verdict (NaN), are left out.
func (s *RowSchema) Disagree(r *Row) bool {
	pass, fail := false, false
	for _, i := range s.binary {
		switch v := r.Values[i]; {
		case v == 1:
			pass = true
		case v == 0:
			fail = true
		}
	}
	return pass && fail
}

// Rows is a stream of scored rows that share a schema: a VerdictReader
// over a file, or a RowTable in memory. Renderers take it.
type Rows interface {
	// Schema describes the rows; nil when there are none to describe
	// (an empty RowTable).
	Schema() *RowSchema
	// All yields the rows in order, then stops; an error is yielded
	// once, with a nil row, and ends the sequence. Whether a yielded
	// row stays valid after the next one is up to the implementation.
	All() iter.Seq2[*Row, error]
}

// A RowTable keeps scored rows in memory, for a table small enough to
// hold (a notebook's). Add, as qa.Options.Rows, collects a run's rows:
//
//	var rows results.RowTable
//	res, err := qa.Score(ctx, r, name, qa.Options{Rows: rows.Add})
//
// and rows then feeds any renderer. The zero value is an empty table.
type RowTable struct {
	schema *RowSchema
	rows   []*Row
}

// NewRowTable returns a table of rows with the given schema, holding
// rows (which it does not copy).
func NewRowTable(s *RowSchema, rows []*Row) *RowTable { return &RowTable{schema: s, rows: rows} }

// Add appends a copy of r (Row.Clone), so r may be reused by its source.
// The first row added sets the table's schema. It always returns nil,
// for use as qa.Options.Rows.
func (t *RowTable) Add(r *Row) error {
	if t.schema == nil {
		t.schema = r.Schema
	}
	t.rows = append(t.rows, r.Clone())
	return nil
}

// Schema returns the rows' schema, nil for an empty table without one.
func (t *RowTable) Schema() *RowSchema { return t.schema }

// Len returns the number of rows.
func (t *RowTable) Len() int { return len(t.rows) }

// Row returns row i (0-based); it belongs to the table.
func (t *RowTable) Row(i int) *Row { return t.rows[i] }

// All yields the table's rows in order; they belong to the table and
// stay valid.
func (t *RowTable) All() iter.Seq2[*Row, error] {
	return func(yield func(*Row, error) bool) {
		for _, r := range t.rows {
			if !yield(r, nil) {
				return
			}
		}
	}
}
