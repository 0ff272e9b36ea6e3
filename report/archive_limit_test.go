package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/tabular"
)

// An inspect .eval log whose five sample members inflate to 300 KB each
// (about 1.5 MB in all, in a file of about 800 KB; each far under the member limit of 256 MiB and,
// being hex digits that deflate about 2:1, under the ratio guard) is
// refused by `import --max-file-mib 1` with exit 1, naming the log, the
// limit and the flag; at the default limit it is read.
func TestImportArchiveTotalCap(t *testing.T) {
	t.Cleanup(func() { tabular.Limit, tabular.MaxFile = tabular.DefaultLimits, tabular.DefaultMaxFile })
	zr, err := zip.OpenReader("../pkg/interop/testdata/inspect/qa_hi_bn.eval")
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var p strings.Builder
	x := uint32(1)
	for p.Len() < 300_000 {
		x = x*1664525 + 1013904223
		fmt.Fprintf(&p, "%08x", x)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
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
		if strings.HasPrefix(f.Name, "samples/") {
			data = append([]byte(`{"pad": "`+p.String()+`", `), bytes.TrimPrefix(bytes.TrimSpace(data), []byte("{"))...)
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
	log := filepath.Join(t.TempDir(), "big.eval")
	if err := os.WriteFile(log, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if out.Len() > 1<<20 {
		t.Fatalf("the archive is %d bytes: the file itself should be under the 1 MiB limit", out.Len())
	}
	if _, stderr, code := runCLI(t, "import", log); code != 0 {
		t.Fatalf("at the default limit: exit %d, %s", code, stderr)
	}
	_, stderr, code := runCLI(t, "import", log, "--max-file-mib", "1")
	if code != 1 || !strings.Contains(stderr, log) || !strings.Contains(stderr, "more than 1 MiB") || !strings.Contains(stderr, "--max-file-mib") {
		t.Errorf("--max-file-mib 1: exit %d, %s; want exit 1 naming %s, 1 MiB and --max-file-mib", code, stderr, log)
	}
}
