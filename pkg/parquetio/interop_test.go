package parquetio

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/evalbook/evalbook/pkg/interop"
)

var writeFixture = flag.Bool("write-fixture", false, "rewrite pkg/interop's lighteval details fixture")

// interopFixture is the details file beside pkg/interop's lighteval
// fixture (testdata/make_fixtures.py writes its results_*.json, with em
// 1, 0, 1, 1 for mgsm:bn): four Bengali questions whose em this file holds.
const interopFixture = "../interop/testdata/lighteval/new/details/evalbook/tiny-bn/2026-12-01T10-00-00.000000/details_lighteval_mgsm_bn_0_2026-12-01T10-00-00.000000.parquet"

var mgsmCases = []lvCase{
	{"২ + ৩ = ?", "", "২ + ৩ = ?", []string{"৫"}, 0, []string{"৫"}, nil, 1, 1},
	{"৪ × ৩ = ?", "", "৪ × ৩ = ?", []string{"১২"}, 0, []string{"১৪"}, nil, 0, 0},
	{"১০ − ৭ = ?", "", "১০ − ৭ = ?", []string{"৩"}, 0, []string{"৩"}, nil, 1, 1},
	{"৯ ÷ ৩ = ?", "", "৯ ÷ ৩ = ?", []string{"৩"}, 0, []string{" ৩"}, []string{"৩"}, 1, 1},
}

// TestInteropFixture: pkg/interop's lighteval fixture is a real details
// file (go test -run TestInteropFixture -write-fixture ./pkg/parquetio
// rewrites it), and import --check recomputes its results file's em
// (0.75) from it.
func TestInteropFixture(t *testing.T) {
	if *writeFixture {
		if err := os.WriteFile(interopFixture, nestedDetailsOf(t, mgsmCases, "lighteval|mgsm:bn|0", ""), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run, err := interop.Read(context.Background(), "../interop/testdata/lighteval/new", interop.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Samples) != 4 || run.Samples[1].Golden != "১২" || run.Samples[1].Response != "১৪" {
		t.Fatalf("samples %+v", run.Samples)
	}
	rep, err := interop.CheckRun(run)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Errorf("check of the fixture does not agree: %+v", rep)
	}
}

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
