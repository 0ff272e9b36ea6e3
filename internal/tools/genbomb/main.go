// Command genbomb writes a small XLSX workbook whose one sheet inflates to
// a chosen size: a zip bomb for the hostile-input figures of docs/limits.md
// (what score and generate do with it) and for trying the limits of
// pkg/xlsxread by hand.
//
// Usage:
//
//	go run ./internal/tools/genbomb [-mib N] [-out FILE]
//
// The sheet repeats one row of an inline string; the rows deflate about
// 300:1, so -mib 2048 (the default) gives a workbook of about 7 MB that
// declares and holds 2 GiB of sheet XML. The output depends only on -mib.
package main

import (
	"archive/zip"
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	mib := flag.Int("mib", 2048, "inflated size of the sheet in `MiB`")
	out := flag.String("out", "bomb.xlsx", "the workbook to write")
	flag.Parse()
	if *mib < 1 {
		fmt.Fprintln(os.Stderr, "genbomb: -mib must be at least 1")
		os.Exit(2)
	}
	if err := write(*out, int64(*mib)<<20); err != nil {
		fmt.Fprintln(os.Stderr, "genbomb:", err)
		os.Exit(1)
	}
}

// The parts of a minimal workbook besides the sheet.
var parts = []struct{ name, body string }{
	{"[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`},
	{"_rels/.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`},
	{"xl/workbook.xml", `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`},
	{"xl/_rels/workbook.xml.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`},
}

func write(name string, size int64) (err error) {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, f.Close()) }()
	bw := bufio.NewWriterSize(f, 1<<20)
	zw := zip.NewWriter(bw)
	for _, p := range parts {
		w, err := zw.Create(p.name)
		if err != nil {
			return err
		}
		if _, err := io.WriteString(w, p.body); err != nil {
			return err
		}
	}
	w, err := zw.Create("xl/worksheets/sheet1.xml")
	if err != nil {
		return err
	}
	head := `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row><c t="inlineStr"><is><t>id</t></is></c><c t="inlineStr"><is><t>response</t></is></c></row>`
	tail := `</sheetData></worksheet>`
	row := `<row><c t="inlineStr"><is><t>1</t></is></c><c t="inlineStr"><is><t>an answer</t></is></c></row>`
	block := strings.Repeat(row, (1<<20)/len(row))
	n, err := io.WriteString(w, head)
	if err != nil {
		return err
	}
	written := int64(n)
	for written+int64(len(block))+int64(len(tail)) <= size {
		n, err := io.WriteString(w, block)
		if err != nil {
			return err
		}
		written += int64(n)
	}
	if _, err := io.WriteString(w, tail); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return bw.Flush()
}
