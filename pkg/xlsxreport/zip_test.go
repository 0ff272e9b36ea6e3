package xlsxreport

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"
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
