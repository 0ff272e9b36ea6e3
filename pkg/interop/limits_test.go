package interop

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/internal/limitstest"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// copyDir copies the files of the folder src into a new temporary folder.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// A zero Limits follows tabular.Limit: an lm-eval sample line of about
// 5,000 bytes (line 2 padded with a member readers ignore) is refused
// under a 4096-byte record limit, by Read and by Check's parallel
// reader, naming the file, the line, the limit and --max-field-mib; it
// reads under the default limit, and an explicit Limits.Line wins.
func TestLineLimitFollowsFieldFlag(t *testing.T) {
	dir := copyDir(t, "testdata/lmeval/new/evalbook__tiny-hi")
	name := filepath.Join(dir, "samples_arc_easy_hi_2026-12-01T10-00-00.123456.jsonl")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[1] = `{"pad": "` + strings.Repeat("p", 3500) + `", ` + strings.TrimPrefix(lines[1], "{")
	if err := os.WriteFile(name, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(context.Background(), dir, Options{}); err != nil {
		t.Fatalf("under the default limit: %v", err)
	}
	limitstest.Set(t, 4096, 0)
	_, e1 := Read(context.Background(), dir, Options{})
	_, e2 := Check(context.Background(), dir, Options{})
	for i, err := range []error{e1, e2} {
		var pe *tabular.ParseError
		if !errors.Is(err, tabular.ErrTooLong) || !errors.As(err, &pe) || pe.File != name || pe.Line != 2 ||
			!strings.Contains(err.Error(), "4096 bytes") || !strings.Contains(err.Error(), "--max-field-mib") {
			t.Errorf("reader %d: %v; want %s:2, 4096 bytes and --max-field-mib", i+1, err, name)
		}
	}
	if _, err := Read(context.Background(), dir, Options{Limits: Limits{Line: 8192}}); err != nil {
		t.Errorf("an explicit Limits.Line of 8192: %v", err)
	}
}

// A zero Limits follows tabular.MaxFile: a JSON document one byte over
// it (an lm-eval results file, a promptfoo results file) is refused,
// naming the file, the limit and --max-file-mib, matching both
// ErrTooLarge and tabular.ErrFileTooLarge; at the limit it reads.
func TestFileLimitFollowsFileFlag(t *testing.T) {
	for _, tc := range []struct{ path, file string }{
		{"testdata/lmeval/new/evalbook__tiny-hi", "results_2026-12-01T10-00-00.123456.json"},
		{"testdata/promptfoo", "results_v3.json"},
	} {
		dir := t.TempDir()
		data, err := os.ReadFile(filepath.Join(tc.path, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, tc.file)
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		in := name // a promptfoo file is read as itself
		if strings.Contains(tc.path, "lmeval") {
			in = copyDir(t, tc.path) // an lm-eval output is read as its folder
			name = filepath.Join(in, tc.file)
		}
		limitstest.Set(t, 0, int64(len(data)))
		if _, err := Read(context.Background(), in, Options{}); err != nil {
			t.Errorf("%s at exactly the limit: %v", tc.file, err)
		}
		tabular.MaxFile = int64(len(data) - 1)
		_, err = Read(context.Background(), in, Options{})
		var pe *tabular.ParseError
		if !errors.Is(err, ErrTooLarge) || !errors.Is(err, tabular.ErrFileTooLarge) || !errors.As(err, &pe) || pe.File != name ||
			!strings.Contains(err.Error(), tabular.Size(len(data)-1)) || !strings.Contains(err.Error(), "--max-file-mib") {
			t.Errorf("%s: %v; want %s, %s and --max-file-mib", tc.file, err, name, tabular.Size(len(data)-1))
		}
	}
}
