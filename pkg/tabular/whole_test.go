package tabular

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

// ReadAll and ReadFile take a file of up to the limit and refuse one
// byte more, naming the file, the limit and the flag; 0 means MaxFile.
func TestReadAllLimit(t *testing.T) {
	old := MaxFile
	t.Cleanup(func() { MaxFile = old })
	MaxFile = 100
	limit := "100 bytes"
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
			!strings.Contains(err.Error(), limit) || !strings.Contains(err.Error(), "--max-file-mib") {
			t.Errorf("%s: %v; want a file-too-large error naming it, %s and --max-file-mib", name, err, limit)
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
	// Read a byte at a time, the buffer doubles to the limit (1024, a
	// power of two) and the byte after it is probed.
	limit = "1024 bytes"
	for _, n := range []int{511, 512, 513, 1023, 1024, 1025} {
		in := strings.Repeat("y", n)
		data, err := ReadAll(iotest.OneByteReader(strings.NewReader(in)), "slow", 1024)
		check("slow", data, err, n, n > 1024)
		if err == nil && string(data) != in {
			t.Errorf("slow, %d bytes: the bytes read differ from the input", n)
		}
	}
	if _, err := ReadAll(iotest.ErrReader(errors.New("disk on fire")), "bad", 0); err == nil || !strings.Contains(err.Error(), "bad: disk on fire") {
		t.Errorf("a read error: %v", err)
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
