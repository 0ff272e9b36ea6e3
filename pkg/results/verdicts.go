package results

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// VerdictReader reads a verdict file (the CSV that `evalbook score --out`
// writes: the input columns, one column per metric id, then
// matching_words and total_golden_words with word_overlap, blank_response
// and empty_golden) one row at a time, and knows which columns hold the
// verdicts of a Score, so renderers can stream millions of rows without
// holding them.
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
	rows   int
	binary []int // columns of binary metrics
}

// computedColumns are the columns the scorer appends after the metrics.
var computedColumns = map[string]bool{
	"matching_words": true, "total_golden_words": true, "blank_response": true, "empty_golden": true,
}

// NewVerdictReader reads the header of the verdict file r (named name in
// errors) and matches it to the metrics of s. It is an error when a metric
// of s has no column: the file is then not the verdict file of s.
func NewVerdictReader(r io.Reader, name string, s *Score) (*VerdictReader, error) {
	br := bufio.NewReaderSize(r, 1<<20)
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte("\xEF\xBB\xBF")) {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty verdict file (no header row)", name)
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
	first := len(head)
	for _, c := range v.MetricCol {
		first = min(first, c)
	}
	for i := first; i < len(head); i++ {
		if computedColumns[head[i]] {
			v.Numeric[i] = true
		}
	}
	return v, nil
}

// Read returns the next row, or io.EOF after the last. The slice is
// reused by the next call: copy it to keep it. A row whose number of
// fields differs from the header's is an error naming the line.
func (v *VerdictReader) Read() ([]string, error) {
	rec, err := v.r.Read()
	if err != nil {
		if err == io.EOF {
			return nil, io.EOF
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) && pe.Err == csv.ErrFieldCount {
			return nil, fmt.Errorf("%s:%d: %d fields, the header has %d", v.name, pe.StartLine, len(rec), len(v.Header))
		}
		return nil, fmt.Errorf("%s: %w", v.name, err)
	}
	v.rows++
	return rec, nil
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
