// Move this file to pkg/parquetio/ once pkg/interop (branch s2-interop)
// is merged; it lives under testdata until then because it imports that
// package (checked with go test -overlay against the branch's commit
// 94eb499). Then add "pkg/interop" to parquetio's allow list in
// internal/depcheck.

package parquetio

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/evalbook/evalbook/pkg/interop"
)

// interop.Read of a lighteval details file goes through this package's
// reader; its rows written as Parquet read back.
func TestInteropLighteval(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, lvName)
	if err := os.WriteFile(p, nestedDetails(t, ""), 0o644); err != nil {
		t.Fatal(err)
	}
	run, err := interop.Read(context.Background(), p, interop.Options{Format: "lighteval"})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Samples) != 3 || run.Samples[2].Golden != "Dhaka" || run.Samples[0].Response != "New Delhi" {
		t.Fatalf("run %+v", run)
	}
	var buf bytes.Buffer
	if err := interop.WriteRows(&buf, run, "parquet"); err != nil {
		t.Fatal(err)
	}
	h, rows := readBack(t, buf.Bytes())
	if fmt.Sprint(h) != "[model task language sample_id doc_hash prompt response golden em f1]" || len(rows) != 3 || rows[1][9] != "0.5" {
		t.Errorf("rows %v %v", h, rows)
	}
	t.Logf("%v %v", h, rows[0])
}
