package labelbook

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// DefaultGuidelines is the "How to label" text of the Guidelines sheet.
const DefaultGuidelines = `Read the question, the golden answer and the response, then choose a label in the label column.
pass: the response gives the same answer as the golden answer. A paraphrase, another script or numerals for the same answer, or extra detail that does not contradict it, passes.
fail: the response gives another answer, contradicts the golden answer, answers only part of it, or does not answer.
unsure: you cannot tell (the golden answer looks wrong, the question is ambiguous). Say why in the note; the item goes to adjudication.
Judge the answer, not the style: length, politeness and formatting do not count.`

// cutMarker is put at the end of a text longer than an Excel cell.
const cutMarker = " [... cut: %d characters in all; see the judged file]"

// maxCell is the most UTF-16 units an Excel cell holds.
const maxCell = excelize.TotalCellChars

// WriteWorkbook writes the sample as the labelling workbook to w (the
// Labels, Guidelines and hidden evalbook sheets; see the package
// comment) and records the texts it had to cut in s.Result's warnings.
func WriteWorkbook(w io.Writer, s *Sample) error {
	f := excelize.NewFile()
	defer f.Close()
	b := &book{f: f}
	b.labels(s)
	b.guidelines(s)
	b.meta(s)
	if b.err != nil {
		return fmt.Errorf("writing the workbook: %w", b.err)
	}
	if b.cut > 0 && s.Result != nil {
		s.Result.Warnings = append(s.Result.Warnings, results.Warning{Code: CodeCellsCut, Count: b.cut,
			Message: fmt.Sprintf("%d texts were longer than the %d characters an Excel cell holds and were cut, with a marker saying so", b.cut, maxCell)})
	}
	_, err := f.WriteTo(w)
	return err
}

type book struct {
	f   *excelize.File
	err error
	cut int
}

func (b *book) do(err error) {
	if b.err == nil {
		b.err = err
	}
}

func (b *book) style(st *excelize.Style) int {
	id, err := b.f.NewStyle(st)
	b.do(err)
	return id
}

// text writes v as a string cell: a shared string, never a formula,
// cut (with a marker) to what a cell holds.
func (b *book) text(sheet string, col, row int, v string) {
	if len(v) > maxCell/2 && utf16Len(v) > maxCell {
		b.cut++
		marker := fmt.Sprintf(cutMarker, utf8.RuneCountInString(v))
		v = cutUTF16(v, maxCell-utf16Len(marker)) + marker
	}
	b.do(b.f.SetCellStr(sheet, cell(col, row), v))
}

func (b *book) number(sheet string, col, row, v int) {
	b.do(b.f.SetCellInt(sheet, cell(col, row), int64(v)))
}

func cell(col, row int) string {
	name, _ := excelize.CoordinatesToCellName(col, row)
	return name
}

func colName(col int) string {
	name, _ := excelize.ColumnNumberToName(col)
	return name
}

// labelsLayout gives the Labels sheet's columns: #, id, the group column
// (when there is one), the shown columns, label, note.
type labelsLayout struct{ id, group, shown, label, note int }

func layout(s *Sample) labelsLayout {
	l := labelsLayout{id: 2, group: 0, shown: 3}
	if s.By != "" {
		l.group, l.shown = 3, 4
	}
	l.label = l.shown + len(s.Show)
	l.note = l.label + 1
	return l
}

func (b *book) labels(s *Sample) {
	const sh = SheetLabels
	b.do(b.f.SetSheetName("Sheet1", sh))
	l := layout(s)
	n := len(s.Items)
	last := firstRow + max(n, 1) - 1
	open := b.style(&excelize.Style{Protection: &excelize.Protection{Locked: false},
		Fill:   excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FFF2CC"}},
		Border: []excelize.Border{{Type: "left", Color: "BFBFBF", Style: 1}, {Type: "right", Color: "BFBFBF", Style: 1}, {Type: "bottom", Color: "BFBFBF", Style: 1}}})
	openWrap := b.style(&excelize.Style{Protection: &excelize.Protection{Locked: false}, Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"},
		Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FFF2CC"}}})
	wrap := b.style(&excelize.Style{Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}})
	top := b.style(&excelize.Style{Alignment: &excelize.Alignment{Vertical: "top"}})
	head := b.style(&excelize.Style{Font: &excelize.Font{Bold: true}, Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"D9E1F2"}}})
	bold := b.style(&excelize.Style{Font: &excelize.Font{Bold: true}})

	b.text(sh, 1, nameRow, "Labeller:")
	b.do(b.f.SetCellStyle(sh, cell(1, nameRow), cell(1, nameRow), bold))
	b.do(b.f.SetCellStyle(sh, cell(2, nameRow), cell(2, nameRow), open))
	// The progress formula reads the label cells only, never model text.
	rng := fmt.Sprintf("%s%d:%s%d", colName(l.label), firstRow, colName(l.label), last)
	b.do(b.f.SetCellFormula(sh, cell(3, nameRow), fmt.Sprintf(`="labelled: "&(COUNTIF(%[1]s,"%[2]s")+COUNTIF(%[1]s,"%[3]s")+COUNTIF(%[1]s,"%[4]s"))&" of %[5]d"`,
		rng, Pass, Fail, Unsure, n)))
	b.do(b.f.SetCellFormula(sh, cell(l.label, nameRow), fmt.Sprintf(`="pass share so far: "&IF(COUNTIF(%[1]s,"%[2]s")+COUNTIF(%[1]s,"%[3]s")=0,"-",TEXT(COUNTIF(%[1]s,"%[2]s")/(COUNTIF(%[1]s,"%[2]s")+COUNTIF(%[1]s,"%[3]s")),"0%%"))`,
		rng, Pass, Fail)))

	hdr := []string{"#", "id"}
	if s.By != "" {
		hdr = append(hdr, s.By)
	}
	hdr = append(hdr, s.Show...)
	hdr = append(hdr, "label", "note")
	for i, h := range hdr {
		b.text(sh, i+1, headerRow, h)
	}
	b.do(b.f.SetCellStyle(sh, cell(1, headerRow), cell(len(hdr), headerRow), head))
	for i, it := range s.Items {
		r := firstRow + i
		b.number(sh, 1, r, i+1)
		b.text(sh, l.id, r, it.ID)
		if l.group > 0 {
			b.text(sh, l.group, r, it.Group)
		}
		for j, v := range it.Shown {
			b.text(sh, l.shown+j, r, v)
		}
	}
	if n > 0 {
		b.do(b.f.SetCellStyle(sh, cell(1, firstRow), cell(l.label-1, last), top))
		if len(s.Show) > 0 {
			b.do(b.f.SetCellStyle(sh, cell(l.shown, firstRow), cell(l.label-1, last), wrap))
		}
		b.do(b.f.SetCellStyle(sh, cell(l.label, firstRow), cell(l.label, last), open))
		b.do(b.f.SetCellStyle(sh, cell(l.note, firstRow), cell(l.note, last), openWrap))
		dv := excelize.NewDataValidation(true)
		dv.SetSqref(rng)
		b.do(dv.SetDropList(Values))
		dv.SetError(excelize.DataValidationErrorStyleStop, "Not a label", "Choose pass, fail or unsure from the list (or leave the cell empty).")
		dv.SetInput("Label", "pass, fail or unsure: see the Guidelines sheet")
		b.do(b.f.AddDataValidation(sh, dv))
	}
	b.do(b.f.SetColWidth(sh, "A", "A", 5))
	b.do(b.f.SetColWidth(sh, colName(l.id), colName(l.id), 14))
	if l.group > 0 {
		b.do(b.f.SetColWidth(sh, colName(l.group), colName(l.group), 10))
	}
	for j, c := range s.Show {
		width := 40.0
		if c == "question" || c == "response" {
			width = 55
		}
		b.do(b.f.SetColWidth(sh, colName(l.shown+j), colName(l.shown+j), width))
	}
	b.do(b.f.SetColWidth(sh, colName(l.label), colName(l.label), 12))
	b.do(b.f.SetColWidth(sh, colName(l.note), colName(l.note), 30))
	b.do(b.f.SetPanes(sh, &excelize.Panes{Freeze: true, YSplit: headerRow, TopLeftCell: cell(1, firstRow), ActivePane: "bottomLeft"}))
	b.do(b.f.ProtectSheet(sh, &excelize.SheetProtectionOptions{SelectLockedCells: true, SelectUnlockedCells: true, FormatColumns: true, FormatRows: true}))
}

func (b *book) guidelines(s *Sample) {
	const sh = SheetGuidelines
	_, err := b.f.NewSheet(sh)
	b.do(err)
	how := s.Guidelines
	if strings.TrimSpace(how) == "" {
		how = DefaultGuidelines
	}
	bold := b.style(&excelize.Style{Font: &excelize.Font{Bold: true, Size: 13}})
	wrap := b.style(&excelize.Style{Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}})
	r := 1
	line := func(v string, st int) {
		b.text(sh, 1, r, v)
		if st != 0 {
			b.do(b.f.SetCellStyle(sh, cell(1, r), cell(1, r), st))
		}
		r++
	}
	line("How to label", bold)
	for _, ln := range strings.Split(strings.ReplaceAll(how, "\r\n", "\n"), "\n") {
		line(ln, wrap)
	}
	r++
	line("The workbook", bold)
	for _, ln := range []string{
		"Write your name in cell B1 of the Labels sheet, then choose a label for every row from the drop-down (" + strings.Join(Values, ", ") + "). A note is welcome where a label needs a reason.",
		"Label on your own: do not look at another labeller's workbook. The judge's verdict is not shown, on purpose.",
		"Do not edit the ids, sort, insert or delete rows: the import checks every id against the export and refuses a workbook whose ids changed, naming the cell.",
		fmt.Sprintf("%d items from %s, sampled with seed %d%s.", len(s.Items), results.DisplayName(s.Source), s.Seed, byNote(s.By)),
	} {
		line(ln, wrap)
	}
	b.do(b.f.SetColWidth(sh, "A", "A", 110))
	b.do(b.f.ProtectSheet(sh, &excelize.SheetProtectionOptions{SelectLockedCells: true, SelectUnlockedCells: true}))
}

func byNote(by string) string {
	if by == "" {
		return ""
	}
	return ", stratified by " + by
}

func (b *book) meta(s *Sample) {
	const sh = SheetMeta
	_, err := b.f.NewSheet(sh)
	b.do(err)
	kv := []struct {
		row      int
		key, val string
	}{
		{metaFormatRow, "format", Format},
		{metaByRow, "by", s.By},
		{metaSourceRow, "source", results.DisplayName(s.Source)},
		{metaSeedRow, "seed", strconv.FormatUint(s.Seed, 10)},
		{metaDigestRow, "digest", digest(s.By, s.Items)},
		{metaItemsRow, "items", strconv.Itoa(len(s.Items))},
		{metaLabelRow, "label_column", colName(layout(s).label)},
	}
	for _, x := range kv {
		b.text(sh, 1, x.row, x.key)
		b.text(sh, 2, x.row, x.val)
	}
	for i, h := range []string{"row", "id", "group", "judge", "line"} {
		b.text(sh, i+1, metaItemHeader, h)
	}
	for i, it := range s.Items {
		r := metaFirstItem + i
		b.number(sh, 1, r, firstRow+i)
		b.text(sh, 2, r, it.ID)
		b.text(sh, 3, r, it.Group)
		b.text(sh, 4, r, b01(it.Judge))
		b.number(sh, 5, r, it.Line)
	}
	b.do(b.f.ProtectSheet(sh, &excelize.SheetProtectionOptions{}))
	b.do(b.f.SetSheetVisible(sh, false, true))
	b.f.SetActiveSheet(0)
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// cutUTF16 returns the longest prefix of s, whole characters, of at most
// n UTF-16 units.
func cutUTF16(s string, n int) string {
	used := 0
	for i, r := range s {
		k := utf16.RuneLen(r)
		if k < 0 {
			k = 1
		}
		if used+k > n {
			return s[:i]
		}
		used += k
	}
	return s
}
