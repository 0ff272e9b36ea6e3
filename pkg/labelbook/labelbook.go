// Package labelbook is the human-labelling round trip in Excel (evalbook
// label export / label import, issue 28): a seeded sample of judged rows,
// stratified by a column such as the language, goes out as a workbook
// with a drop-down per row; people fill it in; the workbooks come back,
// are checked cell by cell, and give the agreement between the labellers
// per group (Cohen's or Fleiss' kappa with a bootstrap interval, from
// pkg/agree), the items to adjudicate, and the labelled file that
// evalbook correct --labelled reads (id, human, judge and the group
// column).
//
// It is an edge package (excelize). The workbook has three sheets:
//
//   - Labels: row 1 holds the labeller's name (B1, the one cell to fill
//     besides the labels) and a progress formula; row 2 the header (#, id,
//     the group column, the shown columns, label, note); then one row per
//     item. Only the name, label and note cells are unlocked; the sheet is
//     protected (no password: it guards against slips, not people). The
//     label column has a drop-down of Values. Model text is written as
//     text, never as a formula, and a text longer than an Excel cell is cut
//     with a marker saying so.
//   - Guidelines: what to do and what the values mean.
//   - evalbook: very hidden, protected: the export's settings, each row's
//     id, group and judge verdict (the labellers do not see the judge),
//     and a SHA-256 digest of them that the import checks.
package labelbook

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// Format is the value of the hidden sheet's format cell.
const Format = "evalbook.labelbook/1"

// Sheet names.
const (
	SheetLabels     = "Labels"
	SheetGuidelines = "Guidelines"
	SheetMeta       = "evalbook"
)

// The label values of the drop-down. Pass and fail become the human
// verdicts 1 and 0; unsure is a label (it counts in the agreement) that
// sends the item to adjudication; an empty cell is not labelled.
const (
	Pass   = "pass"
	Fail   = "fail"
	Unsure = "unsure"
)

// Values are the drop-down's values, in order.
var Values = []string{Pass, Fail, Unsure}

// Rows of the Labels sheet: the name and progress row, the header, and
// the first item's row.
const (
	nameRow   = 1
	headerRow = 2
	firstRow  = 3
)

// The hidden sheet: key/value rows, then the items' header and rows.
const (
	metaFormatRow  = 1
	metaByRow      = 2
	metaSourceRow  = 3
	metaSeedRow    = 4
	metaDigestRow  = 5
	metaItemsRow   = 6
	metaLabelRow   = 7
	metaItemHeader = 9
	metaFirstItem  = 10
)

// Item is one sampled row: its id, group (the stratum; "" without one),
// the judge's verdict, the line of the judged file it came from, and the
// cells shown to the labellers (in Sample.Show's order).
type Item struct {
	ID    string   `json:"id"`
	Group string   `json:"group"`
	Judge bool     `json:"judge"`
	Line  int      `json:"line"`
	Shown []string `json:"-"`
}

// digest is the SHA-256 (hex) of what the import relies on: the format,
// the group column and every item's id, group and verdict, in order.
func digest(by string, items []Item) string {
	h := sha256.New()
	w := func(s string) {
		h.Write([]byte(strconv.Itoa(len(s))))
		h.Write([]byte{':'})
		h.Write([]byte(s))
	}
	w(Format)
	w(by)
	for _, it := range items {
		w(it.ID)
		w(it.Group)
		w(b01(it.Judge))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func b01(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// normLabel is a label cell as the import reads it: trimmed, lower case.
func normLabel(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// validLabel reports whether v (normalised) is a value of the list or
// empty.
func validLabel(v string) bool {
	return v == "" || v == Pass || v == Fail || v == Unsure
}
