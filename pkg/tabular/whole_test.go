package tabular

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ReadAll and ReadFile take a file of up to the limit and refuse one
// byte more, naming the file, the limit and the flag; 0 means MaxFile.
func TestReadAllLimit(t *testing.T) {
	old := MaxFile
	t.Cleanup(func() { MaxFile = old })
	MaxFile = 100
	check := func(name string, data []byte, err error, wantLen int, tooBig bool) {
		t.Helper()
		if !tooBig {
			if err != nil || len(data) != wantLen {
				t.Errorf("%s: %d bytes, %v; want %d bytes", name, len(data), err, wantLen)
			}
			return
		}
		var pe *ParseError
		if !errors.Is(err, ErrFileTooLarge) || !errors.As(err, &pe) || pe.File != name ||
			!strings.Contains(err.Error(), "100 bytes") || !strings.Contains(err.Error(), "--max-file-mib") {
			t.Errorf("%s: %v; want a file-too-large error naming it, 100 bytes and --max-file-mib", name, err)
		}
	}
	for _, n := range []int{0, 99, 100, 101, 5000} {
		in := strings.Repeat("x", n)
		data, err := ReadAll(strings.NewReader(in), "in.json", 0)
		check("in.json", data, err, n, n > 100)
		p := filepath.Join(t.TempDir(), "f.json")
		if err := os.WriteFile(p, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		data, err = ReadFile(p, 0)
		check(p, data, err, n, n > 100)
	}
	// A limit of the caller's own wins over MaxFile.
	data, err := ReadAll(strings.NewReader(strings.Repeat("x", 150)), "own", 200)
	check("own", data, err, 150, false)
	// MaxFile 0 is the default, 1 GiB.
	MaxFile = 0
	if FileLimit() != DefaultMaxFile {
		t.Errorf("FileLimit() = %d with MaxFile 0, want %d", FileLimit(), DefaultMaxFile)
	}
	if err := FileTooLarge("x", DefaultMaxFile); !strings.Contains(err.Error(), "1024 MiB") {
		t.Errorf("%v: want 1024 MiB", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing"), 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// RecordLimit is Limit.MaxRecord, or DefaultMaxRecord when that is 0.
func TestRecordLimit(t *testing.T) {
	old := Limit
	t.Cleanup(func() { Limit = old })
	Limit.MaxRecord = 0
	if got := RecordLimit(); got != DefaultMaxRecord {
		t.Errorf("RecordLimit() = %d, want %d", got, DefaultMaxRecord)
	}
	Limit.MaxRecord = 1 << 20
	if got := RecordLimit(); got != 1<<20 {
		t.Errorf("RecordLimit() = %d, want %d", got, 1<<20)
	}
}
