package results

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// VerdictReader reads a verdict file (the CSV that `evalbook score --out`
// writes: the input columns, one column per metric id, then
// matching_words and total_golden_words with word_overlap, blank_response
// and empty_golden) one row at a time, and knows which columns hold the
// verdicts of a Score, so renderers can stream millions of rows without
// holding them.
//
// It checks what it streams against the Score: as rows are read it
// counts them, the passes of each binary metric, the sum of each graded
// one and the rows in each agreement bucket, and at the end of the file
// Read returns a *VerdictMismatch (wrapped with the file's name) instead
// of io.EOF when a count disagrees with the Score, so a renderer never
// shows another run's rows beside this run's figures. A reader that
// stops early can call CheckSoFar.
type VerdictReader struct {
	// Header is the file's header row.
	Header []string
	// MetricCol[i] is the column of Settings.Metrics[i].
	MetricCol []int
	// Graded[i] reports whether Settings.Metrics[i] is a graded metric
	// (a score in [0,1] rather than 1 or 0).
	Graded []bool
	// Numeric marks the columns written by the scorer (verdicts, word
	// counts, blank_response, empty_golden); every other column is input
	// text, to be shown as text.
	Numeric []bool

	name   string
	r      *csv.Reader
	s      *Score
	rows   int
	binary []int // columns of binary metrics
	// The tallies: passes (binary) or sums (graded) per metric, in the
	// order of Settings.Metrics, and the four bucket counts of each
	// agreement pair of s (pairs[i] holds the columns of its metrics).
	sums    []float64
	pairs   [][2]int
	buckets [][4]int
	end     error // what Read returns once the file is done

	schema *RowSchema
	row    Row // reused by ReadRow
}

// computedColumns are the columns the scorer appends after the metrics.
var computedColumns = map[string]bool{
	"matching_words": true, "total_golden_words": true, "blank_response": true, "empty_golden": true,
}

// NewVerdictReader reads the header of the verdict file r (named name in
// errors) and matches it to the metrics of s. It is an error when a metric
// of s has no column: the file is then not the verdict file of s.
func NewVerdictReader(r io.Reader, name string, s *Score) (*VerdictReader, error) {
	bound := &boundedCSV{r: r, name: name, max: int64(tabular.RecordLimit())}
	br := bufio.NewReaderSize(bound, verdictBuf)
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte("\xEF\xBB\xBF")) {
		br.Discard(3)
		bound.bom = 3
	}
	cr := csv.NewReader(br)
	cr.ReuseRecord = true
	bound.done = cr.InputOffset
	head, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty verdict file (no header row)", name)
	}
	if tp := (*tabular.ParseError)(nil); errors.As(err, &tp) {
		return nil, err // a header over the record limit, named already
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	v := &VerdictReader{Header: append([]string(nil), head...), name: name, r: cr}
	v.Numeric = make([]bool, len(head))
	col := map[string]int{}
	for i, h := range head {
		if _, dup := col[h]; !dup {
			col[h] = i
		}
	}
	graded := map[string]bool{}
	for _, d := range s.Metrics {
		graded[d.ID] = d.Graded
	}
	for _, id := range s.Settings.Metrics {
		// The scorer puts the metric columns after the input columns, so
		// take the last column of that name in case an input column
		// shares it.
		c := -1
		for i := len(head) - 1; i >= 0; i-- {
			if head[i] == id {
				c = i
				break
			}
		}
		if c < 0 {
			return nil, fmt.Errorf("%s: %w", name, &VerdictMismatch{fmt.Sprintf("no column %q: is this the verdict file of this result (metrics %s)?",
				id, strings.Join(s.Settings.Metrics, ", "))})
		}
		v.MetricCol = append(v.MetricCol, c)
		v.Graded = append(v.Graded, graded[id])
		v.Numeric[c] = true
		if !graded[id] {
			v.binary = append(v.binary, c)
		}
	}
	v.s = s
	v.sums = make([]float64, len(v.MetricCol))
	for _, a := range s.Agreement {
		i, j := slices.Index(s.Settings.Metrics, a.First), slices.Index(s.Settings.Metrics, a.Second)
		if i < 0 || j < 0 {
			return nil, fmt.Errorf("%s: %w", name, &VerdictMismatch{fmt.Sprintf("the result compares %s with %s, which are not among its metrics (%s)",
				a.First, a.Second, strings.Join(s.Settings.Metrics, ", "))})
		}
		v.pairs = append(v.pairs, [2]int{v.MetricCol[i], v.MetricCol[j]})
	}
	v.buckets = make([][4]int, len(v.pairs))
	first := len(head)
	for _, c := range v.MetricCol {
		first = min(first, c)
	}
	for i := first; i < len(head); i++ {
		if computedColumns[head[i]] {
			v.Numeric[i] = true
		}
	}
	v.schema = v.fileSchema(first)
	return v, nil
}

// fileSchema describes the file's rows: the columns before the first
// metric column are the input, the metric columns the values, the
// scorer's count and flag columns after them the counts and flags, and
// any other column after them is extra (a judge's reasons).
func (v *VerdictReader) fileSchema(first int) *RowSchema {
	s := &RowSchema{Header: v.Header, Numeric: v.Numeric, MetricCol: v.MetricCol, Graded: v.Graded, Metrics: v.s.Settings.Metrics}
	s.Columns = v.Header[:first]
	s.cells = make([]cellRef, len(v.Header))
	for i := range first {
		s.cells[i] = cellRef{cellField, i}
	}
	metricAt := map[int]int{}
	for i, c := range v.MetricCol {
		metricAt[c] = i
	}
	seen := map[cellKind]bool{}
	for c := first; c < len(v.Header); c++ {
		if i, ok := metricAt[c]; ok {
			s.cells[c] = cellRef{cellValue, i}
			continue
		}
		kind := cellExtra
		switch v.Header[c] {
		case "matching_words":
			kind = cellMatching
		case "total_golden_words":
			kind = cellTotal
		case "blank_response":
			kind = cellBlank
		case "empty_golden":
			kind = cellEmpty
		}
		if kind != cellExtra && seen[kind] {
			kind = cellExtra // a repeat keeps its own text
		}
		if kind == cellExtra {
			s.cells[c] = cellRef{cellExtra, len(s.Extra)}
			s.Extra = append(s.Extra, v.Header[c])
			continue
		}
		seen[kind] = true
		s.cells[c] = cellRef{kind: kind}
	}
	s.Words = seen[cellMatching] && seen[cellTotal]
	s.Flags = seen[cellBlank] && seen[cellEmpty]
	s.index()
	v.row = Row{Schema: s, Values: make([]float64, len(v.MetricCol))}
	return s
}

// Schema describes the rows ReadRow returns; its Header, Numeric,
// MetricCol and Graded are the reader's.
func (v *VerdictReader) Schema() *RowSchema { return v.schema }

// ReadRow reads the next row as Read does and returns it as a Row:
// Fields are the columns before the first metric column, Values the
// metric cells (NaN for an empty cell), the counts and flags from the
// scorer's columns (0 and false when the file has none), Extra the
// other columns after the metrics, Groups nil. The Row and its slices
// are reused by the next call (the strings are not): Clone it to keep
// it. A verdict or count that is not a number is an error naming the
// line.
func (v *VerdictReader) ReadRow() (*Row, error) {
	rec, err := v.Read()
	if err != nil {
		return nil, err
	}
	r := &v.row
	s := v.schema
	r.Line = v.Line()
	r.Fields = rec[:len(s.Columns)]
	r.Extra = r.Extra[:0]
	r.Matching, r.TotalGolden, r.Blank, r.EmptyGolden = 0, 0, false, false
	for c, ref := range s.cells {
		cell := rec[c]
		switch ref.kind {
		case cellValue:
			x := math.NaN()
			if cell != "" {
				var ok bool
				if x, ok = Number(cell); !ok {
					return nil, fmt.Errorf("%s:%d: %s is %q, not a number", v.name, r.Line, v.Header[c], cell)
				}
			}
			r.Values[ref.i] = x
		case cellMatching, cellTotal:
			n, err := strconv.Atoi(cell)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %s is %q, not a whole number", v.name, r.Line, v.Header[c], cell)
			}
			if ref.kind == cellMatching {
				r.Matching = n
			} else {
				r.TotalGolden = n
			}
		case cellBlank:
			r.Blank = cell == "1"
		case cellEmpty:
			r.EmptyGolden = cell == "1"
		case cellExtra:
			r.Extra = append(r.Extra, cell)
		}
	}
	return r, nil
}

// All yields the remaining rows (ReadRow), then stops at the end of the
// file; an error, the mismatch with the Score that Read reports at the
// end included, is yielded once with a nil row. Each row is reused by
// the next (see ReadRow). A loop that breaks early can call CheckSoFar.
func (v *VerdictReader) All() iter.Seq2[*Row, error] {
	return func(yield func(*Row, error) bool) {
		for {
			r, err := v.ReadRow()
			if err == io.EOF {
				return
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(r, nil) {
				return
			}
		}
	}
}

// Read returns the next row, or io.EOF after the last. The slice is
// reused by the next call: copy it to keep it. A row whose number of
// fields differs from the header's is an error naming the line, as is a
// graded metric's cell that is neither empty nor a number. After the
// last row, a file whose counts disagree with the Score gives a
// *VerdictMismatch instead of io.EOF (see VerdictReader).
func (v *VerdictReader) Read() ([]string, error) {
	if v.end != nil {
		return nil, v.end
	}
	rec, err := v.r.Read()
	if err != nil {
		if err == io.EOF {
			v.end = io.EOF
			if m := v.compare(true); m != nil {
				v.end = fmt.Errorf("%s: %w", v.name, m)
			}
			return nil, v.end
		}
		if tp := (*tabular.ParseError)(nil); errors.As(err, &tp) {
			return nil, err // a record over the limit, named already
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) && pe.Err == csv.ErrFieldCount {
			return nil, fmt.Errorf("%s:%d: %d fields, the header has %d", v.name, pe.StartLine, len(rec), len(v.Header))
		}
		return nil, fmt.Errorf("%s: %w", v.name, err)
	}
	v.rows++
	tabular.UnguardRecord(rec) // the file guards formula cells (tabular.GuardFormula)
	for i, c := range v.MetricCol {
		cell := rec[c]
		if !v.Graded[i] {
			if cell == "1" {
				v.sums[i]++
			}
			continue
		}
		if cell == "" {
			continue // a judge's invalid reply
		}
		x, ok := Number(cell)
		if !ok {
			return nil, fmt.Errorf("%s:%d: %s is %q, not a number", v.name, v.Line(), v.s.Settings.Metrics[i], cell)
		}
		v.sums[i] += x
	}
	for p, pr := range v.pairs {
		ca, cb := rec[pr[0]], rec[pr[1]]
		if (ca != "0" && ca != "1") || (cb != "0" && cb != "1") {
			// An empty cell (a judge's invalid reply) has no verdict, and
			// the agreement table leaves such rows out.
			continue
		}
		a, b := ca == "1", cb == "1"
		switch {
		case a && b:
			v.buckets[p][0]++
		case !a && !b:
			v.buckets[p][1]++
		case a:
			v.buckets[p][2]++
		default:
			v.buckets[p][3]++
		}
	}
	return rec, nil
}

// CheckSoFar compares the rows read so far with the Score, for a reader
// that stops before the end: no count may yet exceed the Score's (more
// rows, more passes of a binary metric, a larger sum of a graded one,
// more rows in an agreement bucket). After the end of the file it is
// the full comparison Read made. A disagreement is a *VerdictMismatch.
func (v *VerdictReader) CheckSoFar() error {
	if v.end != nil {
		if v.end == io.EOF {
			return nil
		}
		var m *VerdictMismatch
		if errors.As(v.end, &m) {
			return v.end
		}
		return nil
	}
	if m := v.compare(false); m != nil {
		return fmt.Errorf("%s: %w", v.name, m)
	}
	return nil
}

// compare checks the tallies against the Score: equal when all rows are
// read (done), at most the Score's figures before that.
func (v *VerdictReader) compare(done bool) *VerdictMismatch {
	s := v.s
	differs := func(got, want float64) bool {
		if done {
			return got != want
		}
		return got > want
	}
	mismatch := func(format string, a ...any) *VerdictMismatch { return &VerdictMismatch{fmt.Sprintf(format, a...)} }
	so := ""
	if !done {
		so = " so far"
	}
	if differs(float64(v.rows), float64(s.Combined.N)) {
		return mismatch("the verdict file has %s%s, the result has %d", plural(v.rows, "row", "rows"), so, s.Combined.N)
	}
	tol := 1e-6 * float64(max(v.rows, 1))
	for i, id := range s.Settings.Metrics {
		want := s.Combined.Metrics[id].Correct
		if !v.Graded[i] {
			if differs(v.sums[i], math.Round(want)) {
				return mismatch("%s passes %s in the verdict file%s, the result says %s", id, plural(int(v.sums[i]), "row", "rows"), so, correctText(want))
			}
			continue
		}
		if done && math.Abs(v.sums[i]-want) > tol || !done && v.sums[i] > want+tol {
			return mismatch("%s sums to %s over the verdict file's rows%s, the result says %s", id, fmtSum(v.sums[i]), so, fmtSum(want))
		}
	}
	for p, a := range s.Agreement {
		for k, b := range Buckets {
			got, want := v.buckets[p][k], a.Count(b.Name)
			if differs(float64(got), float64(want)) {
				return mismatch("%s and %s: %s %s in the verdict file%s, the result says %d", a.First, a.Second,
					plural(got, "row is", "rows are"), bucketWords(b.Name, a), so, want)
			}
		}
	}
	return nil
}

// bucketWords names an agreement bucket of a in words, after "rows are".
func bucketWords(bucket string, a Agreement) string {
	switch bucket {
	case "both":
		return "passed by both"
	case "neither":
		return "failed by both"
	case "only_first":
		return "passed by " + a.First + " only"
	}
	return "passed by " + a.Second + " only"
}

// Line returns the 1-based line on which the row last read starts.
func (v *VerdictReader) Line() int {
	line, _ := v.r.FieldPos(0)
	return line
}

// Rows returns the number of rows read so far.
func (v *VerdictReader) Rows() int { return v.rows }

// Disagree reports whether the binary metrics of rec disagree: at least
// one passes (1) and at least one fails. Graded metrics are left out.
func (v *VerdictReader) Disagree(rec []string) bool {
	pass, fail := false, false
	for _, c := range v.binary {
		switch rec[c] {
		case "1":
			pass = true
		case "0":
			fail = true
		}
	}
	return pass && fail
}

// Binary returns the number of binary metrics, the ones Disagree compares.
func (v *VerdictReader) Binary() int { return len(v.binary) }

// Number parses a scorer-written cell; ok is false for anything that is
// not a finite decimal number.
func Number(cell string) (x float64, ok bool) {
	x, err := strconv.ParseFloat(cell, 64)
	if err != nil || x != x || x > 1e300 || x < -1e300 {
		return 0, false
	}
	return x, true
}

// verdictBuf is the read-ahead of a VerdictReader.
const verdictBuf = 1 << 20

// boundedCSV is what a VerdictReader's csv.Reader reads through, so that
// a verdict file is bounded like every other table (encoding/csv has no
// record limit): once more than the record limit (tabular.RecordLimit,
// --max-field-mib) plus the read-ahead has been read past the end of the
// last whole record, it refuses to read on, naming the record's byte
// offset, the limit and the flag. A file with an unclosed quote, or one
// that is no CSV at all, costs the limit, not the machine.
type boundedCSV struct {
	r      io.Reader
	name   string
	max    int64
	bom    int64        // bytes of a byte-order mark skipped before the csv.Reader
	done   func() int64 // the csv.Reader's offset after its last record
	pulled int64
}

func (b *boundedCSV) Read(p []byte) (int, error) {
	var at int64
	if b.done != nil {
		at = b.done() + b.bom
	}
	if b.pulled-at > b.max+verdictBuf {
		return 0, &tabular.ParseError{File: b.name, Err: fmt.Errorf("%w: the record starting at byte %d is longer than %s, the most this reader takes; %s (is the file really CSV? an unclosed quote makes the rest of the file one field)",
			tabular.ErrTooLong, at+1, tabular.Size(int(b.max)), tabular.LimitHint)}
	}
	n, err := b.r.Read(p)
	b.pulled += int64(n)
	return n, err
}
