package htmlreport

import (
	"fmt"
	"strconv"

	"github.com/evalbook/evalbook/pkg/results"
)

// readVerdicts reads the verdict rows shown: the first MaxRows rows, and
// the first MaxRows rows where the binary metrics disagree. It stops as
// soon as both are found, so a million-row file costs a few thousand rows.
// Rows from a verdict file are checked against s (results.VerdictReader):
// all counts when it read the whole file, and that none exceeds s's when
// it stopped early; a contradiction is a *results.VerdictMismatch.
func readVerdicts(p *page, s *results.Score, opt Options) error {
	limit := opt.MaxRows
	if limit == 0 {
		limit = DefaultMaxRows
		if opt.Fragment {
			limit = FragmentMaxRows
		}
	}
	limit = max(limit, 0)
	name := opt.VerdictsName
	if name == "" {
		name = "verdicts"
	}
	rows := opt.Rows
	if rows == nil {
		vr, err := results.NewVerdictReader(opt.Verdicts, name, s)
		if err != nil {
			return err
		}
		rows = vr
	}
	sc := rows.Schema()
	if sc == nil {
		return fmt.Errorf("%s: no rows, the result has %d", name, s.Combined.N)
	}
	if !opt.Fragment {
		return readReview(p, s, rows, sc, limit)
	}
	return readFragment(p, s, rows, sc, limit)
}

// readFragment reads the verdict rows a page fragment (a notebook cell)
// lists as tables: the first limit rows and the first limit rows where
// the binary metrics disagree.
func readFragment(p *page, s *results.Score, rows results.Rows, sc *results.RowSchema, limit int) error {
	ver := &rowsView{Header: sc.Header, Numeric: sc.Numeric, Total: s.Combined.N}
	var dis *rowsView
	if sc.Binary() >= 2 {
		dis = &rowsView{Header: append([]string{"row"}, sc.Header...), Numeric: append([]bool{true}, sc.Numeric...), RowCol: true, Total: -1}
		// With exactly two binary metrics, the rows where they disagree
		// are the agreement's only_first and only_second buckets.
		if sc.Binary() == 2 && len(s.Agreement) == 1 {
			dis.Total = s.Agreement[0].OnlyFirst + s.Agreement[0].OnlySecond
		}
	}
	cells := fragmentCells(sc)
	n, found := 0, 0
	verDone := func() bool { return len(ver.Rows) >= limit }
	disDone := func() bool { return dis == nil || len(dis.Rows) >= limit || (dis.Total >= 0 && found == dis.Total) }
	// eof: every row was read; the loop stops as soon as both views are
	// full, before asking for another row.
	eof := !(verDone() && disDone())
	var rec []string
	if eof {
		for r, err := range rows.All() {
			if err != nil {
				return err
			}
			n++
			rec = sc.AppendCells(rec[:0], r)
			if !verDone() {
				ver.Rows = append(ver.Rows, cells(rec, 0))
			}
			if dis != nil && sc.Disagree(r) {
				found++
				if len(dis.Rows) < limit {
					dis.Rows = append(dis.Rows, cells(rec, n))
				}
			}
			if verDone() && disDone() {
				eof = false
				break
			}
		}
	}
	// At the end of a verdict file the reader has compared every count
	// with the result (a mismatch came back from All); a read that
	// stopped early checks that what it saw does not contradict the
	// result.
	if c, ok := rows.(interface{ CheckSoFar() error }); ok {
		if err := c.CheckSoFar(); err != nil {
			return err
		}
	}
	if eof && dis != nil {
		dis.Total = found
	}
	ver.markLong()
	if dis != nil {
		dis.markLong()
	}
	ver.Shown = len(ver.Rows)
	ver.Note = leftOut(ver.Shown, ver.Total, "rows")
	p.Verdicts = ver
	if dis != nil {
		dis.Shown = len(dis.Rows)
		if dis.Total >= 0 {
			dis.Note = leftOut(dis.Shown, dis.Total, "disagreement rows")
		} else if dis.Shown > 0 {
			dis.Note = fmt.Sprintf("Showing the first %s disagreement rows; more may follow in the verdict file.", commas(dis.Shown))
		}
		p.Disagreements = dis
	}
	return nil
}

// fragmentCells returns the cells of a fragment's verdict row: the row
// number (when rowNo > 0), then each value, 0/1 verdicts coloured.
func fragmentCells(sc *results.RowSchema) func(rec []string, rowNo int) []cellView {
	passFail := map[int]bool{}
	for i, c := range sc.MetricCol {
		if !sc.Graded[i] {
			passFail[c] = true
		}
	}
	return func(rec []string, rowNo int) []cellView {
		var out []cellView
		if rowNo > 0 {
			out = append(out, cellView{Text: strconv.Itoa(rowNo), Class: "num"})
		}
		for c, v := range rec {
			cv := cellView{Text: v}
			switch {
			case passFail[c] && v == "1":
				cv.Class = "pass"
			case passFail[c] && v == "0":
				cv.Class = "fail"
			case sc.Numeric[c]:
				cv.Class = "num"
			}
			out = append(out, cv)
		}
		return out
	}
}

// markLong gives the text cells of columns holding long texts (over 30
// characters in some shown row) the class "text long", which keeps them
// wide enough to read; short text columns stay narrow.
func (v *rowsView) markLong() {
	long := make([]bool, len(v.Header))
	for _, r := range v.Rows {
		for c, cv := range r {
			if cv.Class == "" && len(cv.Text) > 30 {
				long[c] = true
			}
		}
	}
	for _, r := range v.Rows {
		for c := range r {
			if r[c].Class == "" {
				r[c].Class = "text"
				if long[c] {
					r[c].Class = "text long"
				}
			}
		}
	}
}

// leftOut says how many of total rows are not shown.
func leftOut(shown, total int, what string) string {
	if shown >= total {
		return fmt.Sprintf("All %s %s are shown.", commas(total), what)
	}
	return fmt.Sprintf("Showing the first %s of %s %s; %s are left out here (the verdict CSV and the XLSX workbook hold every row).",
		commas(shown), commas(total), what, commas(total-shown))
}

// commas formats n with thousands separators.
func commas(n int) string {
	s := strconv.Itoa(n)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return neg + s
}

// readReview reads the rows of the page's review table: the first limit
// rows, and the disagreement rows after them until limit disagreement
// rows are held in all (so a disagreement is found past the first rows,
// as the fragment's disagreement table finds it). It stops as soon as
// both are found, and checks what it read against s as readVerdicts does.
func readReview(p *page, s *results.Score, rows results.Rows, sc *results.RowSchema, limit int) error {
	b := newReviewBuilder(sc, s)
	disTotal := -1
	if sc.Binary() == 2 && len(s.Agreement) == 1 {
		disTotal = s.Agreement[0].OnlyFirst + s.Agreement[0].OnlySecond
	}
	dis := sc.Binary() >= 2
	n, found, extra := 0, 0, 0
	done := func() bool {
		return n >= limit && (!dis || found >= limit || (disTotal >= 0 && found == disTotal))
	}
	var rec []string
	if !done() {
		for r, err := range rows.All() {
			if err != nil {
				return err
			}
			n++
			d := dis && sc.Disagree(r)
			if d {
				found++
			}
			switch {
			case n <= limit:
				rec = sc.AppendCells(rec[:0], r)
				b.add(n, r, rec)
			case d && found <= limit:
				rec = sc.AppendCells(rec[:0], r)
				b.add(n, r, rec)
				extra++
			}
			if done() {
				break
			}
		}
	}
	if c, ok := rows.(interface{ CheckSoFar() error }); ok {
		if err := c.CheckSoFar(); err != nil {
			return err
		}
	}
	rv := b.build("verdicts")
	rv.Note = reviewNote(rv.Rows, s.Combined.N, extra)
	p.Review = rv
	p.reviewInvisible = b.invisible
	return nil
}
