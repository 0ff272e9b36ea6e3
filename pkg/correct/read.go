package correct

import (
	"fmt"
	"io"
	"strings"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// MaxRows bounds how many rows ReadLabelled and ReadUnlabelled accept.
const MaxRows = 10_000_000

// Column names of the two files.
const (
	ColID    = "id"
	ColHuman = "human"
	ColJudge = "judge"
)

// Labelled is one row of the labelled file: the human's verdict and the
// judge's on the same item. Group is the --by column's value (empty
// without one); Line is where the row was read.
type Labelled struct {
	ID    string
	Group string
	Human bool
	Judge bool
	Line  int
}

// Judged is one row of the unlabelled file: the judge's verdict alone.
type Judged struct {
	ID    string
	Group string
	Judge bool
	Line  int
}

// ReadLabelled reads the labelled file (CSV or JSONL by name's extension):
// columns id, human and judge, each verdict 0 or 1 (true and false are
// accepted), and the column by when it is not empty. Every error is a
// *tabular.ParseError naming the file, line and column: a missing
// column, an empty or repeated id, a verdict other than 0 or 1, more than
// MaxRows rows, no rows.
func ReadLabelled(r io.Reader, name, by string) ([]Labelled, error) {
	var out []Labelled
	err := readRows(r, name, by, true, func(id, group string, human, judge bool, line int) {
		out = append(out, Labelled{ID: id, Group: group, Human: human, Judge: judge, Line: line})
	})
	return out, err
}

// ReadUnlabelled reads the unlabelled file: columns id and judge (0 or 1),
// and by when it is not empty. Errors as ReadLabelled's.
func ReadUnlabelled(r io.Reader, name, by string) ([]Judged, error) {
	var out []Judged
	err := readRows(r, name, by, false, func(id, group string, _, judge bool, line int) {
		out = append(out, Judged{ID: id, Group: group, Judge: judge, Line: line})
	})
	return out, err
}

func readRows(r io.Reader, name, by string, labelled bool, add func(id, group string, human, judge bool, line int)) error {
	rd, err := tabular.NewReader(r, name, tabular.Options{})
	if err != nil {
		return err
	}
	what := "an unlabelled file needs id and judge"
	want := []string{ColID, ColJudge}
	if labelled {
		what = "a labelled file needs id, human and judge"
		want = []string{ColID, ColHuman, ColJudge}
	}
	if by != "" {
		want = append(want, by)
	}
	idx := make(map[string]int, len(want))
	for _, c := range want {
		i := rd.Index(c)
		if i < 0 {
			extra := ""
			if c == by {
				extra = fmt.Sprintf(" (--by %s names a column both files must have)", tabular.Quote(by))
			}
			return &tabular.ParseError{File: name, Line: 1, Field: c, Err: fmt.Errorf("no column %s; the header has %s (%s, 0 or 1 in each row)%s",
				tabular.Quote(c), tabular.QuoteList(rd.Header()), what, extra)}
		}
		idx[c] = i
	}
	seen := make(map[string]int)
	rows := 0
	for rd.Scan() {
		rec := rd.Record()
		if rows == MaxRows {
			return &tabular.ParseError{File: name, Line: rec.Line, Err: fmt.Errorf("more than %d rows; split the file", MaxRows)}
		}
		id := strings.TrimSpace(rec.Fields[idx[ColID]])
		if id == "" {
			return rd.Errorf(idx[ColID], "empty id")
		}
		if first, ok := seen[id]; ok {
			return rd.Errorf(idx[ColID], "id %s repeats line %d; each item once", tabular.Quote(id), first)
		}
		seen[id] = rec.Line
		judge, err := verdict(rec.Fields[idx[ColJudge]])
		if err != nil {
			return rd.Errorf(idx[ColJudge], "%v", err)
		}
		var human bool
		if labelled {
			if human, err = verdict(rec.Fields[idx[ColHuman]]); err != nil {
				return rd.Errorf(idx[ColHuman], "%v", err)
			}
		}
		group := ""
		if by != "" {
			if group = strings.TrimSpace(rec.Fields[idx[by]]); group == "" {
				return rd.Errorf(idx[by], "empty %s; every row needs its group", tabular.Quote(by))
			}
		}
		add(id, group, human, judge, rec.Line)
		rows++
	}
	if err := rd.Err(); err != nil {
		return err
	}
	if rows == 0 {
		return &tabular.ParseError{File: name, Line: 1, Err: fmt.Errorf("no rows after the header")}
	}
	return nil
}

// verdict parses a 0/1 cell (true and false, any case, are accepted).
func verdict(s string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "1", "true":
		return true, nil
	case "0", "false":
		return false, nil
	}
	return false, fmt.Errorf("%s is not a verdict: want 0 or 1", tabular.Quote(tabular.GuardFormula(s)))
}
