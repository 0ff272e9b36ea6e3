package main

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalbook/evalbook/pkg/xlsxread"
)

// bombWorkbook is a workbook whose first sheet is mib MiB of one
// repeated row: it deflates about 1000:1, a small zip bomb.
func bombWorkbook(t *testing.T, mib int) []byte {
	t.Helper()
	base := genWorkbook(t, [][]any{{"id", "question"}, {"1", "q"}})
	zr, err := zip.NewReader(bytes.NewReader(base), int64(len(base)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		if f.Name != "xl/worksheets/sheet1.xml" {
			if err := zw.Copy(f); err != nil {
				t.Fatal(err)
			}
			continue
		}
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
		row := strings.Repeat(`<row><c t="inlineStr"><is><t>question</t></is></c></row>`, 1<<14)
		for n := 0; n < mib<<20; n += len(row) {
			io.WriteString(w, row)
		}
		io.WriteString(w, `</sheetData></worksheet>`)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// generate refuses a zip-bomb dataset by ratio by default, and by size
// under a low --max-inflated-mib, naming the file, the member, the limit
// and the flag; a bad limit is a usage error. Before the limits, the
// sheet was inflated and read.
func TestGenerateRefusesZipBomb(t *testing.T) {
	saved := xlsxread.Limit
	t.Cleanup(func() { xlsxread.Limit = saved })
	dir := t.TempDir()
	bomb := filepath.Join(dir, "bomb.xlsx")
	if err := os.WriteFile(bomb, bombWorkbook(t, 20), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.csv")
	args := []string{"generate", "--dataset", bomb, "--endpoint", "http://127.0.0.1:1/v1", "--model", "m", "--out", out, "--cache", "none"}
	for _, tc := range []struct {
		flags []string
		code  int
		want  []string
	}{
		{nil, 1, []string{"bomb.xlsx: workbook too large", `"xl/worksheets/sheet1.xml"`, "100:1", "--max-inflate-ratio"}},
		{[]string{"--max-inflate-ratio", "1e6", "--max-inflated-mib", "4"}, 1, []string{"bomb.xlsx: workbook too large", `"xl/worksheets/sheet1.xml"`, "4 MiB", "--max-inflated-mib"}},
		{[]string{"--max-inflated-mib", "0"}, 2, []string{"--max-inflated-mib must be at least 1"}},
	} {
		_, errOut, code := runCLI(t, append(args, tc.flags...)...)
		if code != tc.code {
			t.Errorf("%v: exit %d, stderr %q", tc.flags, code, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%v: stderr %q lacks %q", tc.flags, errOut, w)
			}
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: output written for a refused dataset", tc.flags)
		}
	}
}
