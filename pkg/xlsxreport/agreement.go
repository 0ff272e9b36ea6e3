package xlsxreport

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/xuri/excelize/v2"
)

// agreementSheet writes, for each pair of binary metrics, the four
// buckets with their meaning, the buckets per group, and example rows.
func (b *book) agreementSheet() error {
	const name = "Agreement"
	if err := b.addSheet(name); err != nil {
		return err
	}
	g := b.grid(name)
	widths := []float64{18, 10, 14, 17, 30, 60}
	g.widths(widths...)
	meaningWidth := widths[3] + widths[4] + widths[5]
	g.set(1, 1, "Agreement between metrics", b.st.title)
	g.text(1, 6, 2, "Each row falls in one bucket per pair of metrics. Rows where the metrics disagree (only one passes) are where a metric's blind spot shows: review them, or send them to a judge. The Disagreements sheet lists them all.", b.st.muted, 146)
	row := 3
	for _, a := range b.s.Agreement {
		row += 2
		g.set(1, row, fmt.Sprintf("%s (first) and %s (second), %d rows", a.First, a.Second, a.Total()), b.st.section)
		row++
		for c, h := range []string{"bucket", "rows", "share"} {
			g.set(c+1, row, h, b.st.header)
		}
		g.set(4, row, "meaning", b.st.header)
		if g.err == nil {
			g.err = b.f.MergeCell(name, cell(4, row), cell(6, row))
		}
		for _, bk := range results.Buckets {
			row++
			n := a.Count(bk.Name)
			g.set(1, row, bk.Name, b.st.label)
			g.set(2, row, n, b.st.integer)
			if t := a.Total(); t > 0 {
				g.set(3, row, float64(n)/float64(t), b.st.pctCenter)
			}
			g.text(4, 6, row, a.Meaning(bk.Name), b.st.indent, meaningWidth)
		}
		if len(a.Groups) > 0 {
			row += 2
			g.set(1, row, "Per group", b.st.label)
			row++
			for c, h := range []string{"group", "both", "neither", "only " + a.First, "only " + a.Second} {
				g.set(c+1, row, h, b.st.header)
			}
			if g.err == nil {
				g.err = b.f.SetRowHeight(name, row, 30)
			}
			for _, gr := range a.Groups {
				row++
				g.set(1, row, gr.Group, b.st.text)
				for c, n := range []int{gr.Both, gr.Neither, gr.OnlyFirst, gr.OnlySecond} {
					g.set(c+2, row, n, b.st.integer)
				}
			}
		}
		if len(a.Examples) > 0 {
			row += 2
			g.set(1, row, "Example rows (the first of each bucket, in file order)", b.st.label)
			row++
			for c, h := range []string{"bucket", "line", "id", "group", "golden answer", "response"} {
				g.set(c+1, row, h, b.st.header)
			}
			for _, bk := range results.Buckets {
				for _, ex := range a.Examples[bk.Name] {
					row++
					text, center, wrap := b.st.text, b.st.center, b.st.wrap
					lines := max(textLines(ex.ID, widths[2]), textLines(ex.Group, widths[3]), textLines(ex.Golden, widths[4]), textLines(ex.Response, widths[5]))
					if lines == 1 { // one line: bottom-aligned (see styles.lineText)
						text, center, wrap = b.st.lineText, b.st.lineCenter, b.st.lineWrap
					}
					g.set(1, row, bk.Name, text)
					g.set(2, row, ex.Line, center)
					g.set(3, row, ex.ID, wrap)
					g.set(4, row, ex.Group, wrap)
					g.set(5, row, ex.Golden, wrap)
					g.set(6, row, ex.Response, wrap)
					if g.err == nil {
						h := max(rowHeight(ex.Golden, widths[4]), rowHeight(ex.Response, widths[5]))
						g.err = b.f.SetRowHeight(name, row, h)
					}
				}
			}
		}
	}
	if g.err != nil {
		return g.err
	}
	// Its tables have headers of their own: the title and the note on
	// reading it stay in view, and the title heads every printed page.
	b.printTitles[name] = 1
	return b.f.SetPanes(name, &excelize.Panes{Freeze: true, YSplit: 2, TopLeftCell: "A3", ActivePane: "bottomLeft"})
}

// warningsSheet lists every warning of the result and the notes from
// rendering, so nothing the reader must know stays on a terminal.
func (b *book) warningsSheet() error {
	const name = "Warnings"
	if err := b.addSheet(name); err != nil {
		return err
	}
	g := b.grid(name)
	g.widths(22, 9, 28, 90)
	g.set(1, 1, "Warnings", b.st.title)
	g.text(1, 4, 2, "What the reader of these figures must know: counts of rows that score in a surprising way, and the first lines (in the input file) where each occurs.", b.st.muted, 149)
	const head = 4
	for c, h := range []string{"warning", "rows", "first lines", "what it means"} {
		g.set(c+1, head, h, b.st.header)
	}
	row := head
	for _, w := range b.s.Warnings {
		row++
		g.set(1, row, w.Code, b.st.label)
		g.set(2, row, w.Count, b.st.integer)
		lines := joinInts(w.Lines)
		if w.Count > len(w.Lines) && len(w.Lines) > 0 {
			lines += fmt.Sprintf(", ... %d more", w.Count-len(w.Lines))
		}
		g.set(3, row, lines, b.st.wrap)
		g.set(4, row, w.Message, b.st.wrap)
		if g.err == nil {
			g.err = b.f.SetRowHeight(name, row, max(rowHeight(w.Message, 90), rowHeight(lines, 28)))
		}
	}
	for _, n := range b.notes {
		row++
		g.set(1, row, "report", b.st.label)
		g.set(4, row, n, b.st.wrap)
		if g.err == nil {
			g.err = b.f.SetRowHeight(name, row, rowHeight(n, 90))
		}
	}
	if row == head {
		row++
		g.set(1, row, "none", b.st.text)
		g.set(4, row, "No warnings: no empty golden answers, blank responses, untrimmed golden answers or mixed Unicode forms were found.", b.st.wrap)
	}
	if g.err != nil {
		return g.err
	}
	b.printTitles[name] = head
	return b.f.SetPanes(name, &excelize.Panes{Freeze: true, YSplit: head, TopLeftCell: cell(1, head+1), ActivePane: "bottomLeft"})
}

func joinInts(x []int) string {
	s := make([]string, len(x))
	for i, v := range x {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ", ")
}
