package qa

import (
	"errors"
	"fmt"
	"io"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// tableSource is the RowSource of the slow path: CSV when invalid UTF-8
// is to be repaired rather than rejected, JSONL always, and Open. It
// reads through tabular.Reader (BOM, quoting, the character column of a
// bad byte, the record limit) and adds what scoring asks: qa's wording
// of an empty file, the count of repaired rows, and, for JSONL, that the
// columns the scorer reads hold no object or array.
//
// A JSONL value that is a string, number or boolean becomes its text and
// null becomes the empty string; an object or array (model outputs often
// carry metadata) is kept as its compact JSON text, and is an error only
// in a column the scorer reads (see textOnly). Every object must have
// the first object's keys, in any order: a typo in a key name would
// otherwise be lost.
type tableSource struct {
	r        io.Reader
	name     string
	format   string // "csv" or "jsonl"
	repair   bool
	rd       *tabular.Reader
	repaired results.Warning // rows in which invalid UTF-8 was replaced
	// textOnly marks the columns that must hold a scalar, set by the
	// engine once the header is resolved; nil checks none.
	textOnly []bool
}

func newCSVSource(r io.Reader, name string, repair bool) *tableSource {
	return &tableSource{r: r, name: name, format: "csv", repair: repair}
}

func newJSONLSource(r io.Reader, name string, repair bool) *tableSource {
	return &tableSource{r: r, name: name, format: "jsonl", repair: repair}
}

func (s *tableSource) Header() ([]string, error) {
	rd, err := tabular.NewReader(s.r, s.name, tabular.Options{Format: s.format, RepairUTF8: s.repair})
	if err != nil {
		if errors.Is(err, tabular.ErrEmptyFile) {
			if s.format == "jsonl" {
				return nil, &ParseError{File: s.name, Err: errEmptyJSONL}
			}
			return nil, &ParseError{File: s.name, Err: ErrEmptyFile}
		}
		return nil, err
	}
	s.rd = rd
	return rd.Header(), nil
}

// requireText makes the columns at idx (negative indices are ignored)
// an error when they hold an object or array.
func (s *tableSource) requireText(idx []int) {
	s.textOnly = make([]bool, len(s.rd.Header()))
	for _, i := range idx {
		if i >= 0 && i < len(s.textOnly) {
			s.textOnly[i] = true
		}
	}
}

func (s *tableSource) Next() ([]string, int, error) {
	if s.rd == nil {
		return nil, 0, io.EOF
	}
	if !s.rd.Scan() {
		if err := s.rd.Err(); err != nil {
			return nil, 0, err
		}
		return nil, 0, io.EOF
	}
	rec := s.rd.Record()
	for j := range rec.Kinds {
		if rec.Kinds[j] == tabular.Composite && s.textOnly != nil && s.textOnly[j] {
			h := s.rd.Header()[j]
			return nil, rec.Line, &ParseError{File: s.name, Line: rec.Line, Field: h,
				Err: fmt.Errorf("the value of %q is an object or array; this column is scored or grouped on, so it must be a string, number, boolean or null", h)}
		}
	}
	if rec.Repaired {
		s.repaired.Count++
		if len(s.repaired.Lines) < maxWarnLines {
			s.repaired.Lines = append(s.repaired.Lines, rec.Line)
		}
	}
	return rec.Fields, rec.Line, nil
}
