package agree

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalbook/evalbook/pkg/results"
)

// Result is an analysis whose disagreements are kept as the analysis
// found them (row numbers into the coded table) rather than as a
// results.RaterDisagreement apiece: what `evalbook agree` prints needs
// no more, and a million items with a quarter of them disagreements would
// otherwise hold a string, a line and a map reference per disagreement,
// and the text writer a cell per printed field on top.
type Result struct {
	rep *results.RaterAgreement // Disagreements left empty
	tab *codedTable
	dis []int // the rows of the disagreements, in file order
}

// AnalyzeCSVResult is AnalyzeCSV, returning the Result from which
// AnalyzeCSV's value comes (Agreement) and whose WriteText writes its
// text without building it.
func AnalyzeCSVResult(r io.Reader, name string, raters []string, idColumn string, opt Options) (*Result, error) {
	if err := opt.Validate(len(raters)); err != nil {
		return nil, err
	}
	t, err := readCoded(r, name, raters, idColumn)
	if err != nil {
		return nil, err
	}
	return analyzeResult(t, opt)
}

// Summary returns the result without its disagreements (an empty list):
// the figures, the confusion matrix and the warnings. The caller must not
// change it.
func (r *Result) Summary() *results.RaterAgreement { return r.rep }

// Disagreements returns the number of items on which the raters
// disagree.
func (r *Result) Disagreements() int { return len(r.dis) }

// Agreement returns the whole result, as AnalyzeCSV does: the summary
// with every disagreement listed (disagreements with the same ratings
// share one Ratings map: read it, do not change it). Each call builds a
// new one.
func (r *Result) Agreement() *results.RaterAgreement {
	t := r.tab
	rep := *r.rep
	rep.Disagreements = make([]results.RaterDisagreement, 0, len(r.dis))
	// The items' names, cut from one string.
	var names []int // ends in all
	var b strings.Builder
	if t.ids != nil {
		names = make([]int, len(r.dis))
		n, ids := 0, t.ids.cursor()
		for _, i := range r.dis {
			n += len(ids.at(i))
		}
		b.Grow(n)
		ids = t.ids.cursor()
		for k, i := range r.dis {
			b.Write(ids.at(i))
			names[k] = b.Len()
		}
	}
	all := b.String()
	// Items with the same ratings share one Ratings map: a million
	// items hold a few dozen distinct rating tuples, and a map apiece
	// would cost 300 bytes an item.
	shared := map[string]map[string]string{}
	key := make([]byte, 0, 4*len(t.raters))
	buf := make([]uint32, len(t.raters))
	prev := 0
	for k, i := range r.dis {
		row := t.row(i, buf)
		key = key[:0]
		for _, c := range row {
			key = binary.LittleEndian.AppendUint32(key, c)
		}
		ratings, ok := shared[string(key)]
		if !ok {
			ratings = make(map[string]string, len(t.raters))
			for j, name := range t.raters {
				ratings[name] = t.label(row[j])
			}
			shared[string(key)] = ratings
		}
		item := ""
		if names != nil {
			item, prev = all[prev:names[k]], names[k]
		} else {
			item = strconv.Itoa(i + 1)
		}
		rep.Disagreements = append(rep.Disagreements, results.RaterDisagreement{Item: item, Line: t.line(i), Ratings: ratings})
	}
	return &rep
}

// tabSpecial reports whether s holds a byte that text/tabwriter does not
// take as plain text (a cell or line end, or its escape byte).
func tabSpecial[T string | []byte](s T) bool {
	for i := range len(s) {
		switch s[i] {
		case '\t', '\v', '\n', '\f', 0xff:
			return true
		}
	}
	return false
}

// WriteText writes what Agreement().WriteText writes, byte for byte,
// without building the list of disagreements: the table of disagreements
// is laid out here in two passes over the rows (the widths of the
// columns, then the rows), as text/tabwriter lays it out in
// results.RaterAgreement.WriteText (cells left-aligned, padded with
// spaces to the widest cell of the column plus two, widths in runes, the
// last column not padded). Names that tabwriter would not take as plain
// text (a tab in an id, say) leave the writing to Agreement().WriteText.
func (r *Result) WriteText(w io.Writer) error {
	t := r.tab
	if len(r.dis) == 0 || !r.plainText() {
		return r.Agreement().WriteText(w)
	}
	ncol := len(t.raters) + 2
	width := make([]int, ncol) // in runes, without the padding
	width[0], width[1] = len("item"), len("line")
	for j, name := range t.raters {
		width[j+2] = utf8.RuneCountInString(name)
	}
	labelWidth := make([]int, len(t.labels)+1)
	labelWidth[0] = 1 // "-"
	for c, l := range t.labels {
		labelWidth[c+1] = utf8.RuneCountInString(l)
	}
	buf := make([]uint32, len(t.raters))
	var ids *idCursor
	if t.ids != nil {
		ids = t.ids.cursor()
	}
	for _, i := range r.dis {
		if ids != nil {
			id := ids.at(i)
			if tabSpecial(id) {
				return r.Agreement().WriteText(w)
			}
			width[0] = max(width[0], utf8.RuneCount(id))
		} else {
			width[0] = max(width[0], digits(i+1))
		}
		width[1] = max(width[1], digits(t.line(i)))
		for j, c := range t.row(i, buf) {
			width[j+2] = max(width[j+2], labelWidth[c])
		}
	}

	// The figures and the confusion matrix are what the summary's text
	// holds before its "no disagreements" (written on, not kept: a long
	// label pads every cell of the matrix to its width).
	bw := bufio.NewWriterSize(w, 64<<10)
	head := &holdBack{w: bw, tail: make([]byte, 0, len(noDisagreements))}
	summary := *r.rep
	summary.Disagreements, summary.Warnings = nil, nil
	if err := summary.WriteText(head); err != nil {
		return err
	}
	if string(head.tail) != noDisagreements {
		return fmt.Errorf("agree: the summary's text ends in %q, not %q", head.tail, noDisagreements)
	}
	fmt.Fprintf(bw, "\ndisagreements, to adjudicate (%d)\n", len(r.dis))
	spaces := bytes.Repeat([]byte{' '}, 4096)
	pad := func(n int) {
		for n > 0 {
			k := min(n, len(spaces))
			bw.Write(spaces[:k])
			n -= k
		}
	}
	cell := func(col, runes int) { // the padding after a cell of column col
		if col < ncol-1 {
			pad(width[col] + 2 - runes)
		}
	}
	bw.WriteString("item")
	cell(0, 4)
	bw.WriteString("line")
	cell(1, 4)
	for j, name := range t.raters {
		bw.WriteString(name)
		cell(j+2, utf8.RuneCountInString(name))
	}
	bw.WriteByte('\n')
	if ids != nil {
		ids = t.ids.cursor()
	}
	var num []byte
	for _, i := range r.dis {
		if ids != nil {
			id := ids.at(i)
			bw.Write(id)
			cell(0, utf8.RuneCount(id))
		} else {
			num = strconv.AppendInt(num[:0], int64(i+1), 10)
			bw.Write(num)
			cell(0, len(num))
		}
		num = strconv.AppendInt(num[:0], int64(t.line(i)), 10)
		bw.Write(num)
		cell(1, len(num))
		for j, c := range t.row(i, buf) {
			if c == 0 {
				bw.WriteByte('-')
			} else {
				bw.WriteString(t.labels[c-1])
			}
			cell(j+2, labelWidth[c])
		}
		bw.WriteByte('\n')
	}
	if len(r.rep.Warnings) > 0 {
		bw.WriteString("\nwarnings:\n")
		for _, wr := range r.rep.Warnings {
			bw.WriteString("  ")
			bw.WriteString(wr.Message)
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

// noDisagreements ends the text of a result without disagreements.
const noDisagreements = "\nno disagreements\n"

// holdBack writes on to w all but the last cap(tail) bytes written to it,
// which it keeps in tail.
type holdBack struct {
	w    io.Writer
	tail []byte
}

func (h *holdBack) Write(p []byte) (int, error) {
	n := len(p)
	if over := len(h.tail) + len(p) - cap(h.tail); over > 0 {
		// Write on the oldest over bytes: from tail first, then from p.
		k := min(over, len(h.tail))
		if _, err := h.w.Write(h.tail[:k]); err != nil {
			return 0, err
		}
		h.tail = append(h.tail[:0], h.tail[k:]...)
		if over > k {
			if _, err := h.w.Write(p[:over-k]); err != nil {
				return 0, err
			}
			p = p[over-k:]
		}
	}
	h.tail = append(h.tail, p...)
	return n, nil
}

// plainText reports whether the raters' names and the labels are plain
// text to text/tabwriter (see tabSpecial).
func (r *Result) plainText() bool {
	for _, s := range r.tab.raters {
		if tabSpecial(s) {
			return false
		}
	}
	for _, s := range r.tab.labels {
		if tabSpecial(s) {
			return false
		}
	}
	return true
}

// digits returns the number of decimal digits of n ≥ 0.
func digits(n int) int {
	d := 1
	for n >= 10 {
		n /= 10
		d++
	}
	return d
}
