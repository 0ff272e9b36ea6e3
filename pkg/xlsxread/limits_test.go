package xlsxread

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"hash/crc32"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/evalbook/evalbook/pkg/qa"
)

// bombRow is one sheet row; repeated, the sheet XML deflates about
// 1000:1, which is how a 2 MB workbook becomes a 2 GiB sheet.
const bombRow = `<row><c t="inlineStr"><is><t>aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa</t></is></c></row>`

// sheetXML writes a worksheet of a header row and rows copies of bombRow.
func sheetXML(w io.Writer, rows int) {
	io.WriteString(w, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`+
		`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`+
		`<row><c t="inlineStr"><is><t>question</t></is></c><c t="inlineStr"><is><t>answer</t></is></c>`+
		`<c t="inlineStr"><is><t>Domain</t></is></c><c t="inlineStr"><is><t>response</t></is></c></row>`)
	chunk := []byte(strings.Repeat(bombRow, 1024))
	for ; rows >= 1024; rows -= 1024 {
		w.Write(chunk)
	}
	io.WriteString(w, strings.Repeat(bombRow, rows))
	io.WriteString(w, `</sheetData></worksheet>`)
}

// withSheet returns a copy of the workbook book whose first sheet is
// replaced by sheet (deflated as written) or, when raw is given, by
// those compressed bytes under a forged header declaring size bytes.
func withSheet(t *testing.T, book []byte, sheet func(io.Writer), raw []byte, size uint64, crc uint32) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(book), int64(len(book)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestCompression) })
	for _, f := range zr.File {
		if f.Name == "xl/worksheets/sheet1.xml" {
			if raw != nil {
				w, err := zw.CreateRaw(&zip.FileHeader{Name: f.Name, Method: zip.Deflate, CRC32: crc,
					CompressedSize64: uint64(len(raw)), UncompressedSize64: size})
				if err != nil {
					t.Fatal(err)
				}
				w.Write(raw)
				continue
			}
			w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Deflate})
			if err != nil {
				t.Fatal(err)
			}
			sheet(w)
			continue
		}
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func deflated(t *testing.T, write func(io.Writer)) (raw []byte, n int64, crc uint32) {
	t.Helper()
	var b bytes.Buffer
	fw, _ := flate.NewWriter(&b, flate.BestCompression)
	h := crc32.NewIEEE()
	cw := &countWriter{}
	write(io.MultiWriter(fw, h, cw))
	fw.Close()
	return b.Bytes(), cw.n, h.Sum32()
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

func tooLarge(t *testing.T, err error, want ...string) {
	t.Helper()
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
	var pe *qa.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("err %T is not a *qa.ParseError", err)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not name %q", err, w)
		}
	}
}

// A 20 MiB sheet deflated to about 20 KB (a small zip bomb) is refused
// by the default ratio limit before excelize inflates it; before the
// limits, it was read (and a 2 GiB one ran score past 120 s at 4.2 GB).
func TestZipBombRatio(t *testing.T) {
	base := book(t, [][]any{{"question", "answer", "Domain", "response"}, {"q", "a", "D", "r"}})
	rows := 20 << 20 / len(bombRow)
	data := withSheet(t, base, func(w io.Writer) { sheetXML(w, rows) }, nil, 0, 0)
	if len(data) > 200<<10 {
		t.Fatalf("bomb is %d bytes, want a small file", len(data))
	}
	start := time.Now()
	_, err := qa.Score(context.Background(), bytes.NewReader(data), "bomb.xlsx", qa.Options{})
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("refusal took %v, want under 2 s", d)
	}
	tooLarge(t, err, "bomb.xlsx", `"xl/worksheets/sheet1.xml"`, "100:1", "--max-inflate-ratio")
}

// With a low MaxInflated, the same kind of sheet (8 MiB, below the ratio
// floor) is refused by size, naming the limit and the flag; with the
// limits raised it is read.
func TestZipBombSize(t *testing.T) {
	base := book(t, [][]any{{"question", "answer", "Domain", "response"}, {"q", "a", "D", "r"}})
	rows := 8 << 20 / len(bombRow)
	data := withSheet(t, base, func(w io.Writer) { sheetXML(w, rows) }, nil, 0, 0)
	_, err := OpenLimits(bytes.NewReader(data), "bomb.xlsx", Limits{MaxInflated: 4 << 20})
	tooLarge(t, err, "bomb.xlsx", `"xl/worksheets/sheet1.xml"`, "4 MiB", "--max-inflated-mib")

	src, err := OpenLimits(bytes.NewReader(data), "bomb.xlsx", Limits{MaxInflated: 64 << 20, MaxRatio: 10000})
	if err != nil {
		t.Fatal(err)
	}
	if h, err := src.Header(); err != nil || len(h) != 4 {
		t.Fatalf("header %q, %v", h, err)
	}
	n := 0
	for {
		_, _, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != rows {
		t.Errorf("read %d rows, want %d", n, rows)
	}
}

// The default limits refuse a member that declares 2 GiB at once, from
// the central directory alone (nothing is inflated), in well under 2 s
// and without allocating anything near its size.
func TestDeclared2GiB(t *testing.T) {
	base := book(t, [][]any{{"question", "answer", "Domain", "response"}, {"q", "a", "D", "r"}})
	raw, _, crc := deflated(t, func(w io.Writer) { sheetXML(w, 1000) })
	data := withSheet(t, base, nil, raw, 2<<30, crc)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	_, err := Open(bytes.NewReader(data), "big.xlsx")
	d := time.Since(start)
	runtime.ReadMemStats(&m1)
	tooLarge(t, err, "big.xlsx", `"xl/worksheets/sheet1.xml"`, "2147483648", "1024 MiB", "--max-inflated-mib")
	if d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 200<<20 {
		t.Errorf("allocated %d bytes", a)
	}
}

// A header that declares 64 KiB for a sheet that inflates to 8 MiB
// (below every limit as declared) is caught while inflating: the bytes
// really inflated are bounded, not the header's word.
func TestForgedHeader(t *testing.T) {
	base := book(t, [][]any{{"question", "answer", "Domain", "response"}, {"q", "a", "D", "r"}})
	raw, n, crc := deflated(t, func(w io.Writer) { sheetXML(w, 8<<20/len(bombRow)) })
	if n < 8<<20 {
		t.Fatalf("sheet is %d bytes", n)
	}
	data := withSheet(t, base, nil, raw, 64<<10, crc)
	_, err := Open(bytes.NewReader(data), "forged.xlsx")
	if err == nil || !strings.Contains(err.Error(), "forged.xlsx") || !strings.Contains(err.Error(), "declares") {
		t.Fatalf("err = %v", err)
	}
}

// A file larger than MaxInflated is refused before it is read whole.
func TestFileLargerThanLimit(t *testing.T) {
	_, err := OpenLimits(io.MultiReader(strings.NewReader("PK"), bytes.NewReader(make([]byte, 2<<20))), "huge.xlsx", Limits{MaxInflated: 1 << 20})
	tooLarge(t, err, "huge.xlsx", "1 MiB", "--max-inflated-mib")
}

// withParts returns a copy of the workbook book with extra members added
// (named xl/media/partN.bin), each holding the given bytes.
func withParts(t *testing.T, book []byte, parts ...[]byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(book), int64(len(book)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range parts {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: "xl/media/part" + strconv.Itoa(i+1) + ".bin", Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(p)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// The total cap, not only a member's: four parts of 1 MiB each (zeros:
// a few KB in the file; under RatioFloor, so no ratio guard), every
// one under a 4 MiB MaxInflated, are refused together (the fourth
// brings the declared sum past 4 MiB), naming the member, the sum with
// the members before it, the limit and --max-inflated-mib; with
// MaxInflated at the whole sum the workbook opens.
func TestZipTotalOverMembers(t *testing.T) {
	base := book(t, [][]any{{"question", "answer", "Domain", "response"}, {"q", "a", "D", "r"}})
	part := make([]byte, 1<<20)
	data := withParts(t, base, part, part, part, part)
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var sum, before uint64
	for _, f := range zr.File {
		sum += f.UncompressedSize64
		if f.Name == "xl/media/part4.bin" {
			before = sum
		}
	}
	if _, err := OpenLimits(bytes.NewReader(data), "parts.xlsx", Limits{MaxInflated: int64(sum)}); err != nil {
		t.Fatalf("with MaxInflated at the sum %d: %v", sum, err)
	}
	_, err = OpenLimits(bytes.NewReader(data), "parts.xlsx", Limits{MaxInflated: 4 << 20})
	// the members before part4 hold the workbook's own parts and three
	// MiB of parts: past 4 MiB only with the fourth
	tooLarge(t, err, "parts.xlsx", `"xl/media/part4.bin"`, "declares 1048576 bytes", strconv.FormatUint(before, 10)+" with the members before it", "4 MiB", "--max-inflated-mib")
}
