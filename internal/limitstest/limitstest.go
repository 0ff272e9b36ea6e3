// Package limitstest holds the helpers that the tests of the reading
// limits share (pkg/design, pkg/harness, pkg/interop, pkg/tasks): setting
// tabular's record and file limits for one test, and checking that an
// error is a limit error that names what a user needs to raise it.
package limitstest

import (
	"errors"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// Set sets tabular's record limit (--max-field-mib) and file limit
// (--max-file-mib) for the rest of the test; 0 leaves the default.
func Set(t testing.TB, record int, file int64) {
	t.Helper()
	oldRec, oldFile := tabular.Limit, tabular.MaxFile
	t.Cleanup(func() { tabular.Limit, tabular.MaxFile = oldRec, oldFile })
	tabular.Limit.MaxRecord, tabular.MaxFile = record, file
}

// Refused checks that err is a *tabular.ParseError wrapping sentinel
// (tabular.ErrTooLong, tabular.ErrFileTooLarge) whose text names each
// of want: the file and line, the limit, the flag.
func Refused(t testing.TB, what string, err, sentinel error, want ...string) {
	t.Helper()
	var pe *tabular.ParseError
	if !errors.Is(err, sentinel) || !errors.As(err, &pe) {
		t.Errorf("%s: %v; want a *tabular.ParseError wrapping %v", what, err, sentinel)
		return
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: %v; want it to name %q", what, err, w)
		}
	}
}
