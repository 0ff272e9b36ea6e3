package xlsxreport

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestParallelZip writes parts of sizes around the chunk and batch
// boundaries and reads them back with archive/zip, which checks every
// part's CRC-32 and sizes against the data descriptor.
func TestParallelZip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sizes := []int{0, 1, chunkSize - 1, chunkSize, chunkSize + 1, 4*chunkSize + 17, 9*chunkSize + 3}
	for _, workers := range []int{1, 2, 3} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			var buf bytes.Buffer
			pz := newParallelZip(&buf)
			want := map[string][]byte{}
			for i, n := range sizes {
				data := make([]byte, n)
				for j := range data {
					// Half compressible text, half noise.
					if (j/4096)%2 == 0 {
						data[j] = "<row><c>verdict</c></row>"[j%25]
					} else {
						data[j] = byte(rng.Uint32())
					}
				}
				name := fmt.Sprintf("part%d.xml", i)
				w, err := pz.Create(name)
				if err != nil {
					t.Fatal(err)
				}
				pz.cur.workers = workers
				// Write in uneven pieces, as io.Copy and excelize do.
				for rest := data; len(rest) > 0; {
					k := min(len(rest), 1+rng.IntN(3*chunkSize/2))
					if _, err := w.Write(rest[:k]); err != nil {
						t.Fatal(err)
					}
					rest = rest[k:]
				}
				want[name] = data
			}
			if err := pz.Close(); err != nil {
				t.Fatal(err)
			}
			zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			if err != nil {
				t.Fatal(err)
			}
			if len(zr.File) != len(sizes) {
				t.Fatalf("%d parts, want %d", len(zr.File), len(sizes))
			}
			for _, f := range zr.File {
				rc, err := f.Open()
				if err != nil {
					t.Fatal(err)
				}
				got, err := io.ReadAll(rc)
				rc.Close()
				if err != nil {
					t.Fatalf("%s: %v", f.Name, err)
				}
				if !bytes.Equal(got, want[f.Name]) || f.UncompressedSize64 != uint64(len(want[f.Name])) {
					t.Errorf("%s: read %d bytes, want %d", f.Name, len(got), len(want[f.Name]))
				}
			}
		})
	}
}

// TestWorkbookBytesReproducible renders the sample workbook several times
// (excelize orders streamed sheets and default content types by map
// iteration, which differed from run to run before parallelZip sorted
// them) and once more with a spool small enough to move to a temporary
// file: every rendering must give the same bytes, with the content types
// first and sorted, and no temporary file may be left.
func TestWorkbookBytesReproducible(t *testing.T) {
	s, verdicts := sample(t)
	created := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	s.Created = &created
	write := func() []byte {
		var buf bytes.Buffer
		if _, err := Write(&buf, s, Options{Verdicts: bytes.NewReader(verdicts), VerdictsName: "verdicts.csv"}); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	first := write()
	for i := 0; i < 4; i++ {
		if again := write(); !bytes.Equal(again, first) {
			t.Fatalf("rendering %d differs from the first (%d vs %d bytes)", i+2, len(again), len(first))
		}
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	old := spoolMemory
	spoolMemory = 1 << 10
	spilled := write()
	spoolMemory = old
	if !bytes.Equal(spilled, first) {
		t.Errorf("a workbook spooled through a temporary file differs from one spooled in memory")
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}

	zr, err := zip.NewReader(bytes.NewReader(first), int64(len(first)))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	if names[0] != contentTypesName || !slices.IsSorted(names[1:]) {
		t.Errorf("part order %q: want %s first, then by name", names, contentTypesName)
	}
	rc, err := zr.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(rc)
	rc.Close()
	var ct contentTypes
	if err := xml.Unmarshal(body, &ct); err != nil {
		t.Fatal(err)
	}
	if len(ct.Defaults) < 2 || len(ct.Overrides) < 7 || !slices.IsSortedFunc(ct.Defaults, func(a, b ctDefault) int { return strings.Compare(a.Extension, b.Extension) }) {
		t.Errorf("content types: %d defaults (sorted: want), %d overrides", len(ct.Defaults), len(ct.Overrides))
	}
	for _, d := range ct.Defaults {
		if d.Extension == "xml" && d.ContentType != "application/xml" {
			t.Errorf("the xml default lost its content type: %q", d.ContentType)
		}
	}
}
