package labelbook

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/evalbook/evalbook/pkg/results"
	"github.com/evalbook/evalbook/pkg/tabular"
)

// Allocations of the sample over the groups.
const (
	AllocEqual        = "equal"
	AllocProportional = "proportional"
)

// Allocations lists the allocation names, the default first.
func Allocations() []string { return []string{AllocEqual, AllocProportional} }

// MaxItems bounds the sample: a workbook for people to fill in.
const MaxItems = 100_000

// DefaultShow are the columns shown to the labellers when Show is nil
// (those the judged file has): the response table's question, golden
// answer and response.
var DefaultShow = []string{"question", "answer", "response"}

// Warning codes of an export.
const (
	CodeNotJudged = "not_judged" // rows with no judge verdict, left out of the sample
	CodeCellsCut  = "cells_cut"  // texts longer than an Excel cell, cut with a marker
	CodeFewRows   = "few_rows"   // fewer rows than asked for: all were taken
)

// ExportOptions say what to sample and show.
type ExportOptions struct {
	// By is the stratum column (a language); "" samples all rows as one.
	By string
	// OptionalBy uses By only when the file has that column (evalbook's
	// default --by language); otherwise a missing By column is an error.
	OptionalBy bool
	// JudgeColumn holds the judge's verdict (0/1, true/false; an empty
	// cell is a row not judged). "" means "judge", or "llm_judge" (the
	// column of evalbook judge's verdict file) when there is no "judge".
	JudgeColumn string
	// N is how many items to sample in all (each group gets its share,
	// at most its rows).
	N int
	// Allocation shares N over the groups: equal (the default: each
	// group is corrected with its own labels, so each needs its own) or
	// proportional to the group's judged rows.
	Allocation string
	// Seed orders each group's rows (SHA-256 of the seed and the id), so
	// the same seed samples the same items whatever the row order.
	Seed uint64
	// Show are the columns shown to the labellers (nil: DefaultShow's
	// that the file has).
	Show []string
	// Guidelines replaces the "How to label" text (lines as rows).
	Guidelines string
}

// Sample is what an export writes: the items, by group then by their
// seeded order, and what the workbook says about them.
type Sample struct {
	Source     string
	By         string
	Seed       uint64
	Show       []string
	Guidelines string
	Items      []Item
	Result     *ExportResult
}

// GroupCount is one group's rows and sampled items.
type GroupCount struct {
	Group   string `json:"group"`
	Judged  int    `json:"judged"`
	Pass    int    `json:"judge_pass"`
	Sampled int    `json:"sampled"`
}

// ExportResult is label export's report: kind "label_export".
type ExportResult struct {
	Kind        string            `json:"kind"`
	Source      string            `json:"source"`
	Out         string            `json:"out"`
	By          string            `json:"by,omitempty"`
	JudgeColumn string            `json:"judge_column"`
	Allocation  string            `json:"allocation"`
	Seed        uint64            `json:"seed"`
	Show        []string          `json:"show"`
	Asked       int               `json:"asked"`
	Items       int               `json:"items"`
	Digest      string            `json:"digest"`
	Groups      []GroupCount      `json:"groups"`
	Warnings    []results.Warning `json:"warnings"`
}

// ErrOptions matches an option that cannot be used.
var ErrOptions = errors.New("bad label export option")

// ReadJudged reads the judged file (CSV or JSONL, by name's extension)
// and samples it: every row needs an id (unique, not empty) and a judge
// verdict (0/1, true/false, or empty: not judged, left out and counted),
// and the By column when one is given. Errors are *tabular.ParseError
// naming the file, line and column.
func ReadJudged(r io.Reader, name string, opt ExportOptions) (*Sample, error) {
	if opt.N < 1 || opt.N > MaxItems {
		return nil, fmt.Errorf("%w: %d items: want 1 to %d", ErrOptions, opt.N, MaxItems)
	}
	if opt.Allocation == "" {
		opt.Allocation = AllocEqual
	}
	if !slices.Contains(Allocations(), opt.Allocation) {
		return nil, fmt.Errorf("%w: allocation %s: want equal or proportional", ErrOptions, tabular.Quote(opt.Allocation))
	}
	rd, err := tabular.NewReader(r, name, tabular.Options{})
	if err != nil {
		return nil, err
	}
	cols, err := judgedColumnsOf(rd, name, opt)
	if err != nil {
		return nil, err
	}
	opt.By = cols.by
	byGroup, notJudged, err := cols.readRows(rd, name, opt.Seed)
	if err != nil {
		return nil, err
	}
	if len(byGroup) == 0 {
		what := "no rows after the header"
		if notJudged > 0 {
			what = fmt.Sprintf("no judged row: the %d rows have an empty %s", notJudged, tabular.Quote(cols.judgeName))
		}
		return nil, &tabular.ParseError{File: name, Line: 1, Err: errors.New(what)}
	}
	return drawSample(byGroup, notJudged, name, cols, opt), nil
}

// judgedColumns are the columns of a judged file that an export reads:
// id, the judge's verdict (named judgeName), the group (by, -1 and ""
// without) and the columns shown to the labellers (show).
type judgedColumns struct {
	id, judge, byCol int
	judgeName, by    string
	show             []string
	showCols         []int
}

// judgedColumnsOf finds the columns in the header: the judge column is
// opt.JudgeColumn, else judge (or llm_judge when only it is there); the
// shown ones opt.Show, else those of DefaultShow present. A missing
// column is an error naming it, the header and what it is for.
func judgedColumnsOf(rd *tabular.Reader, name string, opt ExportOptions) (judgedColumns, error) {
	hdr := rd.Header()
	col := func(c, why string) (int, error) {
		if i := rd.Index(c); i >= 0 {
			return i, nil
		}
		return -1, &tabular.ParseError{File: name, Line: 1, Field: c, Err: fmt.Errorf("no column %s; the header has %s (%s)", tabular.Quote(c), tabular.QuoteList(hdr), why)}
	}
	var jc judgedColumns
	var err error
	if jc.id, err = col("id", "a judged file needs id and the judge's verdict"); err != nil {
		return jc, err
	}
	jc.judgeName = opt.JudgeColumn
	if jc.judgeName == "" {
		jc.judgeName = "judge"
		if rd.Index("judge") < 0 && rd.Index("llm_judge") >= 0 {
			jc.judgeName = "llm_judge"
		}
	}
	if jc.judge, err = col(jc.judgeName, "the judge's verdict, 0 or 1; name another with --judge-col"); err != nil {
		return jc, err
	}
	jc.byCol, jc.by = -1, opt.By
	if opt.OptionalBy && rd.Index(opt.By) < 0 {
		jc.by = ""
	}
	if jc.by != "" {
		if jc.byCol, err = col(jc.by, "--by names the column to stratify by"); err != nil {
			return jc, err
		}
	}
	jc.show = opt.Show
	if jc.show == nil {
		for _, c := range DefaultShow {
			if rd.Index(c) >= 0 {
				jc.show = append(jc.show, c)
			}
		}
	}
	jc.showCols = make([]int, len(jc.show))
	for i, c := range jc.show {
		if jc.showCols[i], err = col(c, "--show names the columns the labellers see"); err != nil {
			return jc, err
		}
	}
	return jc, nil
}

// keyedItem is a judged row's item and its sampling key: SHA-256 of the
// seed and the id, so that the same seed samples the same ids.
type keyedItem struct {
	it  Item
	key [32]byte
}

// readRows reads every row into its group's items, and counts the rows
// not judged (an empty verdict); an empty or repeated id, a verdict not
// 0/1/true/false, an empty group, or more than 10,000,000 rows is an
// error naming the line and column.
func (jc judgedColumns) readRows(rd *tabular.Reader, name string, seedValue uint64) (map[string][]keyedItem, int, error) {
	byGroup := map[string][]keyedItem{}
	seen := map[string]int{}
	notJudged, rows := 0, 0
	var seed [8]byte
	binary.BigEndian.PutUint64(seed[:], seedValue)
	for rd.Scan() {
		rec := rd.Record()
		rows++
		if rows > 10_000_000 {
			return nil, 0, &tabular.ParseError{File: name, Line: rec.Line, Err: errors.New("more than 10,000,000 rows; sample a smaller file")}
		}
		id := strings.TrimSpace(rec.Fields[jc.id])
		if id == "" {
			return nil, 0, rd.Errorf(jc.id, "empty id; every row needs one (the labels come back by id)")
		}
		if first, ok := seen[id]; ok {
			return nil, 0, rd.Errorf(jc.id, "id %s repeats line %d; each item once", tabular.Quote(id), first)
		}
		seen[id] = rec.Line
		it, judged, err := jc.item(rd, rec, id)
		if err != nil {
			return nil, 0, err
		}
		if !judged {
			notJudged++
			continue
		}
		h := sha256.New()
		h.Write(seed[:])
		h.Write([]byte(id))
		var key [32]byte
		h.Sum(key[:0])
		byGroup[it.Group] = append(byGroup[it.Group], keyedItem{it, key})
	}
	if err := rd.Err(); err != nil {
		return nil, 0, err
	}
	return byGroup, notJudged, nil
}

// item decodes the record of a row with the given id: its verdict
// (judged false when empty), group and shown cells.
func (jc judgedColumns) item(rd *tabular.Reader, rec *tabular.Record, id string) (Item, bool, error) {
	var judge bool
	switch strings.ToLower(strings.TrimSpace(rec.Fields[jc.judge])) {
	case "":
		return Item{}, false, nil
	case "1", "true":
		judge = true
	case "0", "false":
	default:
		return Item{}, false, rd.Errorf(jc.judge, "%s is not a verdict: want 0 or 1 (empty: not judged)", tabular.Quote(tabular.GuardFormula(rec.Fields[jc.judge])))
	}
	group := ""
	if jc.byCol >= 0 {
		if group = strings.TrimSpace(rec.Fields[jc.byCol]); group == "" {
			return Item{}, false, rd.Errorf(jc.byCol, "empty %s; every row needs its group", tabular.Quote(jc.by))
		}
	}
	it := Item{ID: id, Group: group, Judge: judge, Line: rec.Line, Shown: make([]string, len(jc.showCols))}
	for i, c := range jc.showCols {
		it.Shown[i] = rec.Fields[c]
	}
	return it, true, nil
}

// drawSample takes each group's share of opt.N items (allocate), the
// items of smallest key first, and says so in the result: per group the
// judged rows, judge passes and items taken, the digest, and warnings of
// rows not judged and of a file with fewer judged rows than asked for.
func drawSample(byGroup map[string][]keyedItem, notJudged int, name string, cols judgedColumns, opt ExportOptions) *Sample {
	groups := make([]string, 0, len(byGroup))
	for g := range byGroup {
		groups = append(groups, g)
	}
	slices.Sort(groups)
	sizes := make([]int, len(groups))
	total := 0
	for i, g := range groups {
		sizes[i] = len(byGroup[g])
		total += sizes[i]
	}
	take := allocate(sizes, opt.N, opt.Allocation == AllocProportional)
	s := &Sample{Source: name, By: opt.By, Seed: opt.Seed, Show: cols.show, Guidelines: opt.Guidelines}
	res := &ExportResult{Kind: "label_export", Source: name, By: opt.By, JudgeColumn: cols.judgeName, Allocation: opt.Allocation,
		Seed: opt.Seed, Show: cols.show, Asked: opt.N, Warnings: []results.Warning{}}
	if res.Show == nil {
		res.Show = []string{}
	}
	for i, g := range groups {
		rs := byGroup[g]
		slices.SortFunc(rs, func(a, b keyedItem) int {
			if c := strings.Compare(string(a.key[:]), string(b.key[:])); c != 0 {
				return c
			}
			return strings.Compare(a.it.ID, b.it.ID)
		})
		gc := GroupCount{Group: g, Judged: len(rs), Sampled: take[i]}
		for _, r := range rs {
			if r.it.Judge {
				gc.Pass++
			}
		}
		for _, r := range rs[:take[i]] {
			s.Items = append(s.Items, r.it)
		}
		res.Groups = append(res.Groups, gc)
	}
	res.Items = len(s.Items)
	res.Digest = digest(s.By, s.Items)
	if notJudged > 0 {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeNotJudged, Count: notJudged,
			Message: fmt.Sprintf("%d rows have no judge verdict (an empty %s: a failed or invalid judge reply) and were left out of the sample", notJudged, tabular.Quote(cols.judgeName))})
	}
	if total < opt.N {
		res.Warnings = append(res.Warnings, results.Warning{Code: CodeFewRows, Count: total,
			Message: fmt.Sprintf("%d items asked for, the file has %d judged rows: all were taken", opt.N, total)})
	}
	s.Result = res
	return s
}

// allocate shares n over groups of the given sizes, none beyond its size:
// equally (the remainder to the first groups in order) or in proportion
// to size (largest remainders first, ties to the earlier group), and
// what a full group cannot take goes to the others the same way.
func allocate(sizes []int, n int, proportional bool) []int {
	take := make([]int, len(sizes))
	total := 0
	for _, s := range sizes {
		total += s
	}
	if n >= total {
		copy(take, sizes)
		return take
	}
	left := n
	for left > 0 {
		var open []int
		weight := 0
		for i, s := range sizes {
			if take[i] < s {
				open = append(open, i)
				weight += s
			}
		}
		share := make([]int, len(open))
		rem := make([]float64, len(open))
		given := 0
		for j, i := range open {
			exact := float64(left) / float64(len(open))
			if proportional {
				exact = float64(left) * float64(sizes[i]) / float64(weight)
			}
			share[j] = int(exact)
			rem[j] = exact - float64(share[j])
			given += share[j]
		}
		order := make([]int, len(open))
		for j := range order {
			order[j] = j
		}
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case rem[a] > rem[b]:
				return -1
			case rem[a] < rem[b]:
				return 1
			}
			return 0
		})
		for _, j := range order[:left-given] {
			share[j]++
		}
		for j, i := range open {
			add := min(share[j], sizes[i]-take[i])
			take[i] += add
			left -= add
		}
	}
	return take
}

// GroupLabel is how a group is shown ("(all)" for the whole file).
func GroupLabel(g string) string {
	if g == "" {
		return "(all)"
	}
	return g
}

func itoa(n int) string { return strconv.Itoa(n) }
