package design

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// Every reader of this package is bounded: a line of a case file or a
// source (ReadCases, ReadSource) may be at most tabular.RecordLimit()
// bytes (64 MiB unless --max-field-mib or tabular.Limit changed it), and
// a plan (ReadPlan) at most tabular.FileLimit() bytes (1 GiB unless
// --max-file-mib or tabular.MaxFile changed it). Either error is a
// *ParseError naming the file, the limit and the flag, wrapping
// tabular.ErrTooLong or tabular.ErrFileTooLarge.

// lineScanner is a bufio.Scanner over r whose longest line is the
// record limit of package tabular, and that limit.
func lineScanner(r io.Reader) (*bufio.Scanner, int) {
	max := tabular.RecordLimit()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(64<<10, max)), max)
	return sc, max
}

// scanError is the *ParseError for the error err that stopped a
// lineScanner with limit max after line lines of file: a line beyond the
// limit names it and the flag that raises it, as tabular.Lines does.
func scanError(file string, line int, err error, max int) *ParseError {
	if errors.Is(err, bufio.ErrTooLong) {
		err = fmt.Errorf("%w: the line is longer than %s, the most this reader takes; %s", tabular.ErrTooLong, tabular.Size(max), tabular.LimitHint)
	}
	return &ParseError{File: file, Line: line + 1, Err: err}
}
