package interop

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/internal/limitstest"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// rewriteEval writes a copy of the .eval log src to a new file, passing
// each member's bytes through edit (nil: unchanged), and returns its
// path and the bytes the members readInspect reads (header.json and the
// samples) inflate to in all.
func rewriteEval(t *testing.T, src string, edit func(name string, data []byte) []byte) (string, int64) {
	t.Helper()
	zr, err := zip.OpenReader(src)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	var read int64
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if edit != nil {
			data = edit(f.Name, data)
		}
		if f.Name == "header.json" || strings.HasPrefix(f.Name, "samples/") {
			read += int64(len(data))
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "log.eval")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, read
}

// pad is n bytes of hex digits from a linear congruential generator:
// text that deflates about 2:1, so a padded member stays far below the
// ratio guard, as the members of the 15 MB log did.
func pad(n int) string {
	var b strings.Builder
	x := uint32(1)
	for b.Len() < n {
		x = x*1664525 + 1013904223
		fmt.Fprintf(&b, "%08x", x)
	}
	return b.String()[:n]
}

// padSamples adds a "pad" key of n bytes to every sample member (the
// reader ignores keys it does not know).
func padSamples(n int) func(string, []byte) []byte {
	p := pad(n)
	return func(name string, data []byte) []byte {
		if !strings.HasPrefix(name, "samples/") {
			return data
		}
		return append([]byte(`{"pad": "`+p+`", `), bytes.TrimPrefix(bytes.TrimSpace(data), []byte("{"))...)
	}
}

// The archive, scaled down: five sample members of about 100 KB
// each, every one under the member limit and the ratio guard, refused
// by the total cap when the members together pass it. The header and
// samples inflate to `total` bytes (counted while writing the archive):
// under Limits.Archive = total the log reads; at total-1 it is refused
// from the declared sizes, naming the archive, the limit and
// --max-file-mib, matching ErrTooLarge and tabular.ErrFileTooLarge.
func TestArchiveTotalCap(t *testing.T) {
	path, total := rewriteEval(t, "testdata/inspect/qa_hi_bn.eval", padSamples(100_000))
	if total < 500_000 {
		t.Fatalf("the padded members inflate to %d bytes", total)
	}
	lim := Limits{Member: 200_000} // each member is under it
	lim.Archive = total
	run, err := Read(context.Background(), path, Options{Limits: lim})
	if err != nil {
		t.Fatalf("at exactly the cap (%d bytes): %v", total, err)
	}
	if len(run.Samples) != 5 {
		t.Fatalf("%d samples", len(run.Samples))
	}
	lim.Archive = total - 1
	_, err = Read(context.Background(), path, Options{Limits: lim})
	limitstest.Refused(t, "one byte under", err, tabular.ErrFileTooLarge, path, fmt.Sprintf("%d bytes", total), fmt.Sprintf("more than %d bytes", total-1), "--max-file-mib", "Limits.Archive")
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("%v: want ErrTooLarge", err)
	}
}

// A zero Limits.Archive follows --max-file-mib (tabular.MaxFile): the
// same archive is refused under a file limit below its total and read
// at the total.
func TestArchiveCapFollowsFileFlag(t *testing.T) {
	path, total := rewriteEval(t, "testdata/inspect/qa_hi_bn.eval", padSamples(100_000))
	limitstest.Set(t, 0, total)
	if _, err := Read(context.Background(), path, Options{}); err != nil {
		t.Fatalf("--max-file-mib at the total: %v", err)
	}
	tabular.MaxFile = total / 2
	_, err := Read(context.Background(), path, Options{})
	limitstest.Refused(t, "half the total", err, tabular.ErrFileTooLarge, path, "--max-file-mib", fmt.Sprintf("more than %d bytes", total/2))
}

// A member whose bytes are latin-1 (é as the one byte 0xE9) is refused
// with the archive, the member, the line and the column, instead of
// being read with U+FFFD in its place.
func TestArchiveMemberNotUTF8(t *testing.T) {
	path, _ := rewriteEval(t, "testdata/inspect/qa_hi_bn.eval", func(name string, data []byte) []byte {
		if name != "samples/2_epoch_1.json" {
			return data
		}
		// line 3 of the member is `  "epoch": 1,`; put "caf\xe9" in a string on it
		lines := bytes.SplitN(data, []byte("\n"), 4)
		lines[2] = []byte("  \"note\": \"caf\xe9\", \"epoch\": 1,")
		return bytes.Join(lines, []byte("\n"))
	})
	_, err := Read(context.Background(), path, Options{})
	var pe *tabular.ParseError
	if !errors.Is(err, tabular.ErrInvalidUTF8) || !errors.As(err, &pe) {
		t.Fatalf("err = %v; want a ParseError wrapping tabular.ErrInvalidUTF8", err)
	}
	// `  "note": "caf` is 14 characters: the bad byte is the 15th
	if pe.File != path+"[samples/2_epoch_1.json]" || pe.Line != 3 || pe.Column != 15 {
		t.Errorf("at %s:%d:%d; want %s[samples/2_epoch_1.json]:3:15", pe.File, pe.Line, pe.Column, path)
	}
}
