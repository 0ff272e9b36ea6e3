package agree

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
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
	rep := *r.rep
	rep.Disagreements = make([]results.RaterDisagreement, 0, len(r.dis))
	r.eachDisagreement(func(d results.RaterDisagreement) error {
		rep.Disagreements = append(rep.Disagreements, d)
		return nil
	})
	return &rep
}

// eachDisagreement gives each disagreement, in file order, to f, until f
// returns an error. Disagreements with the same ratings share one
// Ratings map: a million items hold a few dozen distinct rating tuples,
// and a map apiece would cost 300 bytes an item.
func (r *Result) eachDisagreement(f func(results.RaterDisagreement) error) error {
	t := r.tab
	var ids *idCursor
	if t.ids != nil {
		ids = t.ids.cursor()
	}
	// The items' names, cut from one string per block of items, so that
	// a list of them is not a string apiece.
	var names []int
	var b strings.Builder
	all, prev := "", 0
	const block = 4096
	shared := map[string]map[string]string{}
	key := make([]byte, 0, 4*len(t.raters))
	buf := make([]uint32, len(t.raters))
	for k, i := range r.dis {
		if ids != nil && k%block == 0 {
			end := min(k+block, len(r.dis))
			names = names[:0]
			b = strings.Builder{}
			n, look := 0, t.ids.cursor()
			for _, j := range r.dis[k:end] {
				n += len(look.at(j))
			}
			b.Grow(n)
			for _, j := range r.dis[k:end] {
				b.Write(ids.at(j))
				names = append(names, b.Len())
			}
			all, prev = b.String(), 0
		}
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
		if ids != nil {
			end := names[k%block]
			item, prev = all[prev:end], end
		} else {
			item = strconv.Itoa(i + 1)
		}
		if err := f(results.RaterDisagreement{Item: item, Line: t.line(i), Ratings: ratings}); err != nil {
			return err
		}
	}
	return nil
}

// WriteJSON writes what a json.Encoder with SetIndent("", "  ") and
// SetEscapeHTML(false) writes of Agreement(), byte for byte, without
// building the list of disagreements: each is encoded and written in
// turn.
func (r *Result) WriteJSON(w io.Writer) error {
	var head bytes.Buffer
	enc := json.NewEncoder(&head)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	summary := *r.rep
	summary.Disagreements = []results.RaterDisagreement{}
	if err := enc.Encode(&summary); err != nil {
		return err
	}
	// A key at the top level is the only text at two spaces after a line
	// break: strings are escaped, deeper keys further indented.
	const empty = "\n  \"disagreements\": []"
	text := head.Bytes()
	at := bytes.Index(text, []byte(empty))
	if at < 0 || bytes.Contains(text[at+len(empty):], []byte(empty)) {
		return fmt.Errorf("agree: the summary's JSON has no one %q", empty)
	}
	at += len(empty) - 1 // before the ]
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(text[:at])
	if len(r.dis) > 0 {
		var one bytes.Buffer
		item := json.NewEncoder(&one)
		item.SetIndent("    ", "  ")
		item.SetEscapeHTML(false)
		n := 0
		err := r.eachDisagreement(func(d results.RaterDisagreement) error {
			one.Reset()
			if err := item.Encode(d); err != nil {
				return err
			}
			bw.WriteString("\n    ")
			bw.Write(bytes.TrimSuffix(one.Bytes(), []byte{'\n'}))
			if n++; n < len(r.dis) {
				bw.WriteByte(',')
			}
			return nil
		})
		if err != nil {
			return err
		}
		bw.WriteString("\n  ")
	}
	bw.Write(text[at:])
	return bw.Flush()
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
	if len(r.dis) == 0 || !r.plainText() {
		return r.Agreement().WriteText(w)
	}
	lay, ok := r.layout()
	if !ok {
		return r.Agreement().WriteText(w)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	spaces := bytes.Repeat([]byte{' '}, 4096)
	pad := func(n int) {
		for n > 0 {
			k := min(n, len(spaces))
			bw.Write(spaces[:k])
			n -= k
		}
	}
	if err := r.writeSummary(bw, pad); err != nil {
		return err
	}
	r.writeDisagreements(bw, lay, pad)
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

// disLayout is the layout of the table of disagreements: each column's
// width in runes without the padding (item, line, then one per rater),
// and each label as the text shows it (at most results.MaxTextCell
// characters, results.TextCell) with its width by code (0: "-").
type disLayout struct {
	width      []int
	shown      []string
	labelWidth []int
}

// layout is the first pass over the disagreements: the widths of the
// columns. It reports false for an id that tabwriter would not take as
// plain text (tabSpecial).
func (r *Result) layout() (*disLayout, bool) {
	t := r.tab
	lay := &disLayout{width: make([]int, len(t.raters)+2), shown: make([]string, len(t.labels)), labelWidth: make([]int, len(t.labels)+1)}
	width := lay.width
	width[0], width[1] = len("item"), len("line")
	for j, name := range t.raters {
		width[j+2] = utf8.RuneCountInString(name)
	}
	lay.labelWidth[0] = 1 // "-"
	for c, l := range t.labels {
		lay.shown[c] = results.TextCell(l)
		lay.labelWidth[c+1] = utf8.RuneCountInString(lay.shown[c])
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
				return nil, false
			}
			width[0] = max(width[0], utf8.RuneCount(textCell(id)))
		} else {
			width[0] = max(width[0], digits(i+1))
		}
		width[1] = max(width[1], digits(t.line(i)))
		for j, c := range t.row(i, buf) {
			width[j+2] = max(width[j+2], lay.labelWidth[c])
		}
	}
	return lay, true
}

// writeSummary writes the figures: the summary's text up to its table
// of disagreements, written with the confusion matrix's labels left
// empty (a label of 50 MiB would otherwise be held, twice, by
// tabwriter); the matrix is laid out here, as tabwriter lays it out
// right-aligned (writeConfusion).
func (r *Result) writeSummary(bw *bufio.Writer, pad func(int)) error {
	summary := *r.rep
	summary.Disagreements, summary.Warnings = nil, nil
	conf := summary.Confusion
	if conf != nil && len(summary.Raters) >= 2 {
		blank := *conf
		blank.Labels = make([]string, len(conf.Labels))
		summary.Confusion = &blank
	} else {
		conf = nil
	}
	var head bytes.Buffer
	if err := summary.WriteText(&head); err != nil {
		return err
	}
	text, ok := bytes.CutSuffix(head.Bytes(), []byte(noDisagreements))
	if !ok {
		return fmt.Errorf("agree: the summary's text does not end in %q", noDisagreements)
	}
	if conf == nil {
		bw.Write(text)
		return nil
	}
	// The matrix's own lines hold only blanks, digits and line ends,
	// so the last place of its heading is its place.
	heading := "\nconfusion: " + summary.Raters[0] + " in rows, " + summary.Raters[1] + " in columns\n"
	k := bytes.LastIndex(text, []byte(heading))
	if k < 0 {
		return fmt.Errorf("agree: no %q in the summary's text", heading)
	}
	bw.Write(text[:k+len(heading)])
	writeConfusion(bw, conf, pad)
	return nil
}

// writeDisagreements is the second pass: the table of disagreements laid
// out as lay says, cells left-aligned and padded to their column's width
// plus two, the last column not padded.
func (r *Result) writeDisagreements(bw *bufio.Writer, lay *disLayout, pad func(int)) {
	t := r.tab
	ncol := len(lay.width)
	fmt.Fprintf(bw, "\ndisagreements, to adjudicate (%d)\n", len(r.dis))
	cell := func(col, runes int) { // the padding after a cell of column col
		if col < ncol-1 {
			pad(lay.width[col] + 2 - runes)
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
	var ids *idCursor
	if t.ids != nil {
		ids = t.ids.cursor()
	}
	buf := make([]uint32, len(t.raters))
	var num []byte
	for _, i := range r.dis {
		if ids != nil {
			id := textCell(ids.at(i))
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
				bw.WriteString(lay.shown[c-1])
			}
			cell(j+2, lay.labelWidth[c])
		}
		bw.WriteByte('\n')
	}
}

// writeConfusion writes the rows of a confusion matrix as
// results.RaterAgreement.WriteText does through text/tabwriter with
// AlignRight: every cell, the labels' heading row and column included,
// right-aligned in its column, to the widest cell of the column (in
// runes) plus two, and no padding after the last.
func writeConfusion(bw *bufio.Writer, c *results.RaterConfusion, pad func(int)) {
	k := len(c.Labels)
	width := make([]int, k+1)
	labels := make([]string, k)
	for i, l := range c.Labels {
		labels[i] = results.TextCell(l)
	}
	for i, l := range labels {
		w := utf8.RuneCountInString(l)
		width[0] = max(width[0], w)
		width[i+1] = max(width[i+1], w)
		for j, v := range c.Rows[i] {
			width[j+1] = max(width[j+1], digits(v))
		}
	}
	pad(width[0] + 2)
	for j, l := range labels {
		pad(width[j+1] + 2 - utf8.RuneCountInString(l))
		bw.WriteString(l)
	}
	bw.WriteByte('\n')
	var num []byte
	for i, l := range labels {
		pad(width[0] + 2 - utf8.RuneCountInString(l))
		bw.WriteString(l)
		for j, v := range c.Rows[i] {
			num = strconv.AppendInt(num[:0], int64(v), 10)
			pad(width[j+1] + 2 - len(num))
			bw.Write(num)
		}
		bw.WriteByte('\n')
	}
}

// noDisagreements ends the text of a result without disagreements.
const noDisagreements = "\nno disagreements\n"

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

// textCell is results.TextCell of an id held as bytes; an id that is
// short enough is returned as it is, without a copy.
func textCell(id []byte) []byte {
	if len(id) <= results.MaxTextCell {
		return id
	}
	n := 0
	for i := 0; i < len(id); {
		_, size := utf8.DecodeRune(id[i:])
		if n == results.MaxTextCell-1 {
			if i+size == len(id) {
				return id
			}
			return append(id[:i:i], "…"...)
		}
		n++
		i += size
	}
	return id
}
